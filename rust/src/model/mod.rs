//! The general table model (issue 8, in progress): column types and typed values with canonical
//! comparison and Flink SQL literals. Today it serves the type round-trip check
//! ([`round_trip`]); the proofs still run on the `(id INT, bal INT)` model.

pub mod civil;
pub mod round_trip;
pub mod types;
pub mod value;

pub use types::DataType;
pub use value::Value;
