//! tierproof's core: the exercise's Flink SQL for the tiered `(id INT, bal INT)` table and its
//! upserts ([`ddl`], [`upsert`]); and the general table model ([`model`]): workloads for any
//! table, the merge rules of Paimon's and Fluss's engines, and the oracle that judges what batch
//! and streaming reads return. Pure Rust; the JNI and C faces (`jni`, `ffi`) only convert and
//! report errors.

pub mod create_table;
pub mod ddl;
pub mod error;
pub mod ffi;
pub mod ident;
pub mod jni;
pub mod model;
pub mod row;
pub mod upsert;

pub use ddl::{table_ddl, tier_table_ddl};
pub use error::{Result, TierproofError};
pub use row::Row;
pub use upsert::upsert_inserts;
