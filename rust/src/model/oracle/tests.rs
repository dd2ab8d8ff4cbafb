use super::*;
use crate::model::rows::canon::{canon, key_of};
use crate::model::workloads::workload::parse_workload_csv;

/// The state each key's writes end in is the deduplicate state of the workload: over seeded
/// workloads with deletes (of absent keys too) and keys written again after a delete.
#[test]
fn the_writes_end_in_the_deduplicate_state() {
    let shape = ledger();
    for seed in 0..40 {
        // Some across several of the thousand-operation chunks the writes are built in.
        let n = if seed % 4 == 0 { 5000 } else { 300 };
        let keys = 1 + seed as u32 % 20 * if n > 300 { 50 } else { 1 };
        let ops = crate::model::search::generate::random_ops(&shape, n, keys, seed, true)
            .expect("workload");
        assert!(
            ops.iter().any(|op| op.kind == OpKind::Delete),
            "seed {seed}"
        );
        assert_eq!(
            writes_per_key(&shape, &ops).final_rows(),
            super::super::merge::Merge::deduplicate().state(&shape, &ops),
            "seed {seed}"
        );
    }
}

/// The rules per read kind, in one place: each kind gets its correct read, then that read
/// with one change duplicated, one missing and two swapped; a kind that promises an order
/// must see all three, a snapshot (a set) all but the swap.
#[test]
fn each_read_kind_sees_a_duplicated_a_missing_and_a_reordered_change() {
    let shape = ledger();
    let v = |id: &str, amount: &str| values(&shape, &["eu", id, amount, "2024-01-01"]);
    let ops = parse_workload_csv(
        &shape,
        "op,region,id,amount,day\n,eu,1,1,2024-01-01\n,eu,1,2,2024-01-01\n,eu,2,5,2024-01-01\n\
             delete,eu,1,,2024-01-01\n,eu,1,3,2024-01-01\n",
    )
    .unwrap();
    let expected = super::super::merge::Merge::deduplicate().state(&shape, &ops);
    use RowKind::*;
    type Read = Vec<(RowKind, Vec<Value>)>;
    let reads: [(Fold, Read); 3] = [
        (
            Fold::Snapshot,
            vec![(Insert, v("1", "3")), (Insert, v("2", "5"))],
        ),
        (
            Fold::Writes,
            vec![
                (Insert, v("1", "1")),
                (Insert, v("1", "2")),
                (Insert, v("2", "5")),
                (Delete, v("1", "2")),
                (Insert, v("1", "3")),
            ],
        ),
        (
            Fold::Changelog,
            vec![
                (Insert, v("1", "1")),
                (UpdateBefore, v("1", "1")),
                (UpdateAfter, v("1", "2")),
                (Insert, v("2", "5")),
                (Delete, v("1", "2")),
                (Insert, v("1", "3")),
            ],
        ),
    ];
    let judge = |mode: Fold, changes: &[(RowKind, Vec<Value>)]| {
        let mut folder = if mode == Fold::Writes {
            Folder::of_writes(Arc::new(writes_per_key(&shape, &ops)))
        } else {
            Folder::new(mode)
        };
        for (i, (kind, values)) in changes.iter().enumerate() {
            folder.push(&shape, i, *kind, values);
        }
        let f = folder.finish();
        if mode == Fold::Writes {
            // Rows derived from the writes shown, or kept once a key's changes stray from
            // its writes: the same rows as folding the changes as raw upserts.
            assert_eq!(
                f.rows,
                fold(&shape, Fold::Upserts, changes).rows,
                "{changes:?}"
            );
        }
        f.anomalies.is_empty() && f.rows == expected
    };
    for (mode, good) in reads {
        assert!(judge(mode, &good), "{mode:?}: the correct read passes");
        let mut foreign = good.clone();
        foreign.insert(1, (Insert, v("9", "9")));
        assert!(
            !judge(mode, &foreign),
            "{mode:?}: a key never written is seen"
        );
        for at in 0..good.len() {
            let mut duplicated = good.clone();
            duplicated.insert(at, good[at].clone());
            assert!(
                !judge(mode, &duplicated),
                "{mode:?}: change {at} duplicated is seen"
            );
            let mut missing = good.clone();
            missing.remove(at);
            assert!(
                !judge(mode, &missing),
                "{mode:?}: change {at} missing is seen"
            );
        }
        for at in 0..good.len() - 1 {
            let mut swapped = good.clone();
            swapped.swap(at, at + 1);
            // Two changes of different keys may come in either order; of one key, never.
            let same_key = key_of(&shape, &canon(&shape, &good[at].1))
                == key_of(&shape, &canon(&shape, &good[at + 1].1));
            let seen = !judge(mode, &swapped);
            assert_eq!(
                seen,
                mode != Fold::Snapshot && same_key,
                "{mode:?}: changes {at}, {} swapped",
                at + 1
            );
        }
    }
}

