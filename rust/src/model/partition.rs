//! Reads larger than memory (an audit of a big table): each read's changes go to disk as they
//! stream in, split into partitions by their key's hash (a keyless read's by the row's), and the
//! reads are then folded and judged one partition at a time. All changes of a key fall in one
//! partition, in the order they came, so a partition is judged exactly as the whole read would
//! be; memory holds one partition of every read at a time. The verdict then keeps counts,
//! anomalies and the first differences, not every row.

use super::oracle::{CanonRow, RowKind};
use super::packed::PackedKey;
use super::proof::{
    thread_cpu_time, update_after_note, AnomalyOut, Check, PendingRead, Proof, ReadVerdict, Verdict,
};
use crate::error::{Result, TierproofError};
use std::fs::{File, OpenOptions};
use std::hash::BuildHasher;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The most partitions a read is split into (files open at once per read, each with a buffer
/// of [`BUFFER`] bytes: 16 MiB a read at most).
pub const MAX_PARTITIONS: u32 = 1024;
const BUFFER: usize = 16 * 1024;

/// How many spilled reads an audit holds open at once, for the open-files check.
const READS_AT_ONCE: u64 = 4;

/// How often (in bytes written) a spill looks at its file system's free space.
const SPACE_CHECK_EVERY: u64 = 64 * 1024 * 1024;

/// The free space a spill leaves to everyone else on its file system: 5 % of it, at least 1 GiB
/// and at most 10 GiB. tierproof runs next to people's data; a full disk would fail their writes
/// too.
fn space_reserve(total: u64) -> u64 {
    (total / 20).clamp(1 << 30, 10 << 30)
}

/// A read's changes on disk, one file per partition. Its files are removed when it is dropped.
#[derive(Debug)]
pub struct Spill {
    parts: Vec<Part>,
    /// Partitioned by the whole row (a keyless read, folded as a multiset), else by the key.
    by_row: bool,
    /// The first write that failed: the read is then judged as failed, never as partial.
    error: Option<String>,
    /// The directory its files are in, whose file system's free space it watches.
    dir: PathBuf,
    /// Bytes written since its free space was last looked at (the first write looks).
    since_space_check: u64,
    /// The free bytes it leaves to others; `None`: [`space_reserve`] of the file system.
    reserve: Option<u64>,
}

#[derive(Debug)]
struct Part {
    path: PathBuf,
    out: Option<BufWriter<File>>,
}

/// How many partitions reads of a log of `changes` changes are judged in so that each holds
/// about `rows` rows (a table has no more rows than its log has changes): at least 1, at most
/// [`MAX_PARTITIONS`] (beyond it, partitions hold more).
pub fn partitions_for(changes: u64, rows: u64) -> u32 {
    let parts = changes.div_ceil(rows.max(1));
    parts.clamp(1, u64::from(MAX_PARTITIONS)) as u32
}

impl Spill {
    /// New files for read `read` in `dir` (which must exist), `partitions` of them; refused if
    /// any is there already (nothing is overwritten).
    pub fn create(dir: &Path, read: &str, partitions: u32, by_row: bool) -> Result<Spill> {
        if partitions == 0 || partitions > MAX_PARTITIONS {
            return Err(TierproofError::InvalidInput(format!(
                "{partitions} partitions: from 1 to {MAX_PARTITIONS}"
            )));
        }
        if read.is_empty()
            || !read
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(TierproofError::InvalidInput(format!(
                "read name {read:?}: letters, digits, '_' and '-' only, to name its spill files"
            )));
        }
        let limit = open_files_limit();
        if u64::from(partitions) * READS_AT_ONCE + 1024 > limit {
            return Err(TierproofError::InvalidInput(format!(
                "{partitions} partitions need {} open files for {READS_AT_ONCE} reads, and this process may open {limit}: raise the limit (ulimit -n) or the rows per partition",
                u64::from(partitions) * READS_AT_ONCE
            )));
        }
        if !dir.is_dir() {
            return Err(TierproofError::InvalidInput(format!(
                "spill directory {} is not a directory",
                dir.display()
            )));
        }
        let mut spill = Spill {
            parts: Vec::with_capacity(partitions as usize),
            by_row,
            error: None,
            dir: dir.to_path_buf(),
            since_space_check: SPACE_CHECK_EVERY,
            reserve: None,
        };
        for p in 0..partitions {
            let path = dir.join(format!("{read}.{p}.spill"));
            let file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(|e| {
                    TierproofError::InvalidInput(format!(
                        "cannot create spill file {}: {e}",
                        path.display()
                    ))
                })?;
            // Pushed before the next is opened: a failure removes the files made so far.
            spill.parts.push(Part {
                path,
                out: Some(BufWriter::with_capacity(BUFFER, file)),
            });
        }
        Ok(spill)
    }

    pub fn partitions(&self) -> usize {
        self.parts.len()
    }

    /// Why writing it failed, if it did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The partition a change falls in: by its key, or by its row when partitioned by row.
    fn partition_of(&self, key: &[u8], row: &[u8]) -> usize {
        let hash = rustc_hash::FxBuildHasher.hash_one(if self.by_row { row } else { key });
        // Fx's low bits are its weakest: spread the whole hash over the partitions.
        ((u128::from(hash.wrapping_mul(0x9E37_79B9_7F4A_7C15)) * self.parts.len() as u128) >> 64)
            as usize
    }

    /// Appends one change (its index in the read, kind, packed key and row) to its partition.
    pub fn push(&mut self, index: usize, kind: RowKind, key: &[u8], row: &[u8]) {
        if self.error.is_some() {
            return;
        }
        let p = self.partition_of(key, row);
        if self.parts[p].out.is_none() {
            self.error = Some("a change came after the read was judged".to_string());
            return;
        }
        self.since_space_check += (17 + key.len() + row.len()) as u64;
        if self.since_space_check >= SPACE_CHECK_EVERY {
            self.since_space_check = 0;
            if let Some(short) = self.short_of_space() {
                self.error = Some(short);
                return;
            }
        }
        let part = &mut self.parts[p];
        let Some(out) = part.out.as_mut() else {
            return; // checked above
        };
        let mut head = [0u8; 17];
        head[..8].copy_from_slice(&(index as u64).to_le_bytes());
        head[8] = kind as u8;
        head[9..13].copy_from_slice(&(key.len() as u32).to_le_bytes());
        head[13..17].copy_from_slice(&(row.len() as u32).to_le_bytes());
        let written = out
            .write_all(&head)
            .and_then(|()| out.write_all(key))
            .and_then(|()| out.write_all(row));
        if let Err(e) = written {
            self.error = Some(format!(
                "writing spill file {} failed: {e}",
                part.path.display()
            ));
        }
    }

    /// Why it must stop writing, when its file system has less free space than the reserve.
    fn short_of_space(&self) -> Option<String> {
        let (free, total) = free_bytes(&self.dir)?;
        let reserve = self.reserve.unwrap_or_else(|| space_reserve(total));
        (free < reserve).then(|| {
            format!(
                "spill directory {}: its file system has {} MiB free, less than the {} MiB tierproof leaves to others; give --partition-rows a larger value, or the run a directory on a larger file system",
                self.dir.display(),
                free >> 20,
                reserve >> 20
            )
        })
    }

    /// Ends writing: every file flushed and closed. Later changes are an error of the read.
    pub fn finish(&mut self) {
        for part in &mut self.parts {
            if let Some(mut out) = part.out.take() {
                if let Err(e) = out.flush() {
                    self.error.get_or_insert(format!(
                        "writing spill file {} failed: {e}",
                        part.path.display()
                    ));
                }
            }
        }
    }

    /// Hands each change of partition `p` to `f`, in the order they came (after [`Self::finish`]).
    pub fn for_each_in(
        &self,
        p: usize,
        mut f: impl FnMut(usize, RowKind, &[u8], &[u8]),
    ) -> std::result::Result<(), String> {
        let part = &self.parts[p];
        let failed = |e: std::io::Error| format!("reading spill file {}: {e}", part.path.display());
        let mut input = BufReader::with_capacity(BUFFER, File::open(&part.path).map_err(failed)?);
        let mut head = [0u8; 17];
        let (mut key, mut row) = (PackedKey::new(), Vec::new());
        loop {
            // The end of the file must fall between two changes: a change cut short is an error.
            if input.fill_buf().map_err(failed)?.is_empty() {
                return Ok(());
            }
            input.read_exact(&mut head).map_err(failed)?;
            let index = u64::from_le_bytes(head[..8].try_into().expect("8 bytes")) as usize;
            let kind = RowKind::from_code(index, i32::from(head[8] as i8))
                .map_err(|e| format!("spill file {}: {e}", part.path.display()))?;
            let key_len = u32::from_le_bytes(head[9..13].try_into().expect("4 bytes")) as usize;
            let row_len = u32::from_le_bytes(head[13..17].try_into().expect("4 bytes")) as usize;
            key.resize(key_len, 0);
            row.resize(row_len, 0);
            input.read_exact(&mut key).map_err(failed)?;
            input.read_exact(&mut row).map_err(failed)?;
            f(index, kind, &key, &row);
        }
    }
}

