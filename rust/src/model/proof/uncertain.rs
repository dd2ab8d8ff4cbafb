//! Writes whose outcome is unknown: the client lost their acknowledgement (a disconnect, a
//! timeout), so each may or may not have taken effect. Judged as Jepsen judges them: the reads
//! are wrong only when no choice of which of them took effect, each in its place in its key's
//! order, explains what they returned. One choice must explain every read (they read one table).
//!
//! Writes the client reported failed are judged as not applied, yet tried the same way: when
//! only their taking effect explains the reads, the verdict names them (a failed write that is
//! visible, Jepsen's anomaly), instead of a row missing here and one extra there.

use super::*;
use std::collections::{BTreeMap, BTreeSet};

/// Past this many writes of unknown outcome on one key, not every subset is tried: only "the
/// first `j` of them took effect" for each `j` (exact for a last-write-wins key, whose state is
/// its last applied write).
const EXHAUSTIVE_PER_KEY: usize = 12;

/// What the verdict says of the writes of unknown outcome.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Uncertain {
    /// Their positions in the workload (1-based), the rejected ones among them.
    pub operations: Vec<usize>,
    /// The read whose rows chose which took effect; `None` when no read's rows could be
    /// explained by any choice (then the unknown ones are judged as applied, the rejected ones
    /// as not).
    pub explained_by: Option<String>,
    /// In that choice, the ones that did not take effect (1-based); the others did.
    pub not_applied: Vec<usize>,
    /// Of `operations`, those the client reported failed (1-based).
    pub rejected: Vec<usize>,
    /// Of `rejected`, those that took effect in that choice (1-based): no choice without them
    /// explains the reads. Each is a finding.
    pub rejected_applied: Vec<usize>,
}

/// A key's writes, in the workload's order, and which of them have an unknown outcome.
struct KeyWrites<'a> {
    ops: Vec<(usize, &'a Op)>,
    /// Indices into `ops` of the writes of unknown outcome.
    unknown: Vec<usize>,
    /// Whether each of `unknown` was reported failed by the client.
    rejected: Vec<bool>,
}

impl KeyWrites<'_> {
    /// The choices to try, as sets of the unknown writes left out (indices into `unknown`):
    /// those applying the fewest rejected writes first, then those leaving out the fewest.
    fn choices(&self) -> Vec<Vec<usize>> {
        let m = self.unknown.len();
        let mut choices: Vec<Vec<usize>> = if m > EXHAUSTIVE_PER_KEY {
            (0..=m).rev().map(|j| (j..m).collect()).collect()
        } else {
            (0..1u32 << m)
                .map(|mask| (0..m).filter(|i| mask & (1 << i) != 0).collect())
                .collect()
        };
        choices.sort_by_key(|left_out| (self.rejected_applied(left_out), left_out.len()));
        choices
    }

    /// How many rejected writes a choice applies.
    fn rejected_applied(&self, left_out: &[usize]) -> usize {
        (0..self.unknown.len())
            .filter(|i| self.rejected[*i] && !left_out.contains(i))
            .count()
    }

    /// The key's rows if the unknown writes at `left_out` did not take effect.
    fn state(&self, shape: &Shape, merge: &Merge, left_out: &[usize]) -> Vec<CanonRow> {
        let skipped: BTreeSet<usize> = left_out.iter().map(|&i| self.unknown[i]).collect();
        let ops: Vec<Op> = (self.ops.iter().enumerate())
            .filter(|(i, _)| !skipped.contains(i))
            .map(|(_, (_, op))| (*op).clone())
            .collect();
        let mut rows = merge.state(shape, &ops);
        rows.sort_unstable();
        rows
    }
}

/// Which rows belong together under a choice: a key's (a table without a key: equal rows').
fn group_of(shape: &Shape, row: &CanonRow) -> CanonRow {
    if shape.key.is_empty() {
        row.clone()
    } else {
        key_of(shape, row)
    }
}

impl Proof {
    /// This proof, with the writes at `positions` (0-based, strictly ascending) of unknown
    /// outcome: its reads are judged as described in this module.
    pub fn with_uncertain(&self, positions: &[usize]) -> Result<Proof> {
        self.with_outcomes(positions, &[])
    }