/// A whole read folded at once.
fn fold(shape: &Shape, mode: Fold, changes: &[(RowKind, Vec<Value>)]) -> Folded {
    let mut folder = Folder::new(mode);
    for (i, (kind, values)) in changes.iter().enumerate() {
        folder.push(shape, i, *kind, values);
    }
    folder.finish()
}

use crate::create_table::parse_create_table;

fn ledger() -> Shape {
    Shape::of(
        &parse_create_table(
            "CREATE TABLE ledger (region STRING, id BIGINT, amount DECIMAL(12, 2), day DATE, \
                 PRIMARY KEY (region, id, day) NOT ENFORCED) PARTITIONED BY (day)",
        )
        .unwrap(),
    )
    .unwrap()
}

fn row(cells: &[&str]) -> CanonRow {
    cells.iter().map(|c| Some(c.to_string())).collect()
}

#[test]
fn last_write_per_composite_key_and_deletes() {
    let shape = ledger();
    let ops = parse_workload_csv(
        &shape,
        "op,region,id,amount,day\n\
             ,eu,1,10.5,2024-02-29\n\
             ,eu,1,11,2024-03-01\n\
             ,us,1,7,2024-02-29\n\
             ,eu,1,12.25,2024-02-29\n\
             delete,us,1,,2024-02-29\n\
             delete,jp,5,,2024-02-29\n",
    )
    .unwrap();
    assert_eq!(
        super::super::merge::Merge::deduplicate().state(&shape, &ops),
        [
            row(&["eu", "1", "11.00", "2024-03-01"]),
            row(&["eu", "1", "12.25", "2024-02-29"]),
        ]
    );
}

fn values(shape: &Shape, cells: &[&str]) -> Vec<Value> {
    cells
        .iter()
        .zip(&shape.columns)
        .map(|(c, (_, ty))| Value::parse(*ty, c).unwrap())
        .collect()
}

#[test]
fn a_snapshot_update_after_row_counts_and_is_noted_but_a_delete_is_an_anomaly() {
    let shape = ledger();
    let a = values(&shape, &["eu", "1", "1.5", "2024-01-01"]);
    let b = values(&shape, &["eu", "2", "2.5", "2024-01-01"]);
    let f = fold(
        &shape,
        Fold::Snapshot,
        &[
            (RowKind::UpdateAfter, a.clone()),
            (RowKind::Insert, b.clone()),
        ],
    );
    assert_eq!(
        (f.rows.len(), f.anomalies.len(), f.update_after_rows),
        (2, 0, 1)
    );
    let f = fold(
        &shape,
        Fold::Snapshot,
        &[(RowKind::Delete, a), (RowKind::Insert, b)],
    );
    assert_eq!((f.rows.len(), f.anomalies.len()), (1, 1));
    assert!(f.anomalies[0].reason.contains("only inserts"));
}

#[test]
fn a_snapshot_read_holds_each_key_once() {
    let shape = ledger();
    let r = values(&shape, &["eu", "1", "1.5", "2024-01-01"]);
    let twice = fold(
        &shape,
        Fold::Snapshot,
        &[(RowKind::Insert, r.clone()), (RowKind::Insert, r.clone())],
    );
    assert_eq!(twice.rows.len(), 1);
    assert_eq!(twice.anomalies.len(), 1);
    assert!(twice.anomalies[0]
        .reason
        .contains("returned this key twice"));
    // As an upsert stream the same two changes are fine.
    let upserts = fold(
        &shape,
        Fold::Upserts,
        &[(RowKind::Insert, r.clone()), (RowKind::Insert, r.clone())],
    );
    assert!(upserts.anomalies.is_empty());
    let bad = fold(&shape, Fold::Upserts, &[(RowKind::Delete, r.clone())]);
    assert_eq!(bad.anomalies[0].change, "-D(eu, 1, 1.50, 2024-01-01)");
    // The text "NULL" is not NULL.
    let text_null = values(&shape, &["NULL", "1", "1.5", "2024-01-01"]);
    let mut real_null = text_null.clone();
    real_null[0] = Value::Null;
    assert_ne!(canon(&shape, &text_null), canon(&shape, &real_null));
    assert_eq!(
        show_row(&canon(&shape, &text_null)),
        "(\"NULL\", 1, 1.50, 2024-01-01)"
    );
}

#[test]
fn diffs_are_multisets() {
    let a = vec![row(&["1"]), row(&["2"]), row(&["2"])];
    let b = vec![row(&["2"]), row(&["3"])];
    let (missing, extra) = diff(&a, &b);
    assert_eq!(missing, [row(&["1"]), row(&["2"])]);
    assert_eq!(extra, [row(&["3"])]);
    assert_eq!(diff(&a, &a), (vec![], vec![]));
}
