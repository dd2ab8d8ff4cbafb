//! The verdict: every read's folded state against the expected one, and the reads against each
//! other.

use super::*;

impl Proof {
    /// Judges whole reads (tests and small callers); see [`Self::judge_folded`].
    pub fn judge(&self, reads: Vec<ReadInput>) -> Verdict {
        let pending: Vec<PendingRead> = reads
            .into_iter()
            .map(|r| {
                let mut p = self.new_read(&r.name, r.source);
                for (kind, cells) in &r.changes {
                    self.push(&mut p, *kind, cells);
                }
                p
            })
            .collect();
        self.judge_folded(&pending.iter().collect::<Vec<_>>())
    }

    /// Judges reads that streamed in, in the order given: each against the expected state and
    /// against the first. The sentinel's changes were left out as they came.
    pub fn judge_folded(&self, reads: &[&PendingRead]) -> Verdict {
        self.judge_folded_with(reads, Vec::new())
    }

    /// As [`Self::judge_folded`], with what failed outside the reads' rows: writes the server did
    /// not acknowledge, reads that errored or never ended. Any of them makes the verdict
    /// inconsistent, whatever the reads hold. Writes of unknown outcome
    /// ([`Self::with_uncertain`]) are judged by the choice that explains the reads.
    pub fn judge_folded_with(&self, reads: &[&PendingRead], failures: Vec<String>) -> Verdict {
        let promise = match &self.promise {
            Some((shape, merge)) => merge.promise(shape),
            None => self.merge.promise(&self.shape),
        };
        let (expected, uncertain) = self.explained_expected(reads);
        let mut failures = failures;
        if let Some(u) = &uncertain {
            failures.extend(u.rejected_applied.iter().map(|p| {
                format!("operation {p} took effect, though the client reported its write failed: no choice without it explains the reads")
            }));
        }
        let mut verdict = self.judge_against(expected, promise, true, reads, failures);
        verdict.uncertain = uncertain;
        verdict
    }

    /// Judges reads of a table tierproof did not write (an audit): with no workload to say what
    /// it must hold, the first read is the reference (its rows are the expected state); each read
    /// is still folded by its own source's rules and must equal it.
    pub fn judge_against_first(&self, reads: &[&PendingRead], failures: Vec<String>) -> Verdict {
        let (expected, promise) = match reads.first() {
            Some(first) if first.view.is_none() => (
                first.folder.finish().rows,
                format!("what the first read ({}) holds: the table was written by someone else, so no workload says what it must hold", first.name),
            ),
            Some(_) => (Vec::new(), "nothing: the first read is a view".to_string()),
            None => (Vec::new(), "nothing: no read to judge by".to_string()),
        };
        // The expected state is the first read: comparing with the first again would say it twice.
        self.judge_against(expected, promise, false, reads, failures)
    }

    /// Judges each read against `expected` and, when `with_first`, each later read against the
    /// first.
    pub(super) fn judge_against(
        &self,
        expected: Vec<CanonRow>,
        promise: String,
        with_first: bool,
        reads: &[&PendingRead],
        failures: Vec<String>,
    ) -> Verdict {
        // A read holding exactly the expected rows is the common case: found on packed bytes,
        // and said in the verdict without unpacking or repeating its rows.
        let packed: Vec<Packed> = expected.iter().map(pack).collect();
        let mut expected_packed: Vec<&[u8]> = packed.iter().map(|p| &p[..]).collect();
        expected_packed.sort_unstable();
        let mut judged = Vec::new();
        for read in reads {
            let exact = read.view.is_none() && read.folder.holds_exactly(&expected_packed);
            let Folded {
                rows,
                anomalies,
                update_after_rows,
            } = read.folder.finish_with(!exact);
            let notes = if update_after_rows > 0 {
                vec![update_after_note(update_after_rows)]
            } else {
                Vec::new()
            };
            let mut out_anomalies = read.unreadable.clone();
            out_anomalies.extend(anomalies.into_iter().map(|a| AnomalyOut {
                index: a.index,
                change: a.change,
                reason: a.reason,
            }));
            judged.push(ReadVerdict {
                name: read.name.clone(),
                changes: read.changes,
                row_count: if exact { expected.len() } else { rows.len() },
                rows: (!exact).then_some(rows),
                anomalies: out_anomalies,
                notes,
                consistent: false,
                reason: String::new(),
                fold_ms: read.fold_time.as_millis() as u64,
            });
        }
        // One check against the expected state per read, then one per later read against the
        // first; and each read's own verdict from its two, so the harness never re-decides it.
        // A view read is compared with the same view of the expected state and of the first read.
        let views: Vec<Option<&View>> = reads
            .iter()
            .map(|r| r.view.as_ref().map(|(v, _)| v))
            .collect();
        // What a read sees of `rows`: all of them, or its view of them.
        fn seen<'a>(view: Option<&View>, rows: &'a [CanonRow]) -> std::borrow::Cow<'a, [CanonRow]> {
            match view {
                Some(v) => v.apply(rows).into(),
                None => rows.into(),
            }
        }
        fn rows_of<'a>(r: &'a ReadVerdict, expected: &'a [CanonRow]) -> &'a [CanonRow] {
            r.rows.as_deref().unwrap_or(expected)
        }
        let vs_expected: Vec<Check> = judged
            .iter()
            .enumerate()
            .map(|(i, r)| match &r.rows {
                None => check("expected", &[], &r.name, &[]),
                Some(rows) => check("expected", &seen(views[i], &expected), &r.name, rows),
            })
            .collect();
        let vs_first: Vec<Check> = match judged.split_first() {
            Some((first, rest)) if with_first && views[0].is_none() => rest
                .iter()
                .enumerate()
                .map(|(j, r)| match (&first.rows, &r.rows) {
                    (None, None) => check(&first.name, &[], &r.name, &[]),
                    _ => check(
                        &first.name,
                        &seen(views[j + 1], rows_of(first, &expected)),
                        &r.name,
                        rows_of(r, &expected),
                    ),
                })
                .collect(),
            _ => Vec::new(),
        };
        for (i, read) in judged.iter_mut().enumerate() {
            let mut why = Vec::new();
            let e = &vs_expected[i];
            if !e.equal {
                why.push(format!(
                    "differs from the expected state (missing {}, extra {})",
                    e.missing.len(),
                    e.extra.len()
                ));
            }
            if let Some(c) = i.checked_sub(1).and_then(|j| vs_first.get(j)) {
                if !c.equal {
                    why.push(format!("differs from {}", c.left));
                }
            }
            if let Some(a) = read.anomalies.first() {
                why.push(format!(
                    "{} anomalies, first: {} {}",
                    read.anomalies.len(),
                    a.change,
                    a.reason
                ));
            }
            read.consistent = why.is_empty();
            read.reason = why.join("; ");
        }
        let mut checks = vs_expected;
        checks.extend(vs_first);
        let consistent = checks.iter().all(|c| c.equal)
            && judged.iter().all(|r| r.anomalies.is_empty())
            && failures.is_empty();
        Verdict {
            consistent,
            keyed: self.keyed(),
            promise,
            columns: self.shape.columns.iter().map(|(c, _)| c.clone()).collect(),
            expected_row_count: expected.len(),
            all_rows: true,
            expected_rows: expected,
            reads: judged,
            checks,
            failures,
            uncertain: None,
        }
    }
}

