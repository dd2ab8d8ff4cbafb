//! The general table model: any table's columns and values, its workloads, the merge rules of
//! Paimon's and Fluss's engines, and the oracle that folds reads as they stream in and judges
//! them. Every command's proof runs on it, the `(id INT, bal INT)` default included. By role:
//!
//! - [`values`]: a cell's type and value, civil dates and times;
//! - [`workloads`]: operations and shapes, CSV, JSON Lines, either form, the read wire format;
//! - [`rows`]: a row as canonical text, packed rows, the type round trip;
//! - [`merge`]: the merge engines and the expected state;
//! - [`search`]: seeded generation and shrinking;
//! - [`oracle`]: the fold of reads as they stream in, and a read's changes spilled to disk by
//!   partition when they are larger than memory;
//! - [`tables`]: table specs, the matrix's variants, views;
//! - [`proof`]: the proof, its statements, reads and verdict, judged whole or a partition at a
//!   time.
//!
//! A folder imports only the folders listed before it (a test may reach further), so no module
//! imports in a circle.

pub mod merge;
pub mod oracle;
pub mod proof;
pub mod rows;
pub mod search;
pub mod tables;
pub mod values;
pub mod workloads;

pub use values::types::DataType;
pub use values::value::Value;
