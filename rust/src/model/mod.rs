//! The general table model: any table's columns and values, its workloads, the merge rules of
//! Paimon's and Fluss's engines, and the oracle that folds reads as they stream in and judges
//! them. Every command's proof runs on it, the `(id INT, bal INT)` default included. By role:
//!
//! - values and types: [`types`], [`value`], [`civil`], [`canon`] (a row as canonical text),
//!   [`round_trip`];
//! - workloads and their formats: [`workload`] (operations, shapes, CSV), [`jsonl`], [`csv`],
//!   [`input`] (either form), [`generate`] (seeded), [`shrink`];
//! - merge engines: [`merge`]; tables and variants: [`table_spec`], [`variant`], [`view`];
//! - the fold and the judge: [`wire`] (the read wire format), [`packed`], [`oracle`], [`proof`];
//! - reads larger than memory: [`spill`] (changes on disk by partition), [`partition`] (judged a
//!   partition at a time).
//!
//! Modules import only along these lines, never in a circle.

pub mod canon;
pub mod civil;
pub mod csv;
pub mod generate;
pub mod input;
pub mod jsonl;
pub mod merge;
pub mod oracle;
pub mod packed;
pub mod partition;
pub mod proof;
pub mod round_trip;
pub mod shrink;
pub mod spill;
pub mod table_spec;
pub mod types;
pub mod value;
pub mod variant;
pub mod view;
pub mod wire;
pub mod workload;

pub use types::DataType;
pub use value::Value;
