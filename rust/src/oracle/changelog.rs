//! Folding a read's changelog into the rows it stands for.
//!
//! A primary-key table's stream is an upsert stream: `+I`/`+U` put the row for its id, `-D`
//! removes it, `-U` removes it only if it equals the current row. Paimon's `input` producer
//! streams each write as `+I` with no `-U`, so counting +1/-1 would double-count: that multiset
//! fold is right only for a table without a key, where every row stands for itself.

use crate::error::{Result, TierproofError};
use crate::row::Row;
use serde::Serialize;
use std::collections::HashMap;

/// Flink's `RowKind`, with its byte codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    Insert,
    UpdateBefore,
    UpdateAfter,
    Delete,
}

impl RowKind {
    pub fn from_code(index: usize, code: i32) -> Result<Self> {
        match code {
            0 => Ok(RowKind::Insert),
            1 => Ok(RowKind::UpdateBefore),
            2 => Ok(RowKind::UpdateAfter),
            3 => Ok(RowKind::Delete),
            _ => Err(TierproofError::UnknownRowKind { index, code }),
        }
    }

    pub fn short(self) -> &'static str {
        match self {
            RowKind::Insert => "+I",
            RowKind::UpdateBefore => "-U",
            RowKind::UpdateAfter => "+U",
            RowKind::Delete => "-D",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    pub kind: RowKind,
    pub row: Row,
}

impl Change {
    pub fn insert(row: Row) -> Self {
        Change {
            kind: RowKind::Insert,
            row,
        }
    }
}

/// A change that does not fit the state it arrives in. Reported, never ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Anomaly {
    /// Position of the change in the read.
    pub index: usize,
    pub change: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Folded {
    /// The rows the changelog stands for, sorted.
    pub rows: Vec<Row>,
    pub anomalies: Vec<Anomaly>,
}

fn anomaly(index: usize, change: &Change, reason: &str) -> Anomaly {
    Anomaly {
        index,
        change: format!("{}{}", change.kind.short(), change.row),
        reason: reason.to_string(),
    }
}

/// Folds an upsert stream keyed by `id`.
pub fn fold_keyed(changes: &[Change]) -> Folded {
    let mut state: HashMap<i32, Option<i32>> = HashMap::new();
    let mut anomalies = Vec::new();
    for (i, c) in changes.iter().enumerate() {
        let Row { id, bal } = c.row;
        match c.kind {
            RowKind::Insert | RowKind::UpdateAfter => {
                state.insert(id, bal);
            }
            RowKind::Delete => {
                if state.remove(&id).is_none() {
                    anomalies.push(anomaly(i, c, "delete of an id that is not present"));
                }
            }
            RowKind::UpdateBefore => match state.get(&id) {
                Some(current) if *current == bal => {
                    state.remove(&id);
                }
                Some(_) => anomalies.push(anomaly(
                    i,
                    c,
                    "update-before does not match the current row",
                )),
                None => anomalies.push(anomaly(i, c, "update-before of an id that is not present")),
            },
        }
    }
    let mut rows: Vec<Row> = state
        .into_iter()
        .map(|(id, bal)| Row::new(id, bal))
        .collect();
    rows.sort_unstable();
    Folded { rows, anomalies }
}

/// Folds a stream of a table without a key: +1 for `+I`/`+U`, -1 for `-U`/`-D`.
pub fn fold_multiset(changes: &[Change]) -> Folded {
    let mut counts: HashMap<Row, i64> = HashMap::new();
    let mut anomalies = Vec::new();
    for (i, c) in changes.iter().enumerate() {
        match c.kind {
            RowKind::Insert | RowKind::UpdateAfter => *counts.entry(c.row).or_insert(0) += 1,
            RowKind::UpdateBefore | RowKind::Delete => match counts.get_mut(&c.row) {
                Some(n) if *n > 0 => *n -= 1,
                _ => anomalies.push(anomaly(i, c, "retraction of a row that is not present")),
            },
        }
    }
    let mut rows: Vec<Row> = counts
        .into_iter()
        .flat_map(|(row, n)| std::iter::repeat_n(row, n as usize))
        .collect();
    rows.sort_unstable();
    Folded { rows, anomalies }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(kind: RowKind, id: i32, bal: Option<i32>) -> Change {
        Change {
            kind,
            row: Row::new(id, bal),
        }
    }

    #[test]
    fn input_producer_stream_folds_to_latest() {
        let s = [
            ch(RowKind::Insert, 1, Some(10)),
            ch(RowKind::Insert, 1, Some(20)),
            ch(RowKind::Insert, 2, None),
        ];
        let f = fold_keyed(&s);
        assert_eq!(f.rows, [Row::new(1, Some(20)), Row::new(2, None)]);
        assert!(f.anomalies.is_empty());
        // The same stream counted as a multiset keeps both versions of id 1.
        assert_eq!(fold_multiset(&s).rows.len(), 3);
    }

    #[test]
    fn retractions_and_deletes() {
        let s = [
            ch(RowKind::Insert, 1, Some(10)),
            ch(RowKind::UpdateBefore, 1, Some(10)),
            ch(RowKind::UpdateAfter, 1, Some(11)),
            ch(RowKind::Insert, 2, Some(5)),
            ch(RowKind::Delete, 2, Some(5)),
        ];
        let f = fold_keyed(&s);
        assert_eq!(f.rows, [Row::new(1, Some(11))]);
        assert!(f.anomalies.is_empty());
    }

    #[test]
    fn mismatches_are_reported_not_ignored() {
        let s = [
            ch(RowKind::Insert, 1, Some(10)),
            ch(RowKind::UpdateBefore, 1, Some(99)),
            ch(RowKind::Delete, 7, None),
        ];
        let f = fold_keyed(&s);
        assert_eq!(f.rows, [Row::new(1, Some(10))]);
        assert_eq!(f.anomalies.len(), 2);
        assert_eq!(f.anomalies[0].change, "-U(1, 99)");
        assert_eq!(f.anomalies[1].index, 2);
        let m = fold_multiset(&[ch(RowKind::Delete, 1, None)]);
        assert_eq!(m.anomalies.len(), 1);
    }

    #[test]
    fn unknown_kind_code_is_an_error() {
        assert!(RowKind::from_code(4, 9)
            .unwrap_err()
            .to_string()
            .contains("code 9 at change #4"));
        assert_eq!(RowKind::from_code(0, 2).unwrap(), RowKind::UpdateAfter);
    }
}
