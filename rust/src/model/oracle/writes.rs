//! The writes a read that streams every write must show, per key, in order (a replay checked
//! write by write).

use super::*;

/// How far a [`Fold::Writes`] stream has come through each key's writes.
#[derive(Debug, Clone)]
pub(super) struct WriteCursor {
    pub(super) writes: Arc<Writes>,
    /// Per slot, in one word (one cache miss a change, not two): how many of its writes the
    /// stream showed, in order, and in [`KEPT`] whether its row is kept in the fold's state
    /// (from its first change that was not its next write) rather than the one its last write
    /// shown left.
    pub(super) slots: Vec<u32>,
}

/// The bit of a [`WriteCursor`] slot saying its row is kept in the fold's state.
pub(super) const KEPT: u32 = 1 << 31;

impl WriteCursor {
    /// How many of a slot's writes the stream showed.
    pub(super) fn shown(&self, slot: usize) -> usize {
        (self.slots[slot] & !KEPT) as usize
    }

    /// Whether a slot's row is kept in the fold's state.
    pub(super) fn kept(&self, slot: usize) -> bool {
        self.slots[slot] & KEPT != 0
    }

    /// The row a slot's writes shown so far leave: its last write's, unless that was a delete.
    pub(super) fn row_of(&self, slot: usize) -> Option<&[u8]> {
        let shown = self.shown(slot);
        match shown.checked_sub(1).and_then(|i| self.writes.get(slot, i)) {
            Some((RowKind::Insert, row)) => Some(row),
            _ => None,
        }
    }
}

/// Each key's writes as a stream of every write shows them (see [`writes_per_key`]), each key
/// in a slot of its own: built once per workload, shared by every read that must show them (a
/// read keeps only how far along each slot it is). Laid out flat: every row once in one byte
/// arena, each slot's writes side by side.
#[derive(Debug, Default)]
pub struct Writes {
    /// Each key's slot, with where its writes lie: a change finds both in one probe.
    pub(super) slots: PackedMap<Slot>,
    pub(super) keys: Vec<Packed>,
    /// Where each slot's writes start in `writes` (one more entry than slots: the end).
    pub(super) starts: Vec<u32>,
    pub(super) writes: Vec<WriteAt>,
}

/// A key's slot and the range of `writes` that holds its writes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Slot {
    pub(super) index: u32,
    pub(super) start: u32,
    pub(super) end: u32,
}

/// A write's kind and its row, held inline when short: comparing a change with its key's next
/// write then reads one cache line.
#[derive(Debug, Clone)]
pub(super) struct WriteAt {
    pub(super) kind: RowKind,
    pub(super) row: PackedKey,
}

impl Writes {
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    /// A slot's `i`-th write: its kind and row.
    pub(super) fn get(&self, slot: usize, i: usize) -> Option<(RowKind, &[u8])> {
        self.within(self.starts[slot], self.starts[slot + 1], i)
    }

    /// The rows the writes leave (each key's last write, unless it was a delete), sorted: the
    /// deduplicate state of the workload they were built from.
    pub fn final_rows(&self) -> Vec<CanonRow> {
        let mut rows: Vec<CanonRow> = (0..self.len())
            .filter_map(|slot| {
                let last = self.starts[slot + 1].checked_sub(1)?;
                let w = &self.writes[last as usize];
                (last >= self.starts[slot] && w.kind == RowKind::Insert).then(|| unpack(&w.row))
            })
            .collect();
        rows.sort_unstable();
        rows
    }

    /// The `i`-th of the writes in `start..end`.
    pub(super) fn within(&self, start: u32, end: u32, i: usize) -> Option<(RowKind, &[u8])> {
        let at = start as usize + i;
        (at < end as usize).then(|| {
            let w = &self.writes[at];
            (w.kind, &w.row[..])
        })
    }
}

/// Each key's writes as a stream of every write shows them: an upsert's `+I` of its row, a
/// delete's `-D` of the row it removes (none for an absent key). Deduplicate rules.
pub fn writes_per_key(shape: &Shape, ops: &[Op]) -> Writes {
    let mut w = Writes::default();
    // Each write shown, in the workload's order, with its slot; then grouped by slot.
    let mut shown: Vec<(u32, WriteAt)> = Vec::with_capacity(ops.len());
    // The upsert (its place in `shown`) whose row each slot's key holds now: what a delete removes.
    let mut current: Vec<Option<usize>> = Vec::new();
    let mut p = Packer::default();
    let mut batch = PackedBatch::default();
    // A thousand operations at a time: packed, then every key looked up at once (the cache
    // misses overlap), then taken in order.
    for chunk in ops.chunks(1024) {
        batch.clear();
        for (i, op) in chunk.iter().enumerate() {
            p.values(shape, &op.values);
            let kind = match op.kind {
                OpKind::Upsert => RowKind::Insert,
                OpKind::Delete => RowKind::Delete,
            };
            batch.push(i, kind, p.key(), p.row());
        }
        let found: Vec<Option<u32>> = batch
            .iter()
            .map(|(_, _, key, _)| w.slots.get(key).map(|s| s.index))
            .collect();
        for ((_, kind, key, row), found) in batch.iter().zip(found) {
            // A key first written earlier in this chunk was not there when the chunk was looked up.
            let slot = match (found.or_else(|| w.slots.get(key).map(|s| s.index)), kind) {
                (Some(slot), _) => slot,
                (None, RowKind::Delete) => continue, // a key never written: the delete shows nothing
                (None, _) => {
                    let index = w.keys.len() as u32;
                    let slot = Slot {
                        index,
                        start: 0,
                        end: 0,
                    };
                    w.slots.insert(key.into(), slot);
                    w.keys.push(key.into());
                    current.push(None);
                    index
                }
            };
            let write = match kind {
                RowKind::Delete => match current[slot as usize].take() {
                    Some(upsert) => WriteAt {
                        kind: RowKind::Delete,
                        row: shown[upsert].1.row.clone(),
                    },
                    None => continue,
                },
                _ => {
                    current[slot as usize] = Some(shown.len());
                    WriteAt {
                        kind: RowKind::Insert,
                        row: PackedKey::from(row),
                    }
                }
            };
            shown.push((slot, write));
        }
    }
    // A counting sort by slot keeps each slot's writes in the workload's order.
    w.starts = vec![0; w.keys.len() + 1];
    for (slot, _) in &shown {
        w.starts[*slot as usize + 1] += 1;
    }
    for i in 1..w.starts.len() {
        w.starts[i] += w.starts[i - 1];
    }
    for slot in w.slots.values_mut() {
        slot.start = w.starts[slot.index as usize];
        slot.end = w.starts[slot.index as usize + 1];
    }
    let mut next = w.starts.clone();
    let filler = WriteAt {
        kind: RowKind::Insert,
        row: PackedKey::new(),
    };
    w.writes = vec![filler; shown.len()];
    for (slot, write) in shown {
        let at = &mut next[slot as usize];
        w.writes[*at as usize] = write;
        *at += 1;
    }
    w
}
