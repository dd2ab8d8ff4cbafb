//! Values and types: a cell's type and value, and civil dates and times.

pub mod civil;
pub mod types;
pub mod value;
