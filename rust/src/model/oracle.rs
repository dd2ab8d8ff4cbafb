//! The oracle over general rows: the expected state of a deduplicate table after ordered upserts
//! and deletes, a read's changes folded by key, and the comparison. Rows are compared by their
//! canonical cells ([`Value::canonical`]), so the rules for NaN, -0.0, decimal scale, padding
//! and precision are the value model's, in one place.

use super::canon::{show_row, CanonRow};
use super::packed::{unpack, Packed, PackedKey, PackedMap, Packer};
use super::value::Value;
use super::workload::{Op, OpKind, Shape};
use crate::error::{Result, TierproofError};
use std::sync::Arc;

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
/// ([`super::packed`]): a change costs no allocation unless the fold keeps a row it did not hold.
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

/// How far a [`Fold::Writes`] stream has come through each key's writes.
#[derive(Debug, Clone)]
struct WriteCursor {
    writes: Arc<Writes>,
    /// Per slot, in one word (one cache miss a change, not two): how many of its writes the
    /// stream showed, in order, and in [`KEPT`] whether its row is kept in the fold's state
    /// (from its first change that was not its next write) rather than the one its last write
    /// shown left.
    slots: Vec<u32>,
}

/// The bit of a [`WriteCursor`] slot saying its row is kept in the fold's state.
const KEPT: u32 = 1 << 31;

impl WriteCursor {
    /// How many of a slot's writes the stream showed.
    fn shown(&self, slot: usize) -> usize {
        (self.slots[slot] & !KEPT) as usize
    }

    /// Whether a slot's row is kept in the fold's state.
    fn kept(&self, slot: usize) -> bool {
        self.slots[slot] & KEPT != 0
    }

    /// The row a slot's writes shown so far leave: its last write's, unless that was a delete.
    fn row_of(&self, slot: usize) -> Option<&[u8]> {
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
    slots: PackedMap<Slot>,
    keys: Vec<Packed>,
    /// Where each slot's writes start in `writes` (one more entry than slots: the end).
    starts: Vec<u32>,
    writes: Vec<WriteAt>,
}

/// A key's slot and the range of `writes` that holds its writes.
#[derive(Debug, Clone, Copy)]
struct Slot {
    index: u32,
    start: u32,
    end: u32,
}

/// A write's kind and its row, held inline when short: comparing a change with its key's next
/// write then reads one cache line.
#[derive(Debug, Clone)]
struct WriteAt {
    kind: RowKind,
    row: PackedKey,
}

impl Writes {
    fn len(&self) -> usize {
        self.keys.len()
    }

