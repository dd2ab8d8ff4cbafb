//! A row of the `(id INT, bal INT)` table. An upsert is a row too: the write of `bal` for `id`.

use serde::ser::{Serialize, SerializeTuple, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Row {
    pub id: i32,
    /// `None` is SQL NULL.
    pub bal: Option<i32>,
}

impl Row {
    pub fn new(id: i32, bal: Option<i32>) -> Self {
        Row { id, bal }
    }
}

/// Rows serialize as `[id, bal]` with `bal` possibly `null`, the report's row shape.
impl Serialize for Row {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.id)?;
        t.serialize_element(&self.bal)?;
        t.end()
    }
}

impl std::fmt::Display for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.bal {
            Some(b) => write!(f, "({}, {})", self.id, b),
            None => write!(f, "({}, NULL)", self.id),
        }
    }
}

/// Builds rows from the column arrays the JNI and C faces pass (`bal_null[i]` marks NULL).
pub fn rows_from_columns(ids: &[i32], bals: &[i32], bal_null: &[bool]) -> Vec<Row> {
    ids.iter()
        .zip(bals)
        .zip(bal_null)
        .map(|((&id, &bal), &null)| Row::new(id, (!null).then_some(bal)))
        .collect()
}
