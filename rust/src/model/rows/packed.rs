//! A row as one allocation: its canonical cells one after another, each as the wire writes a
//! cell (0 for NULL, else the UTF-8 length plus one as a LEB128 varint, then the text). Cells
//! are canonical, so equal rows have equal bytes: a fold hashes and compares one byte string per
//! row instead of a vector of strings, and packs each change into reused buffers, allocating
//! only when it keeps a row it did not hold.

use crate::model::rows::canon::CanonRow;
use crate::model::values::types::DataType;
use crate::model::values::value::{int_bounds, Value};
use crate::model::workloads::wire::put_cell;
use crate::model::workloads::workload::Shape;
use std::fmt::Write;

/// A packed row (or key): see the module documentation.
pub type Packed = Box<[u8]>;

/// A packed key (or row) as a hash map holds it: up to 16 bytes inline, so finding a key
/// compares bytes already in the table's cache line instead of chasing a pointer to each
/// candidate's own allocation (with 100 000 keys that miss was a quarter of a fold's time).
pub type PackedKey = smallvec::SmallVec<[u8; 16]>;

/// Hash maps keyed by packed rows: Fx hashing (rustc's), as nothing here faces an adversary.
pub type PackedMap<V> = rustc_hash::FxHashMap<PackedKey, V>;

/// The cells of a packed row, in order.
fn cells(bytes: &[u8]) -> impl Iterator<Item = Option<&str>> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let (mut len, mut shift) = (0u64, 0);
        loop {
            let b = bytes[at];
            at += 1;
            len |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                break;
            }
            shift += 7;
        }
        if len == 0 {
            return Some(None);
        }
        let text = &bytes[at..at + (len - 1) as usize];
        at += (len - 1) as usize;
        // Only this module packs, and only from `str`s.
        Some(Some(
            std::str::from_utf8(text).expect("packed cells are UTF-8"),
        ))
    })
}

/// A packed row as canonical cells.
pub fn unpack(bytes: &[u8]) -> CanonRow {
    cells(bytes).map(|c| c.map(str::to_string)).collect()
}

/// Canonical cells, packed.
pub fn pack(row: &CanonRow) -> Packed {
    let mut out = Vec::new();
    for c in row {
        put_cell(&mut out, c.as_deref().map(str::as_bytes));
    }
    out.into_boxed_slice()
}

/// Packs rows into buffers it keeps: the row, and its key (the key columns' cells, in key
/// order), from typed values or from text as a reader returned it.
#[derive(Debug, Clone, Default)]
pub struct Packer {
    row: Vec<u8>,
    key: Vec<u8>,
    cell: String,
    /// Where each cell of the row starts and ends.
    bounds: Vec<(usize, usize)>,
}

impl Packer {
    /// The row packed last.
    pub fn row(&self) -> &[u8] {
        &self.row
    }

    /// The key of the row packed last.
    pub fn key(&self) -> &[u8] {
        &self.key
    }

    /// Whether cell `column` of the row packed last is exactly `canonical`'s text.
    pub fn cell_is(&self, column: usize, canonical: Option<&str>) -> bool {
        let (from, to) = self.bounds[column];
        let mut want = Vec::new();
        put_cell(&mut want, canonical.map(str::as_bytes));
        self.row[from..to] == want[..]
    }

    /// Packs typed values (their canonical text).
    pub fn values(&mut self, shape: &Shape, values: &[Value]) {
        self.start();
        for (v, (_, ty)) in values.iter().zip(&shape.columns) {
            self.cell.clear();
            let text = (*v != Value::Null).then(|| {
                v.write_canonical(*ty, &mut self.cell);
                self.cell.as_bytes()
            });
            let from = self.row.len();
            put_cell(&mut self.row, text);
            self.bounds.push((from, self.row.len()));
        }
        self.finish_key(shape);
    }

    /// Packs cells as a reader returned them, each typed and made canonical; false if a cell is
    /// not a value of its column's type (ask [`Shape::parse_row`] why).
    pub fn texts<S: AsRef<str>>(&mut self, shape: &Shape, cells: &[Option<S>]) -> bool {
        if cells.len() != shape.columns.len() {
            return false;
        }
        self.start();
        for (c, (_, ty)) in cells.iter().zip(&shape.columns) {
            let from = self.row.len();
            match c {
                None => put_cell(&mut self.row, None),
                Some(t) => {
                    self.cell.clear();
                    if !canonical_text(*ty, t.as_ref(), &mut self.cell) {
                        return false;
                    }
                    put_cell(&mut self.row, Some(self.cell.as_bytes()));
                }
            }
            self.bounds.push((from, self.row.len()));
        }
        self.finish_key(shape);
        true
    }

    /// Packs only the key of typed values (the row is left empty).
    pub fn key_of_values(&mut self, shape: &Shape, values: &[Value]) -> &[u8] {
        self.start();
        for &k in &shape.key {
            self.cell.clear();
            let text = (values[k] != Value::Null).then(|| {
                values[k].write_canonical(shape.columns[k].1, &mut self.cell);
                self.cell.as_bytes()
            });
            put_cell(&mut self.key, text);
        }
        &self.key
    }

