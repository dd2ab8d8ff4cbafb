//! The fold: each change of a read applied to its state, by the rules of its kind.

use super::*;

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

    pub(super) fn note(&mut self, index: usize, kind: RowKind, row: &[u8], reason: &str) {
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
    pub(super) fn push_write(&mut self, index: usize, kind: RowKind, key: &[u8], row: &[u8]) {
        let found = match &self.writes {
            Some(w) => w.writes.slots.get(key).copied(),
            None => return,
        };
        self.push_write_at(index, kind, key, row, found);
    }

    /// [`Self::push_write`] with the key's slot found (`None`: the workload never wrote it).
    pub(super) fn push_write_at(
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
    pub(super) fn rows(&self) -> Vec<&[u8]> {
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
    pub(super) fn retract(&mut self, index: usize, key: &[u8], row: &[u8]) -> bool {
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
    pub(super) fn push_changelog(&mut self, index: usize, kind: RowKind, key: &[u8], row: &[u8]) {
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
