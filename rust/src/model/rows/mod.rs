//! Rows: a row as canonical text, rows packed into one byte string each, and the type round trip.

pub mod canon;
pub mod packed;
pub mod round_trip;
