//! The general table model (issue 8): column types and typed values with canonical comparison
//! and Flink SQL literals; workloads of upserts and deletes (CSV, JSON Lines, generated); the
//! merge rules of Paimon's and Fluss's engines ([`merge`]); the oracle that folds reads as they
//! stream in ([`wire`], [`oracle`]) and judges them ([`proof`]); table specs and matrix variants.
//! `prove` of any table, `streamhouse` and `matrix` run on it; `prove`'s `(id INT, bal INT)`
//! default and `search` still run on the crate's original `(id, bal)` oracle.

pub mod civil;
pub mod csv;
pub mod generate;
pub mod jsonl;
pub mod merge;
pub mod oracle;
pub mod packed;
pub mod partition;
pub mod proof;
pub mod round_trip;
pub mod shrink;
pub mod table_spec;
pub mod types;
pub mod value;
pub mod variant;
pub mod view;
pub mod wire;
pub mod workload;

pub use types::DataType;
pub use value::Value;