    fn start(&mut self) {
        self.row.clear();
        self.key.clear();
        self.bounds.clear();
    }

    fn finish_key(&mut self, shape: &Shape) {
        for &k in &shape.key {
            let (from, to) = self.bounds[k];
            self.key.extend_from_slice(&self.row[from..to]);
        }
    }
}

/// The canonical text of `text` read as a value of `ty`, appended to `out` (the same text as
/// `Value::parse(ty, text)?.canonical(ty)`); false if it is not one. The common types take a
/// short way with no value built; the rest go through [`Value`].
fn canonical_text(ty: DataType, text: &str, out: &mut String) -> bool {
    match ty {
        DataType::TinyInt | DataType::SmallInt | DataType::Int | DataType::BigInt => {
            // Every integer type fits an i64: a text that overflows it is out of range anyway.
            let text = text.trim();
            let Ok(v) = text.parse::<i64>() else {
                return false;
            };
            let (min, max) = int_bounds(ty);
            if i128::from(v) < min || i128::from(v) > max {
                return false;
            }
            // Readers print integers canonically: then the text is copied, not formatted again.
            let digits = text.strip_prefix('-').unwrap_or(text);
            let canonical = !text.starts_with('+')
                && (digits.len() == 1 || !digits.starts_with('0'))
                && text != "-0";
            if canonical {
                out.push_str(text);
                true
            } else {
                write!(out, "{v}").is_ok()
            }
        }
        // A text's bytes bound its characters: count them only when the bytes exceed the limit.
        DataType::VarChar(n) if text.len() <= n as usize || text.chars().count() <= n as usize => {
            out.push_str(text);
            true
        }
        _ => match Value::parse(ty, text) {
            Ok(v) => {
                out.push_str(&v.canonical(ty));
                true
            }
            Err(_) => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_table::parse_create_table;

    fn shape(ddl: &str) -> Shape {
        Shape::of(&parse_create_table(ddl).expect("ddl")).expect("shape")
    }

    #[test]
    fn text_and_values_pack_alike_and_unpack_to_canonical_cells() {
        let s = shape(
            "CREATE TABLE t (k STRING, n INT, d DECIMAL(5, 2), c CHAR(3), s VARCHAR(2), \
             PRIMARY KEY (n, k) NOT ENFORCED)",
        );
        let mut p = Packer::default();
        assert!(p.texts(&s, &[Some("é"), Some(" 7"), Some("1.5"), Some("x"), None]));
        let (row, key) = (p.row().to_vec(), p.key().to_vec());
        let values = s
            .parse_row(&[Some("é"), Some("7"), Some("1.50"), Some("x"), None])
            .expect("row");
        p.values(&s, &values);
        assert_eq!((p.row(), p.key()), (&row[..], &key[..]));
        assert_eq!(
            unpack(&row),
            vec![
                Some("é".to_string()),
                Some("7".to_string()),
                Some("1.50".to_string()),
                Some("x  ".to_string()),
                None
            ]
        );
        assert_eq!(
            unpack(&key),
            vec![Some("7".to_string()), Some("é".to_string())]
        );
        assert_eq!(pack(&unpack(&row))[..], row[..]);
        assert!(p.cell_is(1, Some("7")) && !p.cell_is(1, Some("8")) && p.cell_is(4, None));
    }

    #[test]
    fn null_and_empty_and_long_cells_stay_apart() {
        let s = shape("CREATE TABLE t (a STRING, b STRING)");
        let mut p = Packer::default();
        let long = "x".repeat(300);
        assert!(p.texts(&s, &[Some(""), Some(long.as_str())]));
        let row = p.row().to_vec();
        assert!(p.texts(&s, &[None, Some(long.as_str())]));
        assert_ne!(p.row(), &row[..]);
        assert_eq!(unpack(&row), vec![Some(String::new()), Some(long)]);
    }

    #[test]
    fn what_is_not_a_value_of_its_type_is_refused() {
        let s = shape("CREATE TABLE t (a TINYINT, b VARCHAR(2))");
        let mut p = Packer::default();
        assert!(!p.texts(&s, &[Some("128"), None]));
        assert!(!p.texts(&s, &[Some("1"), Some("abc")]));
        assert!(p.texts(&s, &[Some("-128"), Some("éé")]));
        assert!(!p.texts(&s, &[Some("1")]));
    }

    #[test]
    fn integers_read_in_any_spelling_pack_as_their_canonical_text() {
        let s = shape("CREATE TABLE t (a BIGINT)");
        let mut p = Packer::default();
        for (text, canonical) in [
            ("7", "7"),
            (" +7 ", "7"),
            ("007", "7"),
            ("-0", "0"),
            ("0", "0"),
            ("-007", "-7"),
            ("-9223372036854775808", "-9223372036854775808"),
        ] {
            assert!(p.texts(&s, &[Some(text)]), "{text}");
            assert_eq!(unpack(p.row()), vec![Some(canonical.to_string())], "{text}");
        }
        assert!(!p.texts(&s, &[Some("9223372036854775808")]));
        assert!(!p.texts(&s, &[Some("1.0")]));
    }
}
