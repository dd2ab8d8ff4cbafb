//! The verdict: every read folded, compared with the expected state and with the first read.

use super::changelog::{fold_keyed, fold_multiset, Anomaly, Change};
use super::expected::latest_per_id;
use super::multiset::{diff, Diff};
use crate::row::Row;
use serde::Serialize;

/// One read as the harness saw it, folded.
#[derive(Debug, Clone, Serialize)]
pub struct Read {
    pub name: String,
    /// How many changes the read delivered before folding.
    pub changes: usize,
    pub rows: Vec<Row>,
    pub anomalies: Vec<Anomaly>,
}

/// One comparison: `right` against `left`, `left` taken as the expected side.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub left: String,
    pub right: String,
    pub equal: bool,
    pub missing_count: u64,
    pub extra_count: u64,
    pub diff: Diff,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    /// Every check equal and no read with an anomaly.
    pub consistent: bool,
    /// Whether reads were folded as upserts by id (a primary-key table) or as multisets.
    pub keyed: bool,
    pub expected_rows: Vec<Row>,
    pub reads: Vec<Read>,
    pub checks: Vec<Check>,
}

pub const EXPECTED: &str = "expected";

/// Judges reads of a table after `upserts` against the last value per id: that is the promise.
/// `keyed` says how a read's changelog folds (see [`super::changelog`]).
pub fn judge(upserts: &[Row], keyed: bool, reads: Vec<(String, Vec<Change>)>) -> Verdict {
    judge_against(latest_per_id(upserts), keyed, reads)
}

/// Judges reads against a given expected state (a merge engine's, see [`super::engine_state`]).
pub fn judge_against(
    expected_rows: Vec<Row>,
    keyed: bool,
    reads: Vec<(String, Vec<Change>)>,
) -> Verdict {
    let reads: Vec<Read> = reads
        .into_iter()
        .map(|(name, changes)| {
            let folded = if keyed {
                fold_keyed(&changes)
            } else {
                fold_multiset(&changes)
            };
            Read {
                name,
                changes: changes.len(),
                rows: folded.rows,
                anomalies: folded.anomalies,
            }
        })
        .collect();
    let mut checks: Vec<Check> = reads
        .iter()
        .map(|r| check(EXPECTED, &expected_rows, &r.name, &r.rows))
        .collect();
    if let Some((first, rest)) = reads.split_first() {
        checks.extend(
            rest.iter()
                .map(|r| check(&first.name, &first.rows, &r.name, &r.rows)),
        );
    }
    let consistent = checks.iter().all(|c| c.equal) && reads.iter().all(|r| r.anomalies.is_empty());
    Verdict {
        consistent,
        keyed,
        expected_rows,
        reads,
        checks,
    }
}

fn check(left: &str, left_rows: &[Row], right: &str, right_rows: &[Row]) -> Check {
    let d = diff(left_rows, right_rows);
    Check {
        left: left.to_string(),
        right: right.to_string(),
        equal: d.is_empty(),
        missing_count: d.missing_count(),
        extra_count: d.extra_count(),
        diff: d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inserts(rows: &[Row]) -> Vec<Change> {
        rows.iter().map(|&r| Change::insert(r)).collect()
    }

    #[test]
    fn keyed_reads_of_latest_state_are_consistent() {
        let ups = [Row::new(1, Some(10)), Row::new(1, Some(20))];
        let v = judge(
            &ups,
            true,
            vec![
                ("batch".into(), inserts(&[Row::new(1, Some(20))])),
                ("streaming".into(), inserts(&ups)),
            ],
        );
        assert!(v.consistent);
        assert_eq!(v.checks.len(), 3);
        let json = serde_json::to_string(&v).unwrap();
        assert!(json.contains("\"expected_rows\":[[1,20]]"), "{json}");
    }

    #[test]
    fn append_only_reads_show_extra_versions() {
        let ups = [Row::new(1, Some(10)), Row::new(1, Some(20))];
        let v = judge(
            &ups,
            false,
            vec![
                ("batch".into(), inserts(&ups)),
                ("streaming".into(), inserts(&ups)),
            ],
        );
        assert!(!v.consistent);
        let c = &v.checks[0];
        assert_eq!((c.missing_count, c.extra_count), (0, 1));
        assert_eq!(c.diff.extra[0].row, Row::new(1, Some(10)));
        assert!(v.checks[2].equal, "the two reads agree with each other");
    }

    #[test]
    fn an_anomaly_fails_the_verdict() {
        let ups = [Row::new(1, Some(10))];
        let mut stream = inserts(&ups);
        stream.push(Change {
            kind: super::super::RowKind::Delete,
            row: Row::new(9, None),
        });
        let v = judge(&ups, true, vec![("streaming".into(), stream)]);
        assert!(v.checks.iter().all(|c| c.equal));
        assert!(!v.consistent);
    }
}
