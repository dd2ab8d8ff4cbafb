//! A row in canonical text: each cell as its value's canonical text ([`Value::canonical`]), so
//! rows compare by the value model's rules (NaN, -0.0, decimal scale, padding, precision), and
//! as people read it.

use crate::model::values::value::Value;
use crate::model::workloads::workload::Shape;

/// A row as canonical cells, in the table's column order; `None` is NULL (never a text, so no
/// string, not even `"NULL"`, can pass for it).
pub type CanonRow = Vec<Option<String>>;

/// The canonical cells of a row.
pub fn canon(shape: &Shape, values: &[Value]) -> CanonRow {
    values
        .iter()
        .zip(&shape.columns)
        .map(|(v, (_, ty))| (*v != Value::Null).then(|| v.canonical(*ty)))
        .collect()
}

pub(crate) fn key_of(shape: &Shape, row: &CanonRow) -> CanonRow {
    shape.key.iter().map(|&i| row[i].clone()).collect()
}

/// A row as people read it: NULL bare, texts quoted where they could be misread.
pub fn show_row(row: &CanonRow) -> String {
    let cells: Vec<String> = row
        .iter()
        .map(|c| match c {
            None => "NULL".to_string(),
            Some(t)
                if t.is_empty()
                    || t == "NULL"
                    || t.trim() != t
                    || t.chars().any(|ch| ",()\"".contains(ch) || ch.is_control()) =>
            {
                format!("{t:?}")
            }
            Some(t) => t.clone(),
        })
        .collect();
    format!("({})", cells.join(", "))
}
