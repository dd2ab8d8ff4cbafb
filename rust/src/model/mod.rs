//! The general table model (issue 8, in progress): column types and typed values with canonical
//! comparison and Flink SQL literals, workloads of upserts and deletes from CSV, and the oracle
//! over general rows. Today it serves the type round-trip check ([`round_trip`]); the proofs
//! still run on the `(id INT, bal INT)` model until the pipeline is generalized.

pub mod civil;
pub mod csv;
pub mod generate;
pub mod jsonl;
pub mod merge;
pub mod oracle;
pub mod proof;
pub mod round_trip;
pub mod table_spec;
pub mod types;
pub mod value;
pub mod variant;
pub mod wire;
pub mod workload;

pub use types::DataType;
pub use value::Value;