    /// This proof, with the writes at `unknown` of unknown outcome and those at `rejected`
    /// reported failed by the client (each 0-based, strictly ascending, the two apart): judged
    /// as described in this module.
    pub fn with_outcomes(&self, unknown: &[usize], rejected: &[usize]) -> Result<Proof> {
        self.check_positions(unknown)?;
        self.check_positions(rejected)?;
        if let Some(both) = unknown.iter().find(|p| rejected.binary_search(p).is_ok()) {
            return Err(TierproofError::InvalidInput(format!(
                "operation position {both} is both of unknown outcome and rejected"
            )));
        }
        let mut p = self.clone();
        p.uncertain = unknown.iter().chain(rejected).copied().collect();
        p.uncertain.sort_unstable();
        p.rejected = rejected.to_vec();
        Ok(p)
    }

    fn check_positions(&self, positions: &[usize]) -> Result<()> {
        for (i, &p) in positions.iter().enumerate() {
            let previous = i.checked_sub(1).map(|j| positions[j]);
            if p >= self.ops.len() || previous.is_some_and(|q| p <= q) {
                return Err(TierproofError::InvalidInput(format!(
                    "operation position {p} is not past the previous one{} and below the workload's {}",
                    previous.map(|q| format!(" ({q})")).unwrap_or_default(),
                    self.ops.len()
                )));
            }
        }
        Ok(())
    }

    /// The writes of unknown outcome and the rejected ones (0-based positions).
    pub fn uncertain(&self) -> &[usize] {
        &self.uncertain
    }

    /// The writes the client reported failed (0-based positions).
    pub fn rejected(&self) -> &[usize] {
        &self.rejected
    }

    /// The state the reads are judged against, and what the verdict says of the writes of
    /// unknown outcome: with none, the expected state; else the state under the first choice
    /// that explains a whole-table read (tried in the reads' order), or, when none does, the
    /// expected state (every unknown write applied, no rejected one).
    pub(super) fn explained_expected(
        &self,
        reads: &[&PendingRead],
    ) -> (Vec<CanonRow>, Option<Uncertain>) {
        let expected = self.expected();
        if self.uncertain.is_empty() {
            return (expected, None);
        }
        let one_based = |ps: &[usize]| ps.iter().map(|p| p + 1).collect::<Vec<_>>();
        let (shape, merge) = self.judged_by();
        let groups = self.groups_of_uncertain(shape);
        for read in reads.iter().filter(|r| r.view.is_none()) {
            let rows = read.folder.finish().rows;
            if let Some((state, left_out)) = explain(shape, merge, &groups, &expected, &rows) {
                let applied: Vec<usize> = (self.rejected.iter())
                    .filter(|p| left_out.binary_search(p).is_err())
                    .copied()
                    .collect();
                let uncertain = Uncertain {
                    operations: one_based(&self.uncertain),
                    explained_by: Some(read.name.clone()),
                    not_applied: one_based(&left_out),
                    rejected: one_based(&self.rejected),
                    rejected_applied: one_based(&applied),
                };
                return (state, Some(uncertain));
            }
        }
        let uncertain = Uncertain {
            operations: one_based(&self.uncertain),
            explained_by: None,
            not_applied: one_based(&self.rejected),
            rejected: one_based(&self.rejected),
            rejected_applied: Vec::new(),
        };
        (self.expected_without_rejected(expected), Some(uncertain))
    }

    /// The expected state had no rejected write taken effect.
    fn expected_without_rejected(&self, expected: Vec<CanonRow>) -> Vec<CanonRow> {
        if self.rejected.is_empty() {
            return expected;
        }
        let (shape, merge) = self.judged_by();
        let ops: Vec<Op> = (self.ops.iter().enumerate())
            .filter(|(i, _)| self.rejected.binary_search(i).is_err())
            .map(|(_, op)| op.clone())
            .collect();
        merge.state(shape, &ops)
    }

    /// The shape and merge rules the reads are judged by: the promise's, else the table's own.
    fn judged_by(&self) -> (&Shape, &Merge) {
        match &self.promise {
            Some((shape, merge)) => (shape, merge),
            None => (&self.shape, &self.merge),
        }
    }

