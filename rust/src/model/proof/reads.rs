//! Reads streaming in: each folded as its changes come, with the strictness its source promises.

use super::*;

impl Proof {
    /// A read about to stream in, judged with the strictness its source promises (the rules
    /// per kind are [`Fold`]'s): a snapshot as a set; a lake replay as a complete changelog
    /// where the table's producer makes one, write by write where it streams every write, else
    /// as raw writes; Fluss's log as a complete changelog. A table without a key: a multiset,
    /// whatever the source.
    pub fn new_read(&self, name: &str, source: Source) -> PendingRead {
        let mode = match (self.keyed(), source) {
            (false, _) => Fold::Multiset,
            (true, Source::Snapshot) => Fold::Snapshot,
            (true, Source::Replay) if self.merge.complete_changelog => Fold::Changelog,
            // A write of unknown outcome may be missing from the stream: judged by its state.
            (true, Source::Replay)
                if self.merge.replay_shows_every_write
                    && self.promise.is_none()
                    && self.uncertain.is_empty() =>
            {
                Fold::Writes
            }
            (true, Source::Replay) => Fold::Upserts,
            (true, Source::Log) => Fold::Changelog,
        };
        // Building what a write-by-write stream must show is judging too: its CPU time counts.
        let started = thread_cpu_time();
        let folder = if mode == Fold::Writes {
            let writes = self
                .writes
                .get_or_init(|| Arc::new(writes_per_key(&self.shape, &self.ops)));
            Folder::of_writes(Arc::clone(writes))
        } else {
            Folder::new(mode)
        };
        let fold_time = thread_cpu_time().saturating_sub(started);
        PendingRead::fresh(name, folder, None, self.sentinel_text(), fold_time)
    }

    /// The table's view reads ([`super::view`]): a count, a filter on a key and on a partition,
    /// a projection.
    pub fn view_queries(&self) -> Result<Vec<ViewQuery>> {
        view_queries(
            &self.shape,
            &partition_columns(&self.table, &self.shape),
            &self.ops,
            &self.table.path.quoted(),
            |op, c| op.values[c].sql_literal(self.shape.columns[c].1),
        )
    }

    /// A view read about to stream in (a batch query, folded as a set when its columns keep the
    /// key, else as a multiset), judged against the same view of the expected state.
    pub fn new_view_read(&self, name: &str, view: View) -> PendingRead {
        let shape = view.shape(&self.shape);
        let mode = if shape.key.is_empty() {
            Fold::Multiset
        } else {
            Fold::Snapshot
        };
        let folder = Folder::new(mode);
        PendingRead::fresh(
            name,
            folder,
            Some((view, shape)),
            None,
            std::time::Duration::ZERO,
        )
    }

    /// A read about to stream in that is judged partition by partition (see
    /// [`super::partition`]): its changes go to `partitions` files in `dir` as they come.
    /// Refused for a read that must show the workload's writes one by one (it needs them all).
    pub fn new_spilled_read(
        &self,
        name: &str,
        source: Source,
        dir: &std::path::Path,
        partitions: u32,
    ) -> Result<PendingRead> {
        let mut read = self.new_read(name, source);
        if read.folder.mode() == Fold::Writes {
            return Err(TierproofError::InvalidInput(format!(
                "read {name}: a replay checked write by write cannot be judged partition by partition"
            )));
        }
        read.spill = Some(Spill::create(
            dir,
            name,
            partitions,
            read.folder.mode() == Fold::Multiset,
        )?);
        Ok(read)
    }

    /// One change of `read`, as text cells in column order: typed, the sentinel's left out, and
    /// folded at once (a read is never held whole).
    pub fn push<S: AsRef<str> + std::fmt::Debug>(
        &self,
        read: &mut PendingRead,
        kind: RowKind,
        cells: &[Option<S>],
    ) {
        self.accept(read, kind, cells);
        read.fold_batch();
    }

    /// One change of `read`, typed and packed into its batch (or its spill), the sentinel's and
    /// the unreadable left out; folded with the rest of the batch by [`PendingRead::fold_batch`].
    pub(super) fn accept<S: AsRef<str> + std::fmt::Debug>(
        &self,
        read: &mut PendingRead,
        kind: RowKind,
        cells: &[Option<S>],
    ) {
        // Its position in the read, the sentinel's rows counted: what an anomaly names.
        let index = (read.changes + read.sentinels) as usize;
        let shape = read.view.as_ref().map_or(&self.shape, |(_, s)| s);
        if !read.packer.texts(shape, cells) {
            read.changes += 1;
            // A read judged partition by partition keeps the first of them, and counts the rest.
            if read.spill.is_some() && read.unreadable.len() >= LISTED_ANOMALIES {
                read.unreadable_left_out += 1;
                return;
            }
            let why = match shape.parse_row(cells) {
                Err(e) => e.detail(),
                Ok(_) => "a cell is not a value of its column's type".to_string(),
            };
            read.unreadable.push(unreadable(index, kind, cells, &why));
            return;
        }
        // A view read is a batch query with no sentinel commit to leave out.
        let col = self.sentinel_column;
        if read.view.is_none()
            && read
                .sentinel
                .as_deref()
                .is_some_and(|s| read.packer.cell_is(col, Some(s)))
        {
            read.sentinels += 1;
            return;
        }
        read.changes += 1;
        match read.spill.as_mut() {
            Some(spill) => spill.push(index, kind, read.packer.key(), read.packer.row()),
            None => read
                .batch
                .push(index, kind, read.packer.key(), read.packer.row()),
        }
    }

