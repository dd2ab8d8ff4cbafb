//! A read's changes on disk, split into partitions by their key's hash (a keyless read's by
//! the row's), written as they stream in and read back one partition at a time: what lets reads
//! larger than memory be judged ([`crate::model::proof::partitioned`]). It knows nothing of proofs.

use crate::error::{Result, TierproofError};
use crate::model::oracle::RowKind;
use crate::model::rows::packed::PackedKey;
use std::fs::{File, OpenOptions};
use std::hash::BuildHasher;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

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
pub(crate) mod tests {
    use super::*;

    /// A fresh directory of its own for a test's spill files.
    pub(crate) fn dir(name: &str) -> PathBuf {
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