    /// Every key that a write of unknown outcome touches, with all of that key's writes.
    fn groups_of_uncertain<'a>(&'a self, shape: &Shape) -> BTreeMap<CanonRow, KeyWrites<'a>> {
        let uncertain: BTreeSet<usize> = self.uncertain.iter().copied().collect();
        let keys: BTreeSet<CanonRow> = self
            .uncertain
            .iter()
            .map(|&p| group_of(shape, &canon(shape, &self.ops[p].values)))
            .collect();
        let mut groups: BTreeMap<CanonRow, KeyWrites<'a>> = BTreeMap::new();
        for (position, op) in self.ops.iter().enumerate() {
            let key = group_of(shape, &canon(shape, &op.values));
            if !keys.contains(&key) {
                continue;
            }
            let group = groups.entry(key).or_insert_with(|| KeyWrites {
                ops: Vec::new(),
                unknown: Vec::new(),
                rejected: Vec::new(),
            });
            if uncertain.contains(&position) {
                group.unknown.push(group.ops.len());
                group
                    .rejected
                    .push(self.rejected.binary_search(&position).is_ok());
            }
            group.ops.push((position, op));
        }
        groups
    }
}

/// A choice that makes `expected` (every write applied) into `rows`, and the state it gives
/// with the positions it leaves out (0-based, ascending); `None` when no choice does: a row
/// differs on a key no write of unknown outcome touches, or no choice gives a key its rows.
/// A key with a rejected write is chosen for even where the read holds the expected rows: a
/// rejected write a later one hides did not show, so it is left out if it can be.
fn explain(
    shape: &Shape,
    merge: &Merge,
    groups: &BTreeMap<CanonRow, KeyWrites<'_>>,
    expected: &[CanonRow],
    rows: &[CanonRow],
) -> Option<(Vec<CanonRow>, Vec<usize>)> {
    let (missing, extra) = diff(expected, rows);
    let with_rejected = (groups.iter())
        .filter(|(_, g)| g.rejected.contains(&true))
        .map(|(k, _)| k.clone());
    let differing: BTreeSet<CanonRow> = (missing.iter().chain(&extra))
        .map(|r| group_of(shape, r))
        .chain(with_rejected)
        .collect();
    let mut read: BTreeMap<&CanonRow, Vec<CanonRow>> = BTreeMap::new();
    for row in rows {
        if let Some(key) = differing.get(&group_of(shape, row)) {
            read.entry(key).or_default().push(row.clone());
        }
    }
    let mut left_out = Vec::new();
    for key in &differing {
        let group = groups.get(key)?;
        let mut want = read.remove(key).unwrap_or_default();
        want.sort_unstable();
        let choice = group
            .choices()
            .into_iter()
            .find(|c| group.state(shape, merge, c) == want)?;
        left_out.extend(choice.iter().map(|&i| group.ops[group.unknown[i]].0));
    }
    left_out.sort_unstable();
    // Under the choice each differing key holds what the read holds: the read's rows, then.
    let mut state = rows.to_vec();
    state.sort_unstable();
    Some((state, left_out))
}

#[cfg(test)]
mod tests {
    use super::super::*;