/// What a read whose snapshot result held `n` update-after rows is told.
pub(in crate::model) fn update_after_note(n: u64) -> String {
    format!(
        "{n} of its rows came as update-after (+U) in a snapshot (batch) result, which Paimon's source declares insert-only; the rows are right and counted (docs/findings/paimon-1.3-batch-update-after.md)"
    )
}

/// The verdict over general rows (cells in canonical text).
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub consistent: bool,
    pub keyed: bool,
    /// What the expected state is, in words ("the last write per key", ...).
    pub promise: String,
    pub columns: Vec<String>,
    pub expected_rows: Vec<CanonRow>,
    /// How many rows the expected state holds (`expected_rows`'s length when it holds them).
    pub expected_row_count: usize,
    /// Whether the verdict holds every row: false when the reads were judged partition by
    /// partition ([`super::partition`]); then `expected_rows` and each read's `rows` are left
    /// out (their counts stay) and each check lists only its first differences.
    pub all_rows: bool,
    pub reads: Vec<ReadVerdict>,
    pub checks: Vec<Check>,
    /// What failed outside the reads' rows (writes the server did not acknowledge, reads that
    /// errored or never ended): each a finding.
    pub failures: Vec<String>,
    /// The writes of unknown outcome and the choice that explains the reads; `None` when every
    /// write's outcome is known.
    pub uncertain: Option<Uncertain>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReadVerdict {
    pub name: String,
    pub changes: u64,
    /// The rows it folded to; `None` (null) when they are exactly the expected rows, which the
    /// verdict then holds once (`expected_rows`), not once per read.
    pub rows: Option<Vec<CanonRow>>,
    pub row_count: usize,
    pub anomalies: Vec<AnomalyOut>,
    /// What is worth knowing but does not make the read wrong (a known finding's trace).
    pub notes: Vec<String>,
    /// Equal to the expected state and to the first read, without anomalies.
    pub consistent: bool,
    /// Why not, when not.
    pub reason: String,
    /// CPU milliseconds spent decoding and folding its changes as they streamed in (and, for a
    /// write-by-write stream, building the writes it must show, once per workload).
    pub fold_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct AnomalyOut {
    pub index: usize,
    pub change: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub left: String,
    pub right: String,
    pub equal: bool,
    pub missing: Vec<CanonRow>,
    pub extra: Vec<CanonRow>,
    /// How many differences (missing and extra rows) are not listed: none unless judged
    /// partition by partition.
    pub left_out: usize,
}

pub(super) fn check(
    left: &str,
    left_rows: &[CanonRow],
    right: &str,
    right_rows: &[CanonRow],
) -> Check {
    let (missing, extra) = diff(left_rows, right_rows);
    Check {
        left: left.to_string(),
        right: right.to_string(),
        equal: missing.is_empty() && extra.is_empty(),
        missing,
        extra,
        left_out: 0,
    }
}