    /// A slot's `i`-th write: its kind and row.
    fn get(&self, slot: usize, i: usize) -> Option<(RowKind, &[u8])> {
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
    fn within(&self, start: u32, end: u32, i: usize) -> Option<(RowKind, &[u8])> {
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

/// Changes packed one after another (a batch of a read), to be folded together.
#[derive(Debug, Clone, Default)]
pub struct PackedBatch {
    bytes: Vec<u8>,
    /// Per change: its index in the read, its kind, and where its key and row end in `bytes`
    /// (each starts where the one before ends).
    changes: Vec<(usize, RowKind, usize, usize)>,
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
    fn iter(&self) -> impl Iterator<Item = (usize, RowKind, &[u8], &[u8])> {
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
fn set(state: &mut PackedMap<Packed>, key: &[u8], row: &[u8]) -> bool {
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

impl Folder {
    pub fn new(mode: Fold) -> Folder {
        Folder {
            mode,
            state: PackedMap::default(),
            counts: PackedMap::default(),
            anomalies: Vec::new(),
            update_after_rows: 0,
            retracted: PackedMap::default(),
            writes: None,
            seen: 0,
            packer: Packer::default(),
        }
    }

    /// How it folds.
    pub fn mode(&self) -> Fold {
        self.mode
    }

    /// How many rows of a snapshot read came as update-after.
    pub fn update_after_rows(&self) -> u64 {
        self.update_after_rows
    }

    /// A [`Fold::Writes`] of a stream that must show exactly `writes` (see [`writes_per_key`]).
    pub fn of_writes(writes: Arc<Writes>) -> Folder {
        let slots = writes.len();
        Folder {
            writes: Some(WriteCursor {
                writes,
                slots: vec![0; slots],
            }),
            ..Folder::new(Fold::Writes)
        }
    }

    fn note(&mut self, index: usize, kind: RowKind, row: &[u8], reason: &str) {
        self.anomalies.push(Anomaly {
            index,
            change: show(kind, &unpack(row)),
            reason: reason.to_string(),
        })
    }

    /// One change, the `index`-th of its read, as typed values.
    pub fn push(&mut self, shape: &Shape, index: usize, kind: RowKind, values: &[Value]) {
        let mut p = std::mem::take(&mut self.packer);
        p.values(shape, values);
        self.push_packed(index, kind, p.key(), p.row());
        self.packer = p;
    }

    /// One change, the `index`-th of its read, packed with its key (see [`Packer`]).
    pub fn push_packed(&mut self, index: usize, kind: RowKind, key: &[u8], row: &[u8]) {
        self.seen = self.seen.max(index + 1);
        if self.mode == Fold::Multiset {
            match kind {
                RowKind::Insert | RowKind::UpdateAfter => match self.counts.get_mut(row) {
                    Some(n) => *n += 1,
                    None => {
                        self.counts.insert(row.into(), 1);
                    }
                },
                _ => match self.counts.get_mut(row) {
                    Some(n) if *n > 1 => *n -= 1,
                    Some(_) => {
                        self.counts.remove(row);
                    }
                    None => self.note(index, kind, row, "retraction of a row that is not present"),
                },
            }
            return;
        }
        match (self.mode, kind) {
            (Fold::Snapshot, RowKind::Insert) => {
                if set(&mut self.state, key, row) {
                    self.note(index, kind, row, "a snapshot read returned this key twice");
                }
            }
            // Paimon's batch source hands back the kind of a key's last write (a +U where Fluss
            // tiered an update) though it declares its result insert-only: the row is right, its
            // kind is not; counted, and noted by the caller.
            (Fold::Snapshot, RowKind::UpdateAfter) => {
                self.update_after_rows += 1;
                if set(&mut self.state, key, row) {
                    self.note(index, kind, row, "a snapshot read returned this key twice");
                }
            }
            (Fold::Snapshot, _) => {
                self.note(index, kind, row, "a snapshot read holds only inserts")
            }
            (Fold::Changelog, _) => self.push_changelog(index, kind, key, row),
            // Without the writes to check against, the raw-upsert rules below.
            (Fold::Writes, _) if self.writes.is_some() => self.push_write(index, kind, key, row),
            (_, RowKind::Insert | RowKind::UpdateAfter) => {
                set(&mut self.state, key, row);
            }
            (_, RowKind::Delete) => {
                if self.state.remove(key).is_none() {
                    self.note(index, kind, row, "delete of a key that is not present");
                }
            }
            (_, RowKind::UpdateBefore) => {
                self.retract(index, key, row);
            }
        }
    }

    /// A batch of changes, in order: as [`Self::push_packed`] each, but a write-by-write fold
    /// first finds every change's key and touches its next write, so the cache misses of a
    /// batch overlap instead of coming one after another; what it decides is the same.
    pub fn push_batch(&mut self, batch: &PackedBatch) {
        let Some(w) = self.writes.as_ref().filter(|_| self.mode == Fold::Writes) else {
            for (index, kind, key, row) in batch.iter() {
                self.push_packed(index, kind, key, row);
            }
            return;
        };
        let found: Vec<Option<Slot>> = batch
            .iter()
            .map(|(_, _, key, _)| w.writes.slots.get(key).copied())
            .collect();
        // Only brings each next write into the cache (a later change of the same key may have
        // moved on: that costs a miss, never a wrong answer).
        let touched = found.iter().flatten().fold(0usize, |n, s| {
            n + w
                .writes
                .within(s.start, s.end, w.shown(s.index as usize))
                .map_or(0, |(_, row)| row.len())
        });
        std::hint::black_box(touched);
        for ((index, kind, key, row), slot) in batch.iter().zip(found) {
            self.seen = self.seen.max(index + 1);
            self.push_write_at(index, kind, key, row, slot);
        }
    }

    /// A change of a [`Fold::Writes`] stream: it must be its key's next write. While a key's
    /// changes are its writes in order, its row is the one its last write left (no row is
    /// copied); from its first change that is not, its row is kept in the state, as elsewhere.
    fn push_write(&mut self, index: usize, kind: RowKind, key: &[u8], row: &[u8]) {
        let found = match &self.writes {
            Some(w) => w.writes.slots.get(key).copied(),
            None => return,
        };
        self.push_write_at(index, kind, key, row, found);
    }

    /// [`Self::push_write`] with the key's slot found (`None`: the workload never wrote it).
    fn push_write_at(
        &mut self,
        index: usize,
        kind: RowKind,
        key: &[u8],
        row: &[u8],
        found: Option<Slot>,
    ) {
        let Some(w) = self.writes.as_mut() else {
            return;
        };
        let slot = found.map(|s| s.index as usize);
        // The key's next write: matched, another one (its text), or none left.
        let shown = found.map(|s| (s, w.shown(s.index as usize)));
        let next = shown.and_then(|(s, i)| {
            let (k, r) = w.writes.within(s.start, s.end, i)?;
            Some((k == kind && r == row).then_some(()).ok_or((k, r)))
        });
        let derived = match (slot, &next) {
            (Some(slot), Some(Ok(()))) if !w.kept(slot) => {
                w.slots[slot] += 1;
                return;
            }
            (Some(slot), Some(Ok(()))) => {
                w.slots[slot] += 1;
                None
            }
            // From here on the key's row is kept in the state: the one its writes left so far.
            (Some(slot), _) if !w.kept(slot) => {
                w.slots[slot] |= KEPT;
                w.row_of(slot).map(Packed::from)
            }
            _ => None,
        };
        if let Some(current) = derived {
            self.state.insert(key.into(), current);
        }
        match next {
            Some(Ok(())) => {}
            Some(Err((k, r))) => {
                let expected = show(k, &unpack(r));
                self.note(index, kind, row, &format!(
                    "the key's next write is {expected}; this one is duplicated, reordered or not the workload's"
                ))
            }
            None => self.note(
                index,
                kind,
                row,
                "a write the workload did not make (or made fewer times) to this key",
            ),
        }
        match kind {
            RowKind::Insert | RowKind::UpdateAfter => {
                set(&mut self.state, key, row);
            }
            _ => {
                self.state.remove(key);
            }
        }
    }

    /// The rows so far (packed), in no order; a multiset read's are its counts'.
    fn rows(&self) -> Vec<&[u8]> {
        let mut rows: Vec<&[u8]> = self.state.values().map(|row| &row[..]).collect();
        if let Some(w) = &self.writes {
            rows.extend(
                (0..w.slots.len())
                    .filter(|&s| !w.kept(s))
                    .filter_map(|s| w.row_of(s)),
            );
        }
        rows
    }

    /// A `-U`: removes the key's row if it equals `row` (and says so), else notes the anomaly.
    fn retract(&mut self, index: usize, key: &[u8], row: &[u8]) -> bool {
        let reason = match self.state.get(key) {
            Some(current) if **current == *row => {
                self.state.remove(key);
                return true;
            }
            Some(_) => "update-before does not match the current row",
            None => "update-before of a key that is not present",
        };
        self.note(index, RowKind::UpdateBefore, row, reason);
        false
    }

    /// One change of a complete changelog (see [`Fold::Changelog`]).
    fn push_changelog(&mut self, index: usize, kind: RowKind, key: &[u8], row: &[u8]) {
        if kind != RowKind::UpdateAfter {
            if let Some((at, before)) = self.retracted.remove(key) {
                // The -U's pair never came: the key keeps the row it retracted, for what follows.
                self.note(
                    at,
                    RowKind::UpdateBefore,
                    &before,
                    "update-before without its update-after",
                );
                self.state.insert(key.into(), before);
            }
        }
        match kind {
            RowKind::Insert => {
                if set(&mut self.state, key, row) {
                    self.note(
                        index,
                        kind,
                        row,
                        "insert of a key that is present (a changelog updates it with -U/+U)",
                    );
                }
            }
            RowKind::UpdateBefore => {
                if self.retract(index, key, row) {
                    self.retracted.insert(key.into(), (index, row.into()));
                }
            }
            RowKind::UpdateAfter => {
                if self.retracted.remove(key).is_none() {
                    self.note(index, kind, row, "update-after without an update-before");
                }
                set(&mut self.state, key, row);
            }
            RowKind::Delete => match self.state.get(key) {
                Some(current) if **current == *row => {
                    self.state.remove(key);
                }
                Some(_) => {
                    self.note(index, kind, row, "delete does not match the current row");
                    self.state.remove(key);
                }
                None => self.note(index, kind, row, "delete of a key that is not present"),
            },
        }
    }

    /// The rows so far, sorted as rows (not by key) like every row list the diff compares.
    pub fn finish(&self) -> Folded {
        self.finish_with(true)
    }

    /// Whether the rows so far are exactly `expected` (packed rows, sorted as bytes), with no
    /// update-before left open: then a verdict can say so without unpacking them.
    pub fn holds_exactly(&self, expected: &[&[u8]]) -> bool {
        if !self.retracted.is_empty() {
            return false;
        }
        let mut rows: Vec<&[u8]> = if self.mode == Fold::Multiset {
            if self.counts.values().sum::<u64>() != expected.len() as u64 {
                return false;
            }
            self.counts
                .iter()
                .flat_map(|(row, n)| std::iter::repeat_n(&row[..], *n as usize))
                .collect()
        } else {
            self.rows()
        };
        if rows.len() != expected.len() {
            return false;
        }
        rows.sort_unstable();
        rows == expected
    }

    /// As [`Self::finish`], the rows left out (empty) unless `with_rows`: a read that
    /// [`Self::holds_exactly`] what was expected needs only its anomalies.
    pub fn finish_with(&self, with_rows: bool) -> Folded {
        let mut rows: Vec<CanonRow> = if !with_rows {
            Vec::new()
        } else if self.mode == Fold::Multiset {
            self.counts
                .iter()
                .flat_map(|(row, n)| std::iter::repeat_n(unpack(row), *n as usize))
                .collect()
        } else {
            self.rows().into_iter().map(unpack).collect()
        };
        let mut anomalies = self.anomalies.clone();
        // Writes the stream never showed (a key's first missing one, each key once).
        let mut unseen: Vec<(CanonRow, RowKind, CanonRow)> = match &self.writes {
            Some(w) => (0..w.slots.len())
                .filter_map(|slot| {
                    let (kind, row) = w.writes.get(slot, w.shown(slot))?;
                    Some((unpack(&w.writes.keys[slot]), kind, unpack(row)))
                })
                .collect(),
            None => Vec::new(),
        };
        unseen.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, kind, row) in unseen {
            anomalies.push(Anomaly {
                index: self.seen,
                change: show(kind, &row),
                reason: "a write of the workload the stream never showed (by its end)".to_string(),
            });
        }
        // A -U still waiting for its +U at the end: the pair is missing; the key keeps its row.
        let mut open: Vec<(usize, CanonRow)> = self
            .retracted
            .values()
            .map(|(at, before)| (*at, unpack(before)))
            .collect();
        open.sort();
        for (at, before) in open {
            anomalies.push(Anomaly {
                index: at,
                change: show(RowKind::UpdateBefore, &before),
                reason: "update-before without its update-after".to_string(),
            });
            if with_rows {
                rows.push(before);
            }
        }
        rows.sort();
        anomalies.sort_by_key(|a| a.index);
        Folded {
            rows,
            anomalies,
            update_after_rows: self.update_after_rows,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::super::workload::parse_workload_csv;
    use super::*;
    use crate::model::canon::{canon, key_of};

    /// The state each key's writes end in is the deduplicate state of the workload: over seeded
    /// workloads with deletes (of absent keys too) and keys written again after a delete.
    #[test]
    fn the_writes_end_in_the_deduplicate_state() {
        let shape = ledger();
        for seed in 0..40 {
            // Some across several of the thousand-operation chunks the writes are built in.
            let n = if seed % 4 == 0 { 5000 } else { 300 };
            let keys = 1 + seed as u32 % 20 * if n > 300 { 50 } else { 1 };
            let ops =
                super::super::generate::random_ops(&shape, n, keys, seed, true).expect("workload");
            assert!(
                ops.iter().any(|op| op.kind == OpKind::Delete),
                "seed {seed}"
            );
            assert_eq!(
                writes_per_key(&shape, &ops).final_rows(),
                super::super::merge::Merge::deduplicate().state(&shape, &ops),
                "seed {seed}"
            );
        }
    }

    /// The rules per read kind, in one place: each kind gets its correct read, then that read
    /// with one change duplicated, one missing and two swapped; a kind that promises an order
    /// must see all three, a snapshot (a set) all but the swap.
    #[test]
    fn each_read_kind_sees_a_duplicated_a_missing_and_a_reordered_change() {
        let shape = ledger();
        let v = |id: &str, amount: &str| values(&shape, &["eu", id, amount, "2024-01-01"]);
        let ops = parse_workload_csv(
            &shape,
            "op,region,id,amount,day\n,eu,1,1,2024-01-01\n,eu,1,2,2024-01-01\n,eu,2,5,2024-01-01\n\
             delete,eu,1,,2024-01-01\n,eu,1,3,2024-01-01\n",
        )
        .unwrap();
        let expected = super::super::merge::Merge::deduplicate().state(&shape, &ops);
        use RowKind::*;
        type Read = Vec<(RowKind, Vec<Value>)>;
        let reads: [(Fold, Read); 3] = [
            (
                Fold::Snapshot,
                vec![(Insert, v("1", "3")), (Insert, v("2", "5"))],
            ),
            (
                Fold::Writes,
                vec![
                    (Insert, v("1", "1")),
                    (Insert, v("1", "2")),
                    (Insert, v("2", "5")),
                    (Delete, v("1", "2")),
                    (Insert, v("1", "3")),
                ],
            ),
            (
                Fold::Changelog,
                vec![
                    (Insert, v("1", "1")),
                    (UpdateBefore, v("1", "1")),
                    (UpdateAfter, v("1", "2")),
                    (Insert, v("2", "5")),
                    (Delete, v("1", "2")),
                    (Insert, v("1", "3")),
                ],
            ),
        ];
        let judge = |mode: Fold, changes: &[(RowKind, Vec<Value>)]| {
            let mut folder = if mode == Fold::Writes {
                Folder::of_writes(Arc::new(writes_per_key(&shape, &ops)))
            } else {
                Folder::new(mode)
            };
            for (i, (kind, values)) in changes.iter().enumerate() {
                folder.push(&shape, i, *kind, values);
            }
            let f = folder.finish();
            if mode == Fold::Writes {
                // Rows derived from the writes shown, or kept once a key's changes stray from
                // its writes: the same rows as folding the changes as raw upserts.
                assert_eq!(
                    f.rows,
                    fold(&shape, Fold::Upserts, changes).rows,
                    "{changes:?}"
                );
            }
            f.anomalies.is_empty() && f.rows == expected
        };
        for (mode, good) in reads {
            assert!(judge(mode, &good), "{mode:?}: the correct read passes");
            let mut foreign = good.clone();
            foreign.insert(1, (Insert, v("9", "9")));
            assert!(
                !judge(mode, &foreign),
                "{mode:?}: a key never written is seen"
            );
            for at in 0..good.len() {
                let mut duplicated = good.clone();
                duplicated.insert(at, good[at].clone());
                assert!(
                    !judge(mode, &duplicated),
                    "{mode:?}: change {at} duplicated is seen"
                );
                let mut missing = good.clone();
                missing.remove(at);
                assert!(
                    !judge(mode, &missing),
                    "{mode:?}: change {at} missing is seen"
                );
            }
            for at in 0..good.len() - 1 {
                let mut swapped = good.clone();
                swapped.swap(at, at + 1);
                // Two changes of different keys may come in either order; of one key, never.
                let same_key = key_of(&shape, &canon(&shape, &good[at].1))
                    == key_of(&shape, &canon(&shape, &good[at + 1].1));
                let seen = !judge(mode, &swapped);
                assert_eq!(
                    seen,
                    mode != Fold::Snapshot && same_key,
                    "{mode:?}: changes {at}, {} swapped",
                    at + 1
                );
            }
        }
    }

    /// A whole read folded at once.
    fn fold(shape: &Shape, mode: Fold, changes: &[(RowKind, Vec<Value>)]) -> Folded {
        let mut folder = Folder::new(mode);
        for (i, (kind, values)) in changes.iter().enumerate() {
            folder.push(shape, i, *kind, values);
        }
        folder.finish()
    }

    use crate::create_table::parse_create_table;

    fn ledger() -> Shape {
        Shape::of(
            &parse_create_table(
                "CREATE TABLE ledger (region STRING, id BIGINT, amount DECIMAL(12, 2), day DATE, \
                 PRIMARY KEY (region, id, day) NOT ENFORCED) PARTITIONED BY (day)",
            )
            .unwrap(),
        )
        .unwrap()
    }

    fn row(cells: &[&str]) -> CanonRow {
        cells.iter().map(|c| Some(c.to_string())).collect()
    }

    #[test]
    fn last_write_per_composite_key_and_deletes() {
        let shape = ledger();
        let ops = parse_workload_csv(
            &shape,
            "op,region,id,amount,day\n\
             ,eu,1,10.5,2024-02-29\n\
             ,eu,1,11,2024-03-01\n\
             ,us,1,7,2024-02-29\n\
             ,eu,1,12.25,2024-02-29\n\
             delete,us,1,,2024-02-29\n\
             delete,jp,5,,2024-02-29\n",
        )
        .unwrap();
        assert_eq!(
            super::super::merge::Merge::deduplicate().state(&shape, &ops),
            [
                row(&["eu", "1", "11.00", "2024-03-01"]),
                row(&["eu", "1", "12.25", "2024-02-29"]),
            ]
        );
    }

    fn values(shape: &Shape, cells: &[&str]) -> Vec<Value> {
        cells
            .iter()
            .zip(&shape.columns)
            .map(|(c, (_, ty))| Value::parse(*ty, c).unwrap())
            .collect()
    }

    #[test]
    fn a_snapshot_update_after_row_counts_and_is_noted_but_a_delete_is_an_anomaly() {
        let shape = ledger();
        let a = values(&shape, &["eu", "1", "1.5", "2024-01-01"]);
        let b = values(&shape, &["eu", "2", "2.5", "2024-01-01"]);
        let f = fold(
            &shape,
            Fold::Snapshot,
            &[
                (RowKind::UpdateAfter, a.clone()),
                (RowKind::Insert, b.clone()),
            ],
        );
        assert_eq!(
            (f.rows.len(), f.anomalies.len(), f.update_after_rows),
            (2, 0, 1)
        );
        let f = fold(
            &shape,
            Fold::Snapshot,
            &[(RowKind::Delete, a), (RowKind::Insert, b)],
        );
        assert_eq!((f.rows.len(), f.anomalies.len()), (1, 1));
        assert!(f.anomalies[0].reason.contains("only inserts"));
    }

    #[test]
    fn a_snapshot_read_holds_each_key_once() {
        let shape = ledger();
        let r = values(&shape, &["eu", "1", "1.5", "2024-01-01"]);
        let twice = fold(
            &shape,
            Fold::Snapshot,
            &[(RowKind::Insert, r.clone()), (RowKind::Insert, r.clone())],
        );
        assert_eq!(twice.rows.len(), 1);
        assert_eq!(twice.anomalies.len(), 1);
        assert!(twice.anomalies[0]
            .reason
            .contains("returned this key twice"));
        // As an upsert stream the same two changes are fine.
        let upserts = fold(
            &shape,
            Fold::Upserts,
            &[(RowKind::Insert, r.clone()), (RowKind::Insert, r.clone())],
        );
        assert!(upserts.anomalies.is_empty());
        let bad = fold(&shape, Fold::Upserts, &[(RowKind::Delete, r.clone())]);
        assert_eq!(bad.anomalies[0].change, "-D(eu, 1, 1.50, 2024-01-01)");
        // The text "NULL" is not NULL.
        let text_null = values(&shape, &["NULL", "1", "1.5", "2024-01-01"]);
        let mut real_null = text_null.clone();
        real_null[0] = Value::Null;
        assert_ne!(canon(&shape, &text_null), canon(&shape, &real_null));
        assert_eq!(
            show_row(&canon(&shape, &text_null)),
            "(\"NULL\", 1, 1.50, 2024-01-01)"
        );
    }

    #[test]
    fn diffs_are_multisets() {
        let a = vec![row(&["1"]), row(&["2"]), row(&["2"])];
        let b = vec![row(&["2"]), row(&["3"])];
        let (missing, extra) = diff(&a, &b);
        assert_eq!(missing, [row(&["1"]), row(&["2"])]);
        assert_eq!(extra, [row(&["3"])]);
        assert_eq!(diff(&a, &a), (vec![], vec![]));
    }
}