/// The most anomalies a read lists, and differences a check lists on each side, when judged
/// partition by partition (the rest are counted): what keeps the verdict bounded too. The ones
/// listed are the first: the lowest change indices, the smallest rows.
pub const LISTED_ANOMALIES: usize = 1000;
pub const LISTED_DIFFERENCES: usize = 100;

/// What the partitions said of one read, added up.
#[derive(Default)]
struct Tally {
    row_count: usize,
    anomalies: Vec<AnomalyOut>,
    anomalies_found: usize,
    update_after_rows: u64,
    fold_time: Duration,
    equal: bool,
    missing: Vec<CanonRow>,
    extra: Vec<CanonRow>,
    missing_found: usize,
    extra_found: usize,
}

/// Keeps the first `cap` of `listed` and `more` together, in order.
fn keep_first<T: Ord>(listed: &mut Vec<T>, more: Vec<T>, cap: usize) {
    listed.extend(more);
    listed.sort();
    listed.truncate(cap);
}

impl Proof {
    /// [`Proof::judge_against_first`] of reads that were spilled ([`Proof::new_spilled_read`]),
    /// alike: one partition at a time, every read's part of it folded and judged against the
    /// first's, the partitions' verdicts added up. The same verdict as judging the reads whole,
    /// but without their rows: counts, the first anomalies and the first differences. A read
    /// whose spill failed is left out (a failure of the verdict), as a read that failed is.
    pub fn judge_partitioned_against_first(
        &self,
        reads: &mut [&mut PendingRead],
        mut failures: Vec<String>,
    ) -> Result<Verdict> {
        let mut parts = None;
        for read in reads.iter_mut() {
            let Some(spill) = read.spill.as_mut() else {
                return Err(TierproofError::Internal(format!(
                    "read {} was not spilled: reads judged partition by partition must all be",
                    read.name
                )));
            };
            spill.finish();
            if *parts.get_or_insert(spill.partitions()) != spill.partitions() {
                return Err(TierproofError::Internal(
                    "the reads were split into different numbers of partitions".into(),
                ));
            }
        }
        let mut judged_reads: Vec<&PendingRead> = Vec::new();
        for read in reads.iter() {
            match read.spill.as_ref().and_then(Spill::error) {
                Some(e) => failures.push(format!("read {} is left out: {e}", read.name)),
                None => judged_reads.push(read),
            }
        }
        let reads = judged_reads;
        let mut tallies: Vec<Tally> = reads
            .iter()
            .map(|_| Tally {
                equal: true,
                ..Tally::default()
            })
            .collect();
        let mut unreadable_back: Vec<Option<String>> = vec![None; reads.len()];
        let (mut expected_row_count, mut promise) = (0, String::new());
        for p in 0..parts.unwrap_or(0) {
            let mut pending: Vec<PendingRead> = reads.iter().map(|r| r.empty_like()).collect();
            for (i, (read, part)) in reads.iter().zip(&mut pending).enumerate() {
                let started = thread_cpu_time();
                let spill = read.spill.as_ref().expect("checked above");
                let folded = spill.for_each_in(p, |index, kind, key, row| {
                    part.folder.push_packed(index, kind, key, row)
                });
                if let Err(e) = folded {
                    unreadable_back[i].get_or_insert(e);
                }
                tallies[i].update_after_rows += part.folder.update_after_rows();
                tallies[i].fold_time += thread_cpu_time().saturating_sub(started);
            }
            let v = self.judge_against_first(&pending.iter().collect::<Vec<_>>(), Vec::new());
            expected_row_count += v.expected_row_count;
            promise = v.promise;
            for ((r, c), tally) in v.reads.into_iter().zip(v.checks).zip(&mut tallies) {
                tally.row_count += r.row_count;
                tally.anomalies_found += r.anomalies.len();
                tally.equal &= c.equal;
                tally.missing_found += c.missing.len();
                tally.extra_found += c.extra.len();
                // Each partition's anomalies in its own order; kept are the lowest indices.
                tally.anomalies.extend(r.anomalies);
                tally.anomalies.sort_by_key(|a| a.index);
                tally.anomalies.truncate(LISTED_ANOMALIES);
                keep_first(&mut tally.missing, c.missing, LISTED_DIFFERENCES);
                keep_first(&mut tally.extra, c.extra, LISTED_DIFFERENCES);
            }
        }
        for (read, e) in reads.iter().zip(&unreadable_back) {
            if let Some(e) = e {
                failures.push(format!("read {}: {e}", read.name));
            }
        }
        if parts.is_none() || reads.is_empty() {
            return Ok(self.judge_against_first(&[], failures));
        }
        let mut checks = Vec::new();
        let mut judged = Vec::new();
        for (read, mut t) in reads.iter().zip(tallies) {
            // As a read judged whole: its unreadable changes first, then what the fold found.
            let mut anomalies = read.unreadable.clone();
            let found = anomalies.len() + read.unreadable_left_out as usize + t.anomalies_found;
            anomalies.append(&mut t.anomalies);
            let mut notes = Vec::new();
            if t.update_after_rows > 0 {
                notes.push(update_after_note(t.update_after_rows));
            }
            if found > anomalies.len() {
                notes.push(format!(
                    "{} more anomalies not listed: judged partition by partition, the first {LISTED_ANOMALIES} of its unreadable changes and of the others are",
                    found - anomalies.len()
                ));
            }
            let mut why = Vec::new();
            if !t.equal {
                why.push(format!(
                    "differs from the expected state (missing {}, extra {})",
                    t.missing_found, t.extra_found
                ));
            }
            if let Some(a) = anomalies.first() {
                why.push(format!(
                    "{found} anomalies, first: {} {}",
                    a.change, a.reason
                ));
            }
            let listed = t.missing.len() + t.extra.len();
            checks.push(Check {
                left: "expected".to_string(),
                right: read.name.clone(),
                equal: t.equal,
                left_out: t.missing_found + t.extra_found - listed,
                missing: t.missing,
                extra: t.extra,
            });
            judged.push(ReadVerdict {
                name: read.name.clone(),
                changes: read.changes,
                rows: None,
                row_count: t.row_count,
                anomalies,
                notes,
                consistent: why.is_empty(),
                reason: why.join("; "),
                fold_ms: (read.fold_time + t.fold_time).as_millis() as u64,
            });
        }
        Ok(Verdict {
            consistent: judged.iter().all(|r| r.consistent) && failures.is_empty(),
            keyed: self.keyed(),
            promise,
            columns: self.shape.columns.iter().map(|(c, _)| c.clone()).collect(),
            expected_rows: Vec::new(),
            expected_row_count,
            all_rows: false,
            reads: judged,
            checks,
            failures,
        })
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        for part in &mut self.parts {
            // What is still buffered is thrown away, not written to a file about to go.
            if let Some(out) = part.out.take() {
                drop(out.into_parts());
            }
            // Best effort: the run's directory, which holds them, is removed after the run too.
            let _ = std::fs::remove_file(&part.path);
        }
    }
}

