//! The oracle over general rows: the expected state of a deduplicate table after ordered upserts
//! and deletes, a read's changes folded by key, and the comparison. Rows are compared by their
//! canonical cells ([`Value::canonical`]), so the rules for NaN, -0.0, decimal scale, padding
//! and precision are the value model's, in one place.

use crate::error::{Result, TierproofError};
use crate::model::rows::canon::{show_row, CanonRow};
use crate::model::rows::packed::{unpack, Packed, PackedKey, PackedMap, Packer};
use crate::model::values::value::Value;
use crate::model::workloads::workload::{Op, OpKind, Shape};
use std::sync::Arc;

mod batch;
mod fold;
pub mod spill;
#[cfg(test)]
mod tests;
mod writes;

use batch::set;
pub use batch::PackedBatch;
pub use writes::{writes_per_key, Writes};
use writes::{Slot, WriteCursor, KEPT};

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

/// How a read's changes are folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    /// A snapshot of a keyed table (a batch read): only inserts, each key once. A key read twice
    /// is an anomaly even when both rows are equal.
    Snapshot,
    /// A stream of a keyed table's raw writes (Paimon's `input` or `none` producer): `+I`/`+U`
    /// put the row of its key, `-D` removes it, `-U` removes it only if it equals the current
    /// row; anything else is an anomaly.
    Upserts,
    /// The stream of every write of a deduplicate table (Paimon's `input` producer): folded as
    /// [`Fold::Upserts`], and each key's changes must be exactly the writes the workload made to
    /// it, in order (an upsert's `+I` of its row, a delete's `-D` of the row it removed): a
    /// duplicated, missing or reordered write is an anomaly, even one that leaves the state right.
    Writes,
    /// A complete changelog of a keyed table (Fluss's log; Paimon's `lookup` and
    /// `full-compaction` producers): `+I` only for an absent key, `-U` then `+U` for an update
    /// (the `-U` equal to the current row), `-D` equal to the current row; a duplicated, missing
    /// or reordered change breaks one of these and is an anomaly.
    Changelog,
    /// A table without a key: +1 for `+I`/`+U`, -1 for `-U`/`-D`.
    Multiset,
}

/// A change that does not fit the state it arrives in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anomaly {
    pub index: usize,
    pub change: String,
    pub reason: String,
}

/// What a read folds to: its rows (sorted) and its anomalies.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Folded {
    pub rows: Vec<CanonRow>,
    pub anomalies: Vec<Anomaly>,
    /// Rows of a snapshot read that came as update-after (`+U`): counted as rows (the content is
    /// right), reported as a note, not an anomaly (see [`Fold::Snapshot`]).
    pub update_after_rows: u64,
}

fn show(kind: RowKind, row: &CanonRow) -> String {
    format!("{}{}", kind.short(), show_row(row))
}

/// A fold that takes a read's changes as they arrive, holding only the state (a row per key,
/// or a count per row), never the changes themselves. Rows and keys are packed
/// ([`crate::model::rows::packed`]): a change costs no allocation unless the fold keeps a row it did not hold.
#[derive(Debug, Clone)]
pub struct Folder {
    mode: Fold,
    state: PackedMap<Packed>,
    counts: PackedMap<u64>,
    anomalies: Vec<Anomaly>,
    update_after_rows: u64,
    /// Keys whose `-U` arrived and whose `+U` has not (a [`Fold::Changelog`]), with the `-U`.
    retracted: PackedMap<(usize, Packed)>,
    /// The writes a [`Fold::Writes`] stream must show, and how far each key's have come.
    writes: Option<WriteCursor>,
    /// How many changes came (the index just past the last).
    seen: usize,
    /// For [`Self::push`]: packs typed values.
    packer: Packer,
}

/// What `actual` lacks and holds beyond `expected` (both sorted multisets of rows).
pub fn diff(expected: &[CanonRow], actual: &[CanonRow]) -> (Vec<CanonRow>, Vec<CanonRow>) {
    let (mut missing, mut extra) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < expected.len() || j < actual.len() {
        match (expected.get(i), actual.get(j)) {
            (Some(e), Some(a)) if e == a => {
                i += 1;
                j += 1;
            }
            (Some(e), Some(a)) if e < a => {
                missing.push(e.clone());
                i += 1;
            }
            (Some(_), Some(a)) => {
                extra.push(a.clone());
                j += 1;
            }
            (Some(e), None) => {
                missing.push(e.clone());
                i += 1;
            }
            (None, Some(a)) => {
                extra.push(a.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    (missing, extra)
}
