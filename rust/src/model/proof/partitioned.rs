//! Reads larger than memory (an audit of a big table): each read's changes go to disk as they
//! stream in, split into partitions by their key's hash (a keyless read's by the row's), and the
//! reads are then folded and judged one partition at a time. All changes of a key fall in one
//! partition, in the order they came, so a partition is judged exactly as the whole read would
//! be; memory holds one partition of every read at a time. The verdict then keeps counts,
//! anomalies and the first differences, not every row.

use crate::error::{Result, TierproofError};
use crate::model::oracle::spill::Spill;
use crate::model::proof::{
    thread_cpu_time, update_after_note, AnomalyOut, Check, PendingRead, Proof, ReadVerdict,
    Verdict, LISTED_ANOMALIES, LISTED_DIFFERENCES,
};
use crate::model::rows::canon::CanonRow;
use std::time::Duration;

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
            uncertain: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::oracle::spill::tests::dir;
    use crate::model::oracle::RowKind;

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
}
