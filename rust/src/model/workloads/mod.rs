//! Workloads and their formats: operations and shapes, CSV, JSON Lines, either form, and the wire
//! format reads stream in.

pub mod csv;
pub mod input;
pub mod jsonl;
pub mod wire;
pub mod workload;