/// The free bytes an unprivileged writer may use on the file system holding `dir`, and its
/// size; `None` when the system cannot say.
fn free_bytes(dir: &Path) -> Option<(u64, u64)> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: an all-zero statvfs is a valid value of that plain C struct.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: statvfs reads the NUL-terminated path and only writes the struct it is given; both
    // live for the call.
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    let block = stat.f_frsize as u64;
    if stat.f_blocks == 0 || block == 0 {
        return None; // a file system that says no size (some FUSE ones): unknown, not full
    }
    Some((
        (stat.f_bavail as u64).saturating_mul(block),
        (stat.f_blocks as u64).saturating_mul(block),
    ))
}

/// How many files this process may have open (its soft limit; a generous default if unknown).
fn open_files_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given, which lives for the call.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return 65_536;
    }
    limit.rlim_cur
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tierproof-spill-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_key_keeps_one_partition_and_its_order_and_the_files_go_with_the_read() {
        let d = dir("order");
        let mut s = Spill::create(&d, "log", 4, false).unwrap();
        for i in 0..400usize {
            let key = [(i % 10) as u8];
            s.push(i, RowKind::Insert, &key, &i.to_le_bytes());
        }
        s.finish();
        assert!(s.error().is_none());
        let mut seen = Vec::new();
        for p in 0..4 {
            let mut keys = std::collections::HashSet::new();
            s.for_each_in(p, |i, _, key, row| {
                keys.insert(key[0]);
                assert_eq!(row, i.to_le_bytes());
                seen.push((key[0], i));
            })
            .unwrap();
        }
        assert_eq!(seen.len(), 400);
        // A thousand keys spread over the four partitions about evenly.
        let mut counts = [0; 4];
        for k in 0..1000u16 {
            counts[s.partition_of(&k.to_le_bytes(), &[])] += 1;
        }
        assert!(
            counts.iter().all(|&n| (180..320).contains(&n)),
            "{counts:?}"
        );
        for k in 0..10u8 {
            let order: Vec<usize> = seen
                .iter()
                .filter(|(key, _)| *key == k)
                .map(|x| x.1)
                .collect();
            assert!(order.windows(2).all(|w| w[0] < w[1]), "key {k} in order");
        }
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 4);
        drop(s);
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "files removed");
        std::fs::remove_dir(&d).unwrap();
    }

    use crate::model::merge::Target;
    use crate::model::proof::Source;

    type Change = (RowKind, Vec<Option<String>>);

    fn row(k: usize, v: &str) -> Vec<Option<String>> {
        vec![Some(k.to_string()), Some(v.to_string())]
    }

    /// A log of `keys` keys (inserts, updates, deletes) and the snapshot it leaves.
    fn log_and_snapshot(keys: usize) -> (Vec<Change>, Vec<Change>) {
        use RowKind::*;
        let mut log = Vec::new();
        let mut snapshot = Vec::new();
        for k in 0..keys {
            log.push((Insert, row(k, "a")));
            match k % 3 {
                0 => {
                    log.push((UpdateBefore, row(k, "a")));
                    log.push((UpdateAfter, row(k, "b")));
                    snapshot.push((Insert, row(k, "b")));
                }
                1 => log.push((Delete, row(k, "a"))),
                _ => snapshot.push((Insert, row(k, "a"))),
            }
        }
        (log, snapshot)
    }

    /// The verdict judged whole, and judged in `parts` partitions, of the same reads.
    fn both(p: &Proof, reads: &[(&str, Source, Vec<Change>)], parts: u32) -> (Verdict, Verdict) {
        let d = dir(&format!("judge-{parts}-{}", reads[1].2.len()));
        let whole: Vec<PendingRead> = reads
            .iter()
            .map(|(name, source, changes)| {
                let mut r = p.new_read(name, *source);
                changes.iter().for_each(|(k, c)| p.push(&mut r, *k, c));
                r
            })
            .collect();
        let mut spilled: Vec<PendingRead> = reads
            .iter()
            .map(|(name, source, changes)| {
                let mut r = p.new_spilled_read(name, *source, &d, parts).unwrap();
                changes.iter().for_each(|(k, c)| p.push(&mut r, *k, c));
                r
            })
            .collect();
        let w = p.judge_against_first(&whole.iter().collect::<Vec<_>>(), Vec::new());
        let s = p
            .judge_partitioned_against_first(
                &mut spilled.iter_mut().collect::<Vec<_>>(),
                Vec::new(),
            )
            .unwrap();
        drop(spilled);
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            0,
            "spill files removed"
        );
        std::fs::remove_dir(&d).unwrap();
        (w, s)
    }

    fn assert_same(w: &Verdict, s: &Verdict, what: &str) {
        assert_eq!(s.consistent, w.consistent, "{what}: {s:?}");
        assert_eq!(s.expected_row_count, w.expected_rows.len(), "{what}");
        assert!(!s.all_rows && s.expected_rows.is_empty() && w.all_rows);
        assert_eq!(s.reads.len(), w.reads.len(), "{what}");
        assert_eq!(s.checks.len(), w.checks.len(), "{what}");
        assert_eq!(s.failures, w.failures, "{what}");
        for (a, b) in w.reads.iter().zip(&s.reads) {
            assert_eq!(b.row_count, a.row_count, "{what}: {}", a.name);
            assert_eq!(b.consistent, a.consistent, "{what}: {}", a.name);
            assert_eq!(b.changes, a.changes, "{what}: {}", a.name);
            assert_eq!(b.reason, a.reason, "{what}: {}", a.name);
            assert_eq!(b.notes, a.notes, "{what}: {}", a.name);
            assert!(b.rows.is_none());
            let show = |r: &ReadVerdict| {
                r.anomalies
                    .iter()
                    .map(|a| (a.index, a.change.clone(), a.reason.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(show(b), show(a), "{what}: {}", a.name);
        }
        for (a, b) in w.checks.iter().zip(&s.checks) {
            assert_eq!(
                (b.equal, &b.missing, &b.extra),
                (a.equal, &a.missing, &a.extra),
                "{what}"
            );
            assert_eq!(b.left_out, 0);
        }
    }

    #[test]
    fn judged_partition_by_partition_as_judged_whole() {
        let ddl = "CREATE TABLE t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED)";
        let p = Proof::of_table(Target::Fluss, ddl).unwrap();
        let (log, snapshot) = log_and_snapshot(60);
        let mut variants: Vec<(&str, Vec<Change>)> = vec![("exact", snapshot.clone())];
        let mut v = snapshot.clone();
        v.remove(7);
        variants.push(("a row missing", v));
        let mut v = snapshot.clone();
        v.push((RowKind::Insert, row(1000, "z")));
        variants.push(("a row extra", v));
        let mut v = snapshot.clone();
        v.push(snapshot[3].clone());
        variants.push(("a key twice", v));
        let mut v = snapshot.clone();
        v[5].1[1] = Some("old".into());
        variants.push(("an old value", v));
        let mut v = snapshot.clone();
        v.push((RowKind::Delete, snapshot[0].1.clone()));
        variants.push(("a delete in a snapshot", v));
        let mut v = snapshot.clone();
        v.insert(
            2,
            (RowKind::Insert, vec![Some("x".into()), Some("y".into())]),
        );
        v.push(snapshot[9].clone());
        variants.push(("an unreadable change and a key twice", v));
        for (what, lake) in variants {
            for parts in [1, 3, 8] {
                let reads = [
                    ("fluss_log", Source::Log, log.clone()),
                    ("lake_snapshot", Source::Snapshot, lake.clone()),
                ];
                let (w, s) = both(&p, &reads, parts);
                assert_eq!(w.consistent, what == "exact", "{what}");
                assert_same(&w, &s, &format!("{what}, {parts} partitions"));
            }
        }
        // A broken reference (an update-before with no row to retract) is found too.
        let mut bad_log = log.clone();
        bad_log.insert(0, (RowKind::UpdateBefore, row(5000, "q")));
        let reads = [
            ("fluss_log", Source::Log, bad_log),
            ("lake_snapshot", Source::Snapshot, snapshot.clone()),
        ];
        let (w, s) = both(&p, &reads, 4);
        assert!(!w.consistent);
        assert_same(&w, &s, "a broken log");
    }

    #[test]
    fn a_keyless_read_is_partitioned_by_its_rows() {
        let p = Proof::of_table(Target::Fluss, "CREATE TABLE t (k INT, v STRING)").unwrap();
        let rows: Vec<Change> = (0..50)
            .map(|i| (RowKind::Insert, row(i % 20, "r")))
            .collect();
        let mut fewer = rows.clone();
        fewer.remove(4);
        for (lake, consistent) in [(rows.clone(), true), (fewer, false)] {
            let reads = [
                ("fluss_log", Source::Log, rows.clone()),
                ("lake_snapshot", Source::Snapshot, lake),
            ];
            let (w, s) = both(&p, &reads, 5);
            assert_eq!(w.consistent, consistent);
            assert_same(&w, &s, "keyless");
        }
    }

    #[test]
    fn a_verdict_lists_the_first_differences_and_counts_the_rest() {
        let ddl = "CREATE TABLE t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED)";
        let p = Proof::of_table(Target::Fluss, ddl).unwrap();
        let (log, snapshot) = log_and_snapshot(600);
        let stale: Vec<Change> = snapshot
            .iter()
            .map(|(k, r)| (*k, vec![r[0].clone(), Some("stale".into())]))
            .collect();
        let reads = [
            ("fluss_log", Source::Log, log),
            ("lake_snapshot", Source::Snapshot, stale),
        ];
        let (w, s) = both(&p, &reads, 6);
        let (wc, sc) = (&w.checks[1], &s.checks[1]);
        assert!(!s.consistent && !sc.equal);
        assert_eq!(wc.missing.len() + wc.extra.len(), 800);
        assert_eq!(sc.missing.len(), LISTED_DIFFERENCES);
        assert_eq!(sc.extra.len(), LISTED_DIFFERENCES);
        assert_eq!(sc.left_out, 800 - 2 * LISTED_DIFFERENCES);
        assert!(
            s.reads[1].reason.contains("missing 400, extra 400"),
            "{}",
            s.reads[1].reason
        );
        // The first ones: the smallest rows of the whole verdict's, in order.
        assert_eq!(sc.missing[..], wc.missing[..LISTED_DIFFERENCES]);
        assert_eq!(sc.extra[..], wc.extra[..LISTED_DIFFERENCES]);
        assert_eq!(s.reads[1].reason, w.reads[1].reason);
    }

    #[test]
    fn a_spill_file_gone_before_judging_fails_the_verdict() {
        let p = Proof::of_table(
            Target::Fluss,
            "CREATE TABLE t (k INT, PRIMARY KEY (k) NOT ENFORCED)",
        )
        .unwrap();
        let d = dir("gone");
        let mut log = p.new_spilled_read("log", Source::Log, &d, 2).unwrap();
        let mut lake = p.new_spilled_read("lake", Source::Snapshot, &d, 2).unwrap();
        for k in 0..20 {
            let cells = [Some(k.to_string())];
            p.push(&mut log, RowKind::Insert, &cells);
            p.push(&mut lake, RowKind::Insert, &cells);
        }
        std::fs::remove_file(d.join("lake.1.spill")).unwrap();
        let v = p
            .judge_partitioned_against_first(&mut [&mut log, &mut lake], Vec::new())
            .unwrap();
        assert!(!v.consistent);
        assert_eq!(v.failures.len(), 1, "{:?}", v.failures);
        assert!(v.failures[0].contains("lake.1.spill"), "{:?}", v.failures);
        drop((log, lake));
        std::fs::remove_dir(&d).unwrap();
    }

    #[test]
    fn a_spill_that_cannot_be_made_whole_leaves_none_of_its_files() {
        let d = dir("midway");
        std::fs::write(d.join("r.1.spill"), b"someone else's").unwrap();
        let e = Spill::create(&d, "r", 3, false).unwrap_err().to_string();
        assert!(e.contains("r.1.spill"), "{e}");
        let left: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|f| f.unwrap().file_name())
            .collect();
        assert_eq!(
            left,
            vec![std::ffi::OsString::from("r.1.spill")],
            "only the file it found"
        );
        assert_eq!(
            std::fs::read(d.join("r.1.spill")).unwrap(),
            b"someone else's"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_spill_stops_before_its_file_system_is_fuller_than_the_reserve() {
        let (free, total) = free_bytes(&std::env::temp_dir()).expect("statvfs of the temp dir");
        assert!(free <= total && total > 0);
        assert_eq!(space_reserve(1 << 20), 1 << 30, "at least 1 GiB");
        assert_eq!(
            space_reserve(100 << 30),
            5 << 30,
            "5 % of a large file system"
        );
        assert_eq!(space_reserve(2 << 40), 10 << 30, "at most 10 GiB");

        let d = dir("full");
        let mut s = Spill::create(&d, "r", 2, false).unwrap();
        s.reserve = Some(0); // whatever this machine's disk holds
        s.push(0, RowKind::Insert, b"k0", b"fits");
        assert_eq!(s.error(), None, "the first write looks, and there is room");
        // A file system as full as the reserve: the next look stops it, naming the directory.
        s.reserve = Some(free.saturating_add(1 << 30));
        s.since_space_check = SPACE_CHECK_EVERY - 1;
        s.push(1, RowKind::Insert, b"k1", b"no room");
        let e = s.error().expect("stopped").to_string();
        assert!(
            e.contains(&d.display().to_string())
                && e.contains("MiB free")
                && e.contains("--partition-rows"),
            "{e}"
        );
        s.push(2, RowKind::Insert, b"k2", b"after");
        s.finish();
        let mut seen = Vec::new();
        for p in 0..2 {
            s.for_each_in(p, |i, _, _, _| seen.push(i)).unwrap();
        }
        assert_eq!(seen, vec![0], "nothing written after the stop");
        drop(s);
        std::fs::remove_dir(&d).unwrap();
    }

    #[test]
    fn a_change_cut_short_in_a_spill_file_is_an_error_not_its_end() {
        let d = dir("cut");
        let mut s = Spill::create(&d, "r", 1, false).unwrap();
        s.push(0, RowKind::Insert, b"key", b"row");
        s.finish();
        let path = d.join("r.0.spill");
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 2]).unwrap();
        assert!(s.for_each_in(0, |_, _, _, _| {}).is_err());
        std::fs::write(&path, &bytes[..5]).unwrap();
        assert!(s.for_each_in(0, |_, _, _, _| {}).is_err());
        std::fs::write(&path, b"").unwrap();
        assert!(s.for_each_in(0, |_, _, _, _| {}).is_ok());
        drop(s);
        std::fs::remove_dir(&d).unwrap();
    }

    #[test]
    fn a_replay_checked_write_by_write_is_not_spilled() {
        let ddl = "CREATE TABLE t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) \
                   WITH ('changelog-producer' = 'input')";
        let p = Proof::generate(Target::Paimon, ddl, 10, 3, 1, false).unwrap();
        let d = dir("writes");
        let e = p
            .new_spilled_read("r", Source::Replay, &d, 2)
            .unwrap_err()
            .to_string();
        assert!(e.contains("write by write"), "{e}");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
        std::fs::remove_dir(&d).unwrap();
    }

    #[test]
    fn partitions_hold_about_the_rows_asked_within_the_limit() {
        assert_eq!(partitions_for(7, 2), 4);
        assert_eq!(partitions_for(0, 5), 1);
        assert_eq!(
            partitions_for(10, 0),
            10,
            "0 rows a partition is taken as 1"
        );
        assert_eq!(partitions_for(u64::MAX, 1), MAX_PARTITIONS);
        assert_eq!(partitions_for(1_000_000, 1_000_000), 1);
    }

    #[test]
    fn nothing_is_overwritten_and_bad_names_are_refused() {
        let d = dir("refuse");
        let s = Spill::create(&d, "r", 2, false).unwrap();
        let again = Spill::create(&d, "r", 2, false).unwrap_err().to_string();
        assert!(again.contains("r.0.spill"), "{again}");
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            2,
            "the first read's files stay"
        );
        assert!(Spill::create(&d, "../x", 2, false).is_err());
        assert!(Spill::create(&d, "x", 0, false).is_err());
        assert!(Spill::create(&d.join("missing"), "x", 2, false).is_err());
        drop(s);
        std::fs::remove_dir(&d).unwrap();
    }
}
