//! Generation and shrinking: seeded workloads, and smaller ones for a counterexample.

pub mod generate;
pub mod shrink;