    /// A batch of `read`'s changes in the wire format ([`super::wire`]), each pushed as it is
    /// decoded; the time it takes counts as the read's folding.
    pub fn push_batch(&self, read: &mut PendingRead, batch: &[u8]) -> Result<()> {
        let started = thread_cpu_time();
        let width = read.width(&self.shape);
        // The batch's changes are packed first and folded together: the fold can then look up
        // many keys at once instead of waiting on memory for each in turn.
        let pushed = for_each_change(batch, width, |kind, cells| {
            let index = (read.changes + read.sentinels) as usize;
            self.accept(
                read,
                RowKind::from_code(index, i32::from(kind as i8))?,
                cells,
            );
            Ok(())
        });
        read.fold_batch();
        read.fold_time += thread_cpu_time().saturating_sub(started);
        pushed
    }
}

/// The CPU time the calling thread has used so far.
pub(in crate::model) fn thread_cpu_time() -> std::time::Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given, which lives for the call.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return std::time::Duration::ZERO;
    }
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// A read streaming in: its changes folded as they come, and the ones that could not be read.
#[derive(Debug)]
pub struct PendingRead {
    pub name: String,
    /// The changes read, the sentinel's left out.
    pub changes: u64,
    /// The sentinel's rows read (a streaming replay reads the commit that ends it).
    pub(super) sentinels: u64,
    pub(in crate::model) folder: Folder,
    pub(in crate::model) unreadable: Vec<AnomalyOut>,
    /// Of a spilled read: its unreadable changes beyond the first [`LISTED_ANOMALIES`], counted.
    pub(in crate::model) unreadable_left_out: u64,
    /// For a view read: what it returns, and the columns it returns them in.
    pub(super) view: Option<(View, Shape)>,
    /// For a read judged partition by partition ([`super::partition`]): where its changes go
    /// instead of the fold.
    pub(in crate::model) spill: Option<Spill>,
    /// Packs each change as it comes.
    pub(super) packer: Packer,
    /// Changes packed and not folded yet: a batch's, folded together at its end.
    pub(super) batch: PackedBatch,
    /// The sentinel's canonical cell in its column (none for a view read).
    pub(super) sentinel: Option<String>,
    /// CPU time spent decoding and folding its batches (CPU, not wall time: reads fold side by
    /// side and must not count the time they wait for each other).
    pub(in crate::model) fold_time: std::time::Duration,
}

impl PendingRead {
    /// A read of the same name folded the same way, with nothing in it yet and nowhere to
    /// spill: what one partition of a spilled read is folded into.
    pub(in crate::model) fn empty_like(&self) -> PendingRead {
        let folder = Folder::new(self.folder.mode());
        PendingRead::fresh(&self.name, folder, None, None, std::time::Duration::ZERO)
    }

    /// A read with nothing in it yet, folding into `folder`.
    pub(super) fn fresh(
        name: &str,
        folder: Folder,
        view: Option<(View, Shape)>,
        sentinel: Option<String>,
        fold_time: std::time::Duration,
    ) -> PendingRead {
        PendingRead {
            name: name.to_string(),
            changes: 0,
            sentinels: 0,
            folder,
            unreadable: Vec::new(),
            unreadable_left_out: 0,
            view,
            packer: Packer::default(),
            batch: PackedBatch::default(),
            spill: None,
            sentinel,
            fold_time,
        }
    }

    /// Folds the changes packed since the last time.
    pub(super) fn fold_batch(&mut self) {
        if !self.batch.is_empty() {
            self.folder.push_batch(&self.batch);
            self.batch.clear();
        }
    }

    /// Whether its changes go to disk, to be judged partition by partition.
    pub fn spilled(&self) -> bool {
        self.spill.is_some()
    }

    /// How many columns each of its changes has: the table's, or its view's.
    pub fn width(&self, table: &Shape) -> usize {
        self.view
            .as_ref()
            .map_or(table.columns.len(), |(_, s)| s.columns.len())
    }
}

/// A change the reader returned that tierproof cannot read, as an anomaly at `index`.
pub(super) fn unreadable<S: AsRef<str> + std::fmt::Debug>(
    index: usize,
    kind: RowKind,
    cells: &[Option<S>],
    why: &str,
) -> AnomalyOut {
    AnomalyOut {
        index,
        change: format!("{}{:?}", kind.short(), cells),
        reason: format!("the reader returned a value tierproof cannot read: {why}"),
    }
}

/// A read as the harness collected it: its name, its source, and its changes as (kind, text cells
/// in column order; `None` is NULL).
#[derive(Debug, Clone)]
pub struct ReadInput {
    pub name: String,
    pub source: Source,
    pub changes: Vec<(RowKind, Vec<Option<String>>)>,
}