    const KEYED: &str = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)";

    /// A proof of `ddl` with `csv`'s writes, those at `unknown` (1-based) of unknown outcome.
    fn proof(ddl: &str, csv: &str, unknown: &[usize]) -> Proof {
        let p = Proof::open(Target::Paimon, ddl, csv.as_bytes()).unwrap();
        let zero_based: Vec<usize> = unknown.iter().map(|u| u - 1).collect();
        p.with_uncertain(&zero_based).unwrap()
    }

    fn read(name: &str, source: Source, rows: &[&str]) -> ReadInput {
        ReadInput {
            name: name.into(),
            source,
            changes: rows
                .iter()
                .map(|r| {
                    let cells = r.split(',').map(|c| Some(c.to_string())).collect();
                    (RowKind::Insert, cells)
                })
                .collect(),
        }
    }

    fn batch(rows: &[&str]) -> ReadInput {
        read("batch", Source::Snapshot, rows)
    }

    /// A write whose acknowledgement was lost and which did not apply is no finding; nor is one
    /// that did. An acknowledged write that vanished still is.
    #[test]
    fn a_lost_write_may_or_may_not_have_applied_but_an_acknowledged_one_must_be_there() {
        let p = proof(KEYED, "k,v\n1,1\n1,2\n2,5\n", &[2]);
        let not_applied = p.judge(vec![batch(&["1,1", "2,5"])]);
        assert!(not_applied.consistent, "{not_applied:?}");
        let u = not_applied.uncertain.unwrap();
        assert_eq!(u.operations, vec![2]);
        assert_eq!(u.explained_by.as_deref(), Some("batch"));
        assert_eq!(u.not_applied, vec![2]);
        assert_eq!(not_applied.expected_rows.len(), 2);

        let applied = p.judge(vec![batch(&["1,2", "2,5"])]);
        assert!(applied.consistent);
        assert_eq!(applied.uncertain.unwrap().not_applied, Vec::<usize>::new());

        let vanished = p.judge(vec![batch(&["1,2"])]);
        assert!(!vanished.consistent);
        assert_eq!(vanished.uncertain.unwrap().explained_by, None);
        assert_eq!(
            vanished.checks[0].missing,
            vec![vec![Some("2".into()), Some("5".into())]]
        );
    }

    /// Without writes of unknown outcome, the same read is a finding, and the verdict says
    /// nothing of them.
    #[test]
    fn without_unknown_writes_a_missing_write_is_a_finding() {
        let p = proof(KEYED, "k,v\n1,1\n1,2\n2,5\n", &[]);
        let v = p.judge(vec![batch(&["1,1", "2,5"])]);
        assert!(!v.consistent);
        assert_eq!(v.uncertain, None);
    }

    /// A write keeps its place in its key's order: a later acknowledged write wins over an
    /// earlier one of unknown outcome, whichever way that went.
    #[test]
    fn an_unknown_write_keeps_its_place_in_its_keys_order() {
        let p = proof(KEYED, "k,v\n1,1\n1,2\n", &[1]);
        assert!(p.judge(vec![batch(&["1,2"])]).consistent);
        assert!(!p.judge(vec![batch(&["1,1"])]).consistent);
        assert!(!p.judge(vec![batch(&[])]).consistent);
    }

    /// One choice explains every read: reads that each fit a different choice disagree.
    #[test]
    fn one_choice_must_explain_every_read() {
        let p = proof(KEYED, "k,v\n1,1\n1,2\n", &[2]);
        let v = p.judge(vec![
            batch(&["1,1"]),
            read("streaming", Source::Snapshot, &["1,2"]),
        ]);
        assert!(!v.consistent);
        assert!(v.reads[0].consistent);
        assert!(
            v.reads[1].reason.contains("differs from batch"),
            "{}",
            v.reads[1].reason
        );
        // The choice comes from the first read that any choice explains.
        let v = p.judge(vec![
            batch(&["3,3"]),
            read("streaming", Source::Snapshot, &["1,1"]),
        ]);
        assert!(!v.consistent);
        assert_eq!(
            v.uncertain.unwrap().explained_by.as_deref(),
            Some("streaming")
        );
    }

    /// A delete of unknown outcome: the row may be there or not.
    #[test]
    fn an_unknown_delete_may_have_removed_the_row() {
        let p = proof(KEYED, "op,k,v\n,1,1\ndelete,1,\n", &[2]);
        assert!(p.judge(vec![batch(&[])]).consistent);
        assert!(p.judge(vec![batch(&["1,1"])]).consistent);
        assert!(!p.judge(vec![batch(&["1,2"])]).consistent);
    }

    /// An aggregating key sums what took effect: any subset of the unknown writes, never without
    /// an acknowledged one.
    #[test]
    fn an_aggregating_key_sums_any_subset_of_the_unknown_writes() {
        let ddl = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH \
                   ('merge-engine' = 'aggregation', 'fields.v.aggregate-function' = 'sum')";
        let p = proof(ddl, "k,v\n1,1\n1,2\n1,4\n", &[1, 3]);
        for (sum, consistent) in [
            ("7", true),
            ("6", true),
            ("3", true),
            ("2", true),
            ("5", false),
        ] {
            let row = format!("1,{sum}");
            let v = p.judge(vec![batch(&[&row])]);
            assert_eq!(v.consistent, consistent, "sum {sum}: {v:?}");
        }
        let v = p.judge(vec![batch(&["1,6"])]);
        assert_eq!(v.uncertain.unwrap().not_applied, vec![1]);
    }

    /// A table without a key: each unknown append may be there once or not at all.
    #[test]
    fn an_unknown_append_is_there_once_or_not_at_all() {
        let log = "CREATE TABLE t (k INT, v INT)";
        let p = proof(log, "k,v\n1,1\n1,1\n2,2\n", &[2, 3]);
        let v = p.judge(vec![read("log", Source::Log, &["1,1"])]);
        assert!(v.consistent, "{v:?}");
        assert_eq!(v.uncertain.unwrap().not_applied, vec![2, 3]);
        assert!(
            p.judge(vec![read("log", Source::Log, &["1,1", "1,1", "2,2"])])
                .consistent
        );
        assert!(
            !p.judge(vec![read("log", Source::Log, &["1,1", "1,1", "1,1"])])
                .consistent
        );
        assert!(!p.judge(vec![read("log", Source::Log, &["2,2"])]).consistent);
    }

    /// A replay that must show every write shows the unknown one or not: judged by its state.
    #[test]
    fn a_replay_may_leave_out_an_unknown_write() {
        let p = proof(KEYED, "k,v\n1,1\n1,2\n2,5\n", &[2]);
        let v = p.judge(vec![read("replay", Source::Replay, &["1,1", "2,5"])]);
        assert!(v.consistent, "{v:?}");
        let known = proof(KEYED, "k,v\n1,1\n1,2\n2,5\n", &[]);
        assert!(
            !known
                .judge(vec![read("replay", Source::Replay, &["1,1", "2,5"])])
                .consistent
        );
    }

    /// A write the client reported failed is judged as not applied; when only its taking effect
    /// explains a read, the verdict names it and is a finding. One a later write hides is no
    /// finding: nothing shows whether it took effect.
    #[test]
    fn a_rejected_write_that_shows_is_named_and_one_that_does_not_is_no_finding() {
        let csv = "k,v\n1,1\n1,2\n2,5\n2,6\n2,7\n";
        let p = Proof::open(Target::Paimon, KEYED, csv.as_bytes())
            .unwrap()
            .with_outcomes(&[], &[1, 3])
            .unwrap();
        let not_applied = p.judge(vec![batch(&["1,1", "2,7"])]);
        assert!(not_applied.consistent, "{not_applied:?}");
        let u = not_applied.uncertain.unwrap();
        assert_eq!((u.rejected, u.rejected_applied), (vec![2, 4], vec![]));
        assert_eq!(u.not_applied, vec![2, 4]);

        let shown = p.judge(vec![batch(&["1,2", "2,7"])]);
        assert!(!shown.consistent, "{shown:?}");
        let u = shown.uncertain.as_ref().unwrap();
        assert_eq!(u.rejected_applied, vec![2]);
        assert!(shown.checks.iter().all(|c| c.equal), "{shown:?}");
        assert!(
            shown.failures.iter().any(|f| f.contains("operation 2")),
            "{:?}",
            shown.failures
        );

        // No choice explains a row no write has: judged with no rejected write applied.
        let wrong = p.judge(vec![batch(&["1,9", "2,7"])]);
        assert!(!wrong.consistent);
        let u = wrong.uncertain.unwrap();
        assert_eq!((u.explained_by, u.rejected_applied), (None, vec![]));
        assert_eq!(
            wrong.checks[0].missing,
            vec![vec![Some("1".into()), Some("1".into())]]
        );
        let e = p.with_outcomes(&[1], &[1]).unwrap_err().to_string();
        assert!(e.contains("position 1 is both"), "{e}");
    }

    /// A checkpoint after the first writes keeps their unknown ones; positions out of order or
    /// past the end are refused, naming them.
    #[test]
    fn a_prefix_keeps_its_unknown_writes_and_bad_positions_are_refused() {
        let p = proof(KEYED, "k,v\n1,1\n1,2\n2,5\n", &[2, 3]);
        assert_eq!(p.prefix(2).unwrap().uncertain(), &[1]);
        let e = p.with_uncertain(&[2, 1]).unwrap_err().to_string();
        assert!(
            e.contains("operation position 1 is not past the previous one (2)"),
            "{e}"
        );
        let e = p.with_uncertain(&[3]).unwrap_err().to_string();
        assert!(e.contains("below the workload's 3"), "{e}");
    }
}
