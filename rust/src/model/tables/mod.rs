//! Tables: specs with their options, the matrix's variants, and views read over a table.

pub mod table_spec;
pub mod variant;
pub mod view;
