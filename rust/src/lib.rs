//! tierproof's core: the Flink SQL for the tiered `(id INT, bal INT)` table and its upserts, and
//! the oracle that judges what batch and streaming reads return. Pure Rust; the JNI and C faces
//! (`jni`, `ffi`) only convert and report errors.

pub mod create_table;
pub mod ddl;
pub mod error;
pub mod ffi;
pub mod ident;
pub mod jni;
pub mod model;
pub mod oracle;
pub mod query;
pub mod row;
pub mod shrink;
pub mod spec;
pub mod upsert;
pub mod workload;

pub use ddl::{table_ddl, tier_table_ddl};
pub use error::{Result, TierproofError};
pub use row::Row;
pub use upsert::{batched_upsert_inserts, upsert_inserts};
