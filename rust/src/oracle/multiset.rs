//! Exact, order-insensitive comparison of two row multisets, with a diff.
//!
//! Rows are mapped to order-preserving integer keys (a row with a NULL balance to its id alone,
//! in a list of its own), radix-sorted, and merged in one pass: no hashing, no allocation per row.

use super::radix::{sort_u32, sort_u64};
use crate::row::Row;
use serde::Serialize;
use std::collections::HashMap;

/// A row and how many more times one side holds it than the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counted {
    pub row: Row,
    pub count: u64,
}

/// What the actual side lacks (`missing`) and holds beyond the expected side (`extra`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Diff {
    pub missing: Vec<Counted>,
    pub extra: Vec<Counted>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty()
    }

    pub fn missing_count(&self) -> u64 {
        self.missing.iter().map(|c| c.count).sum()
    }

    pub fn extra_count(&self) -> u64 {
        self.extra.iter().map(|c| c.count).sum()
    }
}

const SIGN: u32 = 0x8000_0000;

fn flip(v: i32) -> u32 {
    (v as u32) ^ SIGN
}

fn unflip(v: u32) -> i32 {
    (v ^ SIGN) as i32
}

/// Sorted keys of rows with a balance, and of the ids of rows without one.
fn sorted_keys(rows: &[Row]) -> (Vec<u64>, Vec<u32>) {
    let mut valued = Vec::with_capacity(rows.len());
    let mut nulls = Vec::new();
    for r in rows {
        match r.bal {
            Some(b) => valued.push((u64::from(flip(r.id)) << 32) | u64::from(flip(b))),
            None => nulls.push(flip(r.id)),
        }
    }
    sort_u64(&mut valued);
    sort_u32(&mut nulls);
    (valued, nulls)
}

/// Merges two sorted key lists, reporting each key's surplus on either side.
fn merge_sorted<K: Ord + Copy>(
    expected: &[K],
    actual: &[K],
    to_row: impl Fn(K) -> Row,
    diff: &mut Diff,
) {
    let (mut i, mut j) = (0, 0);
    while i < expected.len() || j < actual.len() {
        let k = match (expected.get(i), actual.get(j)) {
            (Some(&a), Some(&b)) => a.min(b),
            (Some(&a), None) => a,
            (None, Some(&b)) => b,
            (None, None) => unreachable!(),
        };
        let run_a = expected[i..].iter().take_while(|&&x| x == k).count();
        let run_b = actual[j..].iter().take_while(|&&x| x == k).count();
        i += run_a;
        j += run_b;
        if run_a > run_b {
            diff.missing.push(Counted {
                row: to_row(k),
                count: (run_a - run_b) as u64,
            });
        } else if run_b > run_a {
            diff.extra.push(Counted {
                row: to_row(k),
                count: (run_b - run_a) as u64,
            });
        }
    }
}

/// The multiset difference of `actual` against `expected`, rows in ascending order.
pub fn diff(expected: &[Row], actual: &[Row]) -> Diff {
    let (ev, en) = sorted_keys(expected);
    let (av, an) = sorted_keys(actual);
    let mut d = Diff::default();
    merge_sorted(&en, &an, |k| Row::new(unflip(k), None), &mut d);
    merge_sorted(
        &ev,
        &av,
        |k| Row::new(unflip((k >> 32) as u32), Some(unflip(k as u32))),
        &mut d,
    );
    d.missing.sort_unstable_by_key(|c| c.row);
    d.extra.sort_unstable_by_key(|c| c.row);
    d
}

/// The straightforward comparison, kept as the benchmark's baseline and as a test reference.
pub fn diff_hashmap_baseline(expected: &[Row], actual: &[Row]) -> Diff {
    let mut counts: HashMap<Row, i64> = HashMap::new();
    for r in expected {
        *counts.entry(*r).or_insert(0) += 1;
    }
    for r in actual {
        *counts.entry(*r).or_insert(0) -= 1;
    }
    let mut d = Diff::default();
    for (row, n) in counts {
        if n > 0 {
            d.missing.push(Counted {
                row,
                count: n as u64,
            });
        } else if n < 0 {
            d.extra.push(Counted {
                row,
                count: (-n) as u64,
            });
        }
    }
    d.missing.sort_unstable_by_key(|c| c.row);
    d.extra.sort_unstable_by_key(|c| c.row);
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::random_upserts;

    #[test]
    fn equal_in_any_order() {
        let a = [
            Row::new(1, Some(1)),
            Row::new(2, None),
            Row::new(-5, Some(i32::MIN)),
        ];
        let b = [a[2], a[0], a[1]];
        assert!(diff(&a, &b).is_empty());
    }

    #[test]
    fn counts_duplicates_and_nulls() {
        let e = [Row::new(1, Some(1)), Row::new(2, None)];
        let a = [
            Row::new(1, Some(1)),
            Row::new(1, Some(1)),
            Row::new(1, Some(1)),
        ];
        let d = diff(&e, &a);
        assert_eq!(
            d.missing,
            [Counted {
                row: Row::new(2, None),
                count: 1
            }]
        );
        assert_eq!(
            d.extra,
            [Counted {
                row: Row::new(1, Some(1)),
                count: 2
            }]
        );
        assert_eq!((d.missing_count(), d.extra_count()), (1, 2));
    }

    #[test]
    fn null_is_not_a_value() {
        let d = diff(&[Row::new(0, None)], &[Row::new(0, Some(0))]);
        assert_eq!(d.missing.len(), 1);
        assert_eq!(d.extra.len(), 1);
    }

    #[test]
    fn agrees_with_the_baseline_on_random_data() {
        for seed in 0..20 {
            let a = random_upserts(3000, 50, seed).unwrap();
            let b = random_upserts(3000, 50, seed + 100).unwrap();
            assert_eq!(diff(&a, &b), diff_hashmap_baseline(&a, &b));
            let mut c = a.clone();
            c.reverse();
            assert!(diff(&a, &c).is_empty());
        }
    }
}
