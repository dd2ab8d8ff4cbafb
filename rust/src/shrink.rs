//! Smaller workloads to try when a proof fails, simplest first: the counterexample search keeps
//! the first candidate that still fails and asks again, until none does (a local minimum).

use crate::row::Row;

/// Candidates smaller than `upserts`: without a chunk of upserts (halves, then quarters, … then
/// single upserts); then simpler everywhere at once (every balance 0); then an id renamed to 0
/// wherever it occurs; then one value made simpler (an id moved to 0, a balance halved, a NULL
/// made 0). Whole-workload steps come first: each candidate tried costs a real proof.
pub fn shrink_candidates(upserts: &[Row]) -> Vec<Vec<Row>> {
    let mut out = Vec::new();
    let n = upserts.len();
    let mut size = n / 2;
    while size >= 1 {
        for start in (0..n).step_by(size) {
            let mut c = upserts[..start].to_vec();
            c.extend_from_slice(&upserts[(start + size).min(n)..]);
            if !c.is_empty() && !out.contains(&c) {
                out.push(c);
            }
        }
        size /= 2;
    }
    if upserts.iter().any(|r| r.bal != Some(0)) {
        out.push(upserts.iter().map(|r| Row::new(r.id, Some(0))).collect());
    }
    let mut ids: Vec<i32> = upserts.iter().map(|r| r.id).filter(|&id| id != 0).collect();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        let renamed: Vec<Row> = upserts
            .iter()
            .map(|r| if r.id == id { Row::new(0, r.bal) } else { *r })
            .collect();
        out.push(renamed);
    }
    for i in 0..n {
        let r = upserts[i];
        let mut simpler = Vec::new();
        if r.id != 0 {
            simpler.push(Row::new(0, r.bal));
        }
        match r.bal {
            Some(0) => {}
            Some(b) => simpler.push(Row::new(
                r.id,
                Some(if b.unsigned_abs() > 1 { b / 2 } else { 0 }),
            )),
            None => simpler.push(Row::new(r.id, Some(0))),
        }
        for s in simpler {
            let mut c = upserts.to_vec();
            c[i] = s;
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shrinks with a predicate standing in for "the proof still fails".
    /// Returns the minimum and how many candidates were tried (each a proof in real use).
    fn minimize(mut w: Vec<Row>, fails: impl Fn(&[Row]) -> bool) -> (Vec<Row>, usize) {
        assert!(fails(&w));
        let mut tried = 0;
        while let Some(next) = shrink_candidates(&w).into_iter().find(|c| {
            tried += 1;
            fails(c)
        }) {
            w = next;
        }
        (w, tried)
    }

    #[test]
    fn a_repeated_id_shrinks_to_two_zero_upserts() {
        // Fails while some id is written twice: what an append-only table gets wrong.
        let repeated = |w: &[Row]| {
            let mut ids: Vec<i32> = w.iter().map(|r| r.id).collect();
            ids.sort_unstable();
            ids.windows(2).any(|p| p[0] == p[1])
        };
        let w = vec![
            Row::new(5, Some(7)),
            Row::new(9, None),
            Row::new(-3, Some(i32::MIN)),
            Row::new(9, Some(12)),
            Row::new(4, Some(1)),
        ];
        let (min, tried) = minimize(w, repeated);
        assert_eq!(min, [Row::new(0, Some(0)), Row::new(0, Some(0))]);
        assert!(tried <= 16, "{tried} candidates tried");
    }

    #[test]
    fn candidates_are_smaller_or_simpler() {
        let w = [Row::new(1, Some(8)), Row::new(0, None)];
        let c = shrink_candidates(&w);
        assert_eq!(c[0], [Row::new(0, None)]);
        assert_eq!(c[1], [Row::new(1, Some(8))]);
        assert!(c.contains(&vec![Row::new(0, Some(8)), Row::new(0, None)]));
        assert!(c.contains(&vec![Row::new(1, Some(4)), Row::new(0, None)]));
        assert!(c.contains(&vec![Row::new(1, Some(8)), Row::new(0, Some(0))]));
        assert!(shrink_candidates(&[Row::new(0, Some(0))]).is_empty());
    }
}
