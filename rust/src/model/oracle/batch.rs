//! A batch of changes as they come off the wire: packed rows, folded at once.

use super::*;

/// Changes packed one after another (a batch of a read), to be folded together.
#[derive(Debug, Clone, Default)]
pub struct PackedBatch {
    pub(super) bytes: Vec<u8>,
    /// Per change: its index in the read, its kind, and where its key and row end in `bytes`
    /// (each starts where the one before ends).
    pub(super) changes: Vec<(usize, RowKind, usize, usize)>,
}

impl PackedBatch {
    pub fn push(&mut self, index: usize, kind: RowKind, key: &[u8], row: &[u8]) {
        self.bytes.extend_from_slice(key);
        let key_end = self.bytes.len();
        self.bytes.extend_from_slice(row);
        self.changes.push((index, kind, key_end, self.bytes.len()));
    }

    pub fn clear(&mut self) {
        self.bytes.clear();
        self.changes.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Each change: its index, kind, key and row, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (usize, RowKind, &[u8], &[u8])> {
        let mut from = 0;
        self.changes
            .iter()
            .map(move |&(index, kind, key_end, row_end)| {
                let change = (
                    index,
                    kind,
                    &self.bytes[from..key_end],
                    &self.bytes[key_end..row_end],
                );
                from = row_end;
                change
            })
    }
}

/// Puts `row` as `key`'s row, in place when it fits; whether the key held a row.
pub(super) fn set(state: &mut PackedMap<Packed>, key: &[u8], row: &[u8]) -> bool {
    match state.get_mut(key) {
        Some(old) if old.len() == row.len() => {
            old.copy_from_slice(row);
            true
        }
        Some(old) => {
            *old = row.into();
            true
        }
        None => {
            state.insert(key.into(), row.into());
            false
        }
    }
}
