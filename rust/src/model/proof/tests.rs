use super::*;

const DDL: &str =
    "CREATE TABLE ledger (region STRING, id BIGINT, amount DECIMAL(12, 2), note STRING, \
                       day DATE, PRIMARY KEY (region, id, day) NOT ENFORCED) PARTITIONED BY (day) \
                       WITH ('bucket' = '4')";
const CSV: &str = "op,region,id,amount,note,day\n\
                       ,eu,1,10.50,first,2024-02-29\n\
                       ,eu,2,3,,2024-02-29\n\
                       delete,eu,2,,,2024-02-29\n\
                       ,us,1,7.25,\"a, b\",2024-03-01\n";

fn cells(v: &[&str]) -> Vec<Option<String>> {
    v.iter()
        .map(|c| {
            if *c == "NULL" {
                None
            } else {
                Some(c.to_string())
            }
        })
        .collect()
}

/// Fluss names a partition by its value: generated text partition values are names Fluss
/// takes, and a workload with one it does not is refused naming the operation.
#[test]
fn fluss_partition_values_are_names_fluss_takes() {
    let ddl = "CREATE TABLE t (k INT, p STRING, v INT, PRIMARY KEY (k, p) NOT ENFORCED) PARTITIONED BY (p)";
    let g = Proof::generate(Target::Fluss, ddl, 300, 40, 7, true).unwrap();
    assert!(g.ops.iter().all(|op| match &op.values[1] {
        Value::Text(t) => validate_fluss_name(t).is_ok(),
        _ => true,
    }));
    let e = Proof::open(Target::Fluss, ddl, "k,p,v\n1,a b,1\n".as_bytes())
        .unwrap_err()
        .to_string();
    assert!(e.contains("operation 1: partition column p"), "{e}");
    assert!(Proof::open(Target::Paimon, ddl, "k,p,v\n1,a b,1\n".as_bytes()).is_ok());
    // A log table's partition column may be NULL in Paimon, never in Fluss.
    let log = "CREATE TABLE l (k INT, p INT, v INT) PARTITIONED BY (p)";
    let g = Proof::generate(Target::Fluss, log, 300, 40, 7, true).unwrap();
    assert!(g.ops.iter().all(|op| op.values[1] != Value::Null));
    let e = Proof::open(Target::Fluss, log, "k,p,v\n1,1,1\n2,,2\n".as_bytes())
        .unwrap_err()
        .to_string();
    assert!(e.contains("operation 2: partition column p is NULL"), "{e}");
}

/// A consistent cut holds exactly the writes chosen, in order: a delete left out leaves its
/// key; positions out of order or past the end are refused, naming them.
#[test]
fn a_subset_is_the_state_of_the_chosen_writes() {
    let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
    let everything = p.expected().len();
    assert_eq!(everything, 2, "eu/2 is deleted");
    let without_delete = p.subset(&[0, 1, 3]).unwrap();
    assert_eq!(without_delete.expected().len(), 3);
    let first_two = p.subset(&[0, 1]).unwrap();
    assert_eq!(first_two.expected(), p.prefix(2).unwrap().expected());
    assert!(p.subset(&[]).unwrap().expected().is_empty());
    for bad in [&[1, 0][..], &[0, 0], &[4]] {
        let e = p.subset(bad).unwrap_err().to_string();
        assert!(e.contains("operation position"), "{e}");
    }
}

/// COUNT(*), filters and a projection are judged against the same view of the expected
/// state: right answers pass, a wrong count or a filter that loses a row fails.
#[test]
fn view_reads_are_judged_against_the_same_view() {
    let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
    let queries = p.view_queries().unwrap();
    let names: Vec<&str> = queries.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(
        names,
        ["count", "filter_key", "filter_partition", "projection"]
    );
    assert!(
        queries[0].sql.starts_with("SELECT COUNT(*) FROM"),
        "{}",
        queries[0].sql
    );
    assert!(
        queries[1]
            .sql
            .contains("WHERE `region` IN (CAST('eu' AS STRING), CAST('us' AS STRING))"),
        "{}",
        queries[1].sql
    );
    assert!(
        queries[2].sql.contains("WHERE `day` = "),
        "{}",
        queries[2].sql
    );
    assert!(
        queries[3]
            .sql
            .starts_with("SELECT `region`, `id`, `day` FROM"),
        "{}",
        queries[3].sql
    );
    // The state: (eu, 1, 2024-02-29) and (us, 1, 2024-03-01).
    let judge = |count: &str, eu_rows: usize| {
        let mut reads = Vec::new();
        let mut c = p.new_view_read("count", queries[0].view.clone());
        p.push(&mut c, RowKind::Insert, &cells(&[count]));
        reads.push(c);
        let mut f = p.new_view_read("filter_partition", queries[2].view.clone());
        for _ in 0..eu_rows {
            p.push(
                &mut f,
                RowKind::Insert,
                &cells(&["eu", "1", "10.50", "first", "2024-02-29"]),
            );
        }
        reads.push(f);
        let mut k = p.new_view_read("projection", queries[3].view.clone());
        p.push(&mut k, RowKind::Insert, &cells(&["eu", "1", "2024-02-29"]));
        p.push(&mut k, RowKind::Insert, &cells(&["us", "1", "2024-03-01"]));
        reads.push(k);
        p.judge_folded(&reads.iter().collect::<Vec<_>>())
    };
    let right = judge("2", 1);
    assert!(right.consistent, "{:?}", right.reads);
    let wrong_count = judge("3", 1);
    assert!(!wrong_count.consistent && !wrong_count.reads[0].consistent);
    let lost = judge("2", 0);
    assert!(!lost.consistent && !lost.reads[1].consistent && lost.reads[2].consistent);
    let doubled = judge("2", 2);
    assert!(
        !doubled.reads[1].anomalies.is_empty(),
        "a key twice in a filtered snapshot"
    );
}

/// Shrinking tries smaller tables first: one bucket, no partitioning, a value column fewer
/// (never a key, partition or option column), each with the same operations.
#[test]
fn smaller_tables_come_first() {
    let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
    let tables = p.smaller_tables();
    let ddls: Vec<String> = tables
        .iter()
        .map(|t| t.table.canonical_sql().unwrap())
        .collect();
    assert_eq!(tables.len(), 6, "{ddls:#?}");
    assert!(ddls[0].contains("'bucket' = '1'"), "{}", ddls[0]);
    assert!(!ddls[1].contains("PARTITIONED BY"), "{}", ddls[1]);
    assert!(ddls[2].contains("PRIMARY KEY (`id`, `day`)"), "{}", ddls[2]);
    assert!(
        ddls[3].contains("PRIMARY KEY (`region`, `day`)"),
        "{}",
        ddls[3]
    );
    assert!(
        !ddls[4].contains("`amount`")
            && ddls[5].contains("`amount`")
            && !ddls[5].contains("`note`")
    );
    assert!(tables.iter().all(|t| t.ops.len() == p.ops.len()));
    assert_eq!(tables[4].ops[0].values.len(), 4);
    // Fewer key columns: the two writes of eu/1 and us/1 are now one key's.
    assert_eq!(tables[2].shape.key.len(), 2);
    assert_eq!(
        p.shrink_candidate(0)
            .unwrap()
            .table
            .canonical_sql()
            .unwrap(),
        ddls[0]
    );
    // A key of the partition column alone is no candidate: the engines refuse it.
    let two = "CREATE TABLE t (k BIGINT, p INT, v INT, PRIMARY KEY (k, p) NOT ENFORCED) PARTITIONED BY (p)";
    let p2 = Proof::open(Target::Fluss, two, "k,p,v\n1,2,3\n".as_bytes()).unwrap();
    assert!(p2
        .smaller_tables()
        .iter()
        .all(|t| t.table.primary_key.len() == 2));
    let one_bucket = tables[0].clone();
    assert_eq!(one_bucket.smaller_tables().len(), 5, "no bucket step left");
}

/// What one ordered job writes for the workload: a delete carries the row it removes, a
/// delete of an absent key writes nothing; tables where a delete is more than that refuse.
#[test]
fn as_written_deletes_carry_their_row() {
    let ddl = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)";
    let csv = "op,k,v\nupsert,1,10\ndelete,2,\nupsert,1,11\ndelete,1,\ndelete,1,\n";
    let p = Proof::open(Target::Paimon, ddl, csv.as_bytes()).unwrap();
    let w = p.as_written().unwrap();
    assert_eq!(w.ops.len(), 3);
    assert_eq!(w.ops[2].kind, OpKind::Delete);
    assert_eq!(
        w.operation_cells(2, 1)[1..],
        [Some("1".into()), Some("11".into())]
    );
    let agg = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH \
                   ('merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true')";
    let p = Proof::open(Target::Paimon, agg, csv.as_bytes()).unwrap();
    assert!(p.ordered_write_refused().is_some() && p.as_written().is_err());
    let upserts = Proof::open(Target::Paimon, agg, "k,v\n1,2\n".as_bytes()).unwrap();
    assert!(upserts.ordered_write_refused().is_none());
}

/// The sentinel's key is a value no operation uses, however many the workload uses: ten
/// thousand INT keys from -150 up, a one-character key that has used up its values.
#[test]
fn a_sentinel_key_is_free_however_many_keys_are_used() {
    let mut csv = String::from("k,v\n");
    for k in -150..10_000 {
        csv.push_str(&format!("{k},1\n"));
    }
    let ddl = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)";
    let p = Proof::open(Target::Paimon, ddl, csv.as_bytes()).unwrap();
    let sql = p.sentinel_insert(7).unwrap();
    assert!(sql.contains("10000"), "{sql}");
    let one = "CREATE TABLE t (k CHAR(1), v INT, PRIMARY KEY (k) NOT ENFORCED)";
    let p = Proof::open(Target::Paimon, one, "k,v\n~,1\n".as_bytes()).unwrap();
    assert!(p.sentinel_insert(7).unwrap().contains("'}'"));
    let two = "CREATE TABLE t (k BOOLEAN, v INT, PRIMARY KEY (k) NOT ENFORCED)";
    let Err(err) = Proof::open(Target::Paimon, two, "k,v\ntrue,1\nfalse,2\n".as_bytes()) else {
        panic!("a BOOLEAN key with both values used leaves no sentinel key");
    };
    assert!(
        err.to_string().contains("no key is left for the sentinel"),
        "{err}"
    );
}

/// An option fewer is a smaller table too, but the datalake switch stays: without it the
/// table would never tier, another case than the one being shrunk.
#[test]
fn smaller_tables_drop_options_but_keep_the_table_tiering() {
    let ddl =
        "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '2', \
                   'table.merge-engine' = 'first_row', 'table.datalake.enabled' = 'true')";
    let p = Proof::open(Target::Fluss, ddl, "k,v\n1,2\n1,3\n".as_bytes()).unwrap();
    let ddls: Vec<String> = p
        .smaller_tables()
        .iter()
        .map(|t| t.table.canonical_sql().unwrap())
        .collect();
    assert_eq!(ddls.len(), 3, "{ddls:#?}");
    assert!(ddls
        .iter()
        .all(|d| d.contains("'table.datalake.enabled' = 'true'")));
    assert!(!ddls[1].contains("first_row") && ddls[1].contains("'bucket.num' = '2'"));
    assert!(!ddls[2].contains("`v`"), "{}", ddls[2]);
}

/// The exercise's contract: one statement per upsert on its table is `upsert_inserts`'s text.
#[test]
fn one_upsert_a_statement_is_the_exercises_text() {
    let ddl = crate::ddl::tier_table_ddl("accounts").unwrap();
    let csv = "id,bal\n1,100\n1,\n-3,-2147483648\n2147483647,0\n";
    let proof = Proof::open(Target::Paimon, &ddl, csv.as_bytes()).unwrap();
    let rows = [
        crate::Row::new(1, Some(100)),
        crate::Row::new(1, None),
        crate::Row::new(-3, Some(i32::MIN)),
        crate::Row::new(i32::MAX, Some(0)),
    ];
    let exercise = crate::upsert::upsert_inserts("accounts", &rows).unwrap();
    let ours: Vec<String> = proof
        .statements(1)
        .unwrap()
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    assert_eq!(ours, exercise);
}

#[test]
fn int_tables_batch_repeated_keys_in_one_ordered_values() {
    let ddl = "CREATE TABLE t (id INT NOT NULL, bal INT, PRIMARY KEY (id) NOT ENFORCED)";
    let csv = "id,bal\n1,5\n1,\n2,7\n1,9\n";
    let proof = Proof::open(Target::Paimon, ddl, csv.as_bytes()).unwrap();
    let s = proof.statements(10).unwrap();
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(
            s[0].1,
            "INSERT INTO `t` SELECT `c0`, IF(`n1`, CAST(NULL AS INT), `c1`) FROM (VALUES (1, 5, FALSE), \
             (1, 0, TRUE), (2, 7, FALSE), (1, 9, FALSE)) AS `upserts`(`c0`, `c1`, `n1`)"
        );
    assert_eq!(proof.statements(3).unwrap().len(), 2);
}

#[test]
fn statements_keep_order_and_delete_by_key() {
    let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
    // One window: its three upserts, then its delete (eu 2 is written, then deleted).
    let s = p.statements(1000).unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].0, "INSERT 1 of 2");
    assert!(s[0].1.starts_with("INSERT INTO `ledger` VALUES (CAST('eu' AS STRING), CAST(1 AS BIGINT), CAST('10.50' AS DECIMAL(12, 2))"), "{}", s[0].1);
    assert!(s[0].1.contains("CAST('us' AS STRING)"), "{}", s[0].1);
    assert_eq!(
            s[1].1,
            "DELETE FROM `ledger` WHERE `region` = CAST('eu' AS STRING) AND `id` = CAST(2 AS BIGINT) AND `day` = CAST(DATE '2024-02-29' AS DATE)"
        );
    assert_eq!(s[1].0, "DELETE 2 of 2");
    // One operation a statement: the workload in order.
    let one: Vec<String> = p
        .statements(1)
        .unwrap()
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert_eq!(
        one,
        [
            "INSERT 1 of 4",
            "INSERT 2 of 4",
            "DELETE 3 of 4",
            "INSERT 4 of 4"
        ]
    );
    // A key written twice starts a new window: one statement never writes it twice.
    let twice = Proof::open(
        Target::Paimon,
        DDL,
        format!("{CSV},eu,1,1,,2024-02-29\n").as_bytes(),
    )
    .unwrap();
    let s = twice.statements(1000).unwrap();
    assert_eq!(s.len(), 3);
    assert!(s[2].1.starts_with("INSERT") && s[2].1.matches("CAST('eu' AS STRING)").count() == 1);
    // An upsert of a key the window deletes starts a new one (its delete must come first);
    // two deletes of a window are one statement.
    let again = Proof::open(
        Target::Paimon,
        DDL,
        format!("{CSV}delete,us,1,,,2024-03-01\n,eu,2,4,,2024-02-29\n").as_bytes(),
    )
    .unwrap();
    let s: Vec<String> = again
        .statements(1000)
        .unwrap()
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    assert_eq!(s.len(), 3, "{s:?}");
    assert!(
        s[1].starts_with("DELETE") && s[1].contains(") OR ("),
        "{}",
        s[1]
    );
    assert!(
        s[2].starts_with("INSERT") && s[2].contains("CAST(2 AS BIGINT)"),
        "{}",
        s[2]
    );
    // The sentinel's key is in no operation (its region is one no row uses); its partition
    // is a real one.
    assert_eq!(p.sentinel_column, 0);
    assert_eq!(p.sentinel[0], Value::Text("~0".into()));
    assert_eq!(p.sentinel[4], p.ops[0].values[4]);
    assert!(p
        .sentinel_insert(1000)
        .unwrap()
        .contains("/*+ OPTIONS('end-input.watermark'='1000') */"));
    assert_eq!(
        p.select_all(&[]),
        "SELECT `region`, `id`, `amount`, `note`, `day` FROM `ledger`"
    );
}

/// A read pushed a batch at a time (the harness's way, folded a batch at once) gets the
/// verdict it gets pushed change by change: on a correct replay of every write and on ones
/// with a change duplicated, dropped, moved, altered or foreign, wherever the batches end.
#[test]
fn a_read_in_batches_is_judged_as_change_by_change() {
    use crate::model::workloads::wire::encode;
    let ddl = "CREATE TABLE t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) \
                   WITH ('changelog-producer' = 'input')";
    let p = Proof::generate(Target::Paimon, ddl, 300, 9, 7, true).unwrap();
    assert_eq!(p.new_read("r", Source::Replay).folder.mode(), Fold::Writes);
    let mut state = std::collections::HashMap::new();
    let mut good: Vec<(RowKind, CanonRow)> = Vec::new();
    for op in &p.ops {
        let row = canon(&p.shape, &op.values);
        match op.kind {
            OpKind::Upsert => {
                good.push((RowKind::Insert, row.clone()));
                state.insert(row[0].clone(), row);
            }
            OpKind::Delete => {
                if let Some(old) = state.remove(&row[0]) {
                    good.push((RowKind::Delete, old));
                }
            }
        }
    }
    let foreign = vec![Some("100".to_string()), Some("x".to_string())];
    let mut variants = vec![good.clone()];
    for at in [0, 1, good.len() / 2, good.len() - 1] {
        let mut v = good.clone();
        v.insert(at, good[at].clone());
        variants.push(v);
        let mut v = good.clone();
        v.remove(at);
        variants.push(v);
        let mut v = good.clone();
        let moved = v.remove(at);
        v.insert((at + 5).min(v.len()), moved);
        variants.push(v);
        let mut v = good.clone();
        v[at].1[1] = Some("altered".to_string());
        variants.push(v);
        let mut v = good.clone();
        v.insert(at, (RowKind::Insert, foreign.clone()));
        variants.push(v);
    }
    let verdict = |read: PendingRead| {
        let mut v = p.judge_folded(&[&read]);
        v.reads.iter_mut().for_each(|r| r.fold_ms = 0);
        serde_json::to_string(&v).unwrap()
    };
    let mut inconsistent = 0;
    for (n, changes) in variants.iter().enumerate() {
        let mut one_by_one = p.new_read("r", Source::Replay);
        for (kind, row) in changes {
            p.push(&mut one_by_one, *kind, row);
        }
        let expected = verdict(one_by_one);
        // A change moved past other keys' only is still in its key's order: no anomaly.
        let consistent = expected.starts_with("{\"consistent\":true");
        assert!(consistent || n > 0, "the correct read: {expected}");
        inconsistent += usize::from(!consistent);
        for size in [1, 2, 7, 64, changes.len()] {
            let mut batched = p.new_read("r", Source::Replay);
            for chunk in changes.chunks(size) {
                let mut bytes = Vec::new();
                for (kind, row) in chunk {
                    let cells: Vec<Option<&str>> = row.iter().map(|c| c.as_deref()).collect();
                    encode(*kind as u8, &cells, &mut bytes);
                }
                p.push_batch(&mut batched, &bytes).unwrap();
            }
            assert_eq!(verdict(batched), expected, "variant {n}, batches of {size}");
        }
    }
    assert!(
        inconsistent >= 16,
        "{inconsistent} of {} variants seen",
        variants.len() - 1
    );
}

#[test]
fn judges_reads_as_sets_and_streams_leaving_out_the_sentinel() {
    let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
    let good = vec![
        (
            RowKind::Insert,
            cells(&["eu", "1", "10.50", "first", "2024-02-29"]),
        ),
        (
            RowKind::Insert,
            cells(&["us", "1", "7.25", "a, b", "2024-03-01"]),
        ),
    ];
    let mut stream = good.clone();
    stream.push((
        RowKind::Insert,
        cells(&["eu", "2", "3.00", "NULL", "2024-02-29"]),
    ));
    stream.push((
        RowKind::Delete,
        cells(&["eu", "2", "3.00", "NULL", "2024-02-29"]),
    ));
    stream.push((
        RowKind::Insert,
        cells(&["~0", "1", "NULL", "NULL", "2024-02-29"]),
    ));
    let read = |name: &str, source, changes| ReadInput {
        name: name.into(),
        source,
        changes,
    };
    let v = p.judge(vec![
        read("batch", Source::Snapshot, good.clone()),
        read("streaming", Source::Replay, stream),
    ]);
    assert!(v.consistent, "{v:?}");
    assert_eq!(v.expected_rows.len(), 2);
    // The sentinel's row is left out of the changes too.
    assert_eq!(v.reads[1].changes, 4);
    // Rows exactly the expected ones are said once, in the expected rows.
    assert!(v.reads.iter().all(|r| r.rows.is_none() && r.row_count == 2));
    assert!(v.checks.iter().all(|c| c.equal));
    // A key returned twice by a batch read fails it, though the rows are equal.
    let mut twice = good.clone();
    twice.push(good[0].clone());
    let v = p.judge(vec![
        read("batch", Source::Snapshot, twice),
        read("streaming", Source::Replay, good.clone()),
    ]);
    assert!(!v.consistent);
    assert!(v.reads[0].anomalies[0].reason.contains("twice"));
    // A read's own anomalies do not make another read that holds the rows differ from it.
    assert!(v.reads[1].consistent && v.checks.iter().all(|c| c.equal));
    // A row that differs is a diff.
    let good_again = good.clone();
    let mut changed = good;
    changed[0] = (
        RowKind::Insert,
        cells(&["eu", "1", "10.51", "first", "2024-02-29"]),
    );
    let v = p.judge(vec![
        read("batch", Source::Snapshot, changed.clone()),
        read("streaming", Source::Replay, changed.clone()),
    ]);
    let changed_again = changed;
    assert!(!v.reads[0].consistent && !v.reads[1].consistent);
    assert_eq!(
        v.reads[1].reason,
        "differs from the expected state (missing 1, extra 1)"
    );
    assert_eq!(v.checks[0].missing[0][2].as_deref(), Some("10.50"));
    assert_eq!(v.checks[0].extra[0][2].as_deref(), Some("10.51"));
    // Rows that differ are carried, each read's own.
    assert_eq!(v.reads[0].rows.as_ref().map(Vec::len), Some(2));
    // One read exact, one not: the exact one is compared as the expected rows it holds.
    let v = p.judge(vec![
        read("batch", Source::Snapshot, good_again.clone()),
        read("streaming", Source::Replay, changed_again),
    ]);
    assert!(v.reads[0].consistent && v.reads[0].rows.is_none());
    assert!(!v.reads[1].consistent);
    assert_eq!(
        v.reads[1].reason,
        "differs from the expected state (missing 1, extra 1); differs from batch"
    );
    assert_eq!(v.checks[2].missing[0][2].as_deref(), Some("10.50"));
}

#[test]
fn an_audit_judges_every_read_against_the_first() {
    let ddl =
        "CREATE TABLE t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '2')";
    let p = Proof::of_table(Target::Fluss, ddl).unwrap();
    let read = |name: &str, source, changes: &[(RowKind, [&str; 2])]| ReadInput {
        name: name.into(),
        source,
        changes: changes.iter().map(|(k, c)| (*k, cells(c))).collect(),
    };
    use RowKind::*;
    let log = read(
        "fluss_log",
        Source::Log,
        &[
            (Insert, ["1", "a"]),
            (Insert, ["2", "b"]),
            (UpdateBefore, ["2", "b"]),
            (UpdateAfter, ["2", "c"]),
            (Insert, ["3", "x"]),
            (Delete, ["3", "x"]),
            (Insert, ["-150", "s"]),
        ],
    );
    let judge = |lake: &[(RowKind, [&str; 2])]| {
        let reads = vec![log.clone(), read("lake", Source::Snapshot, lake)];
        let pending: Vec<PendingRead> = reads
            .into_iter()
            .map(|r| {
                let mut p2 = p.new_read(&r.name, r.source);
                for (kind, c) in &r.changes {
                    p.push(&mut p2, *kind, c);
                }
                p2
            })
            .collect();
        p.judge_against_first(&pending.iter().collect::<Vec<_>>(), Vec::new())
    };
    let exact = [
        (Insert, ["2", "c"]),
        (Insert, ["1", "a"]),
        (Insert, ["-150", "s"]),
    ];
    let v = judge(&exact);
    assert!(v.consistent, "{v:?}");
    // Every row is judged, whatever its values: an audit leaves no sentinel's rows out.
    assert_eq!(
        v.expected_rows,
        vec![
            cells(&["-150", "s"]),
            cells(&["1", "a"]),
            cells(&["2", "c"])
        ]
    );
    assert!(!judge(&exact[..2]).consistent);
    // Each read is compared once, with the reference; not again with the first read (the same).
    assert_eq!(v.checks.len(), 2);
    assert!(v.promise.contains("fluss_log"));
    // The lake holding an older value of a key, or a key twice, is found.
    let v = judge(&[
        (Insert, ["2", "b"]),
        (Insert, ["1", "a"]),
        (Insert, ["-150", "s"]),
    ]);
    assert!(!v.consistent);
    assert_eq!(v.checks[1].missing, vec![cells(&["2", "c"])]);
    assert_eq!(v.checks[1].extra, vec![cells(&["2", "b"])]);
    let v = judge(&[
        (Insert, ["2", "c"]),
        (Insert, ["1", "a"]),
        (Insert, ["-150", "s"]),
        (Insert, ["1", "a"]),
    ]);
    assert!(!v.consistent && v.reads[1].anomalies[0].reason.contains("twice"));
}

#[test]
fn a_generated_workload_writes_back_as_the_same_csv() {
    let p = Proof::generate(Target::Paimon, DDL, 300, 12, 5, true).unwrap();
    let csv = p.workload_csv();
    let back = Proof::open(Target::Paimon, DDL, csv.as_bytes()).unwrap();
    assert_eq!(back.ops, p.ops);
    assert!(p
        .statements(50)
        .unwrap()
        .iter()
        .any(|(l, _)| l.starts_with("DELETE")));
    let q = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
    assert_eq!(
        Proof::open(Target::Paimon, DDL, q.workload_csv().as_bytes())
            .unwrap()
            .ops,
        q.ops
    );
}

#[test]
fn an_append_table_judged_as_its_keyed_promise_shows_every_superseded_row() {
    let keyed = "CREATE TABLE t (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED)";
    let p = Proof::open_judged_as(
        Target::Paimon,
        "CREATE TABLE t (a INT, b INT)",
        keyed,
        b"a,b\n1,1\n1,2\n2,1\n",
    )
    .unwrap();
    assert_eq!(p.expected().len(), 2);
    let all = |v: &[&str]| {
        v.iter()
            .map(|r| {
                let (a, b) = r.split_once(',').unwrap();
                (
                    RowKind::Insert,
                    vec![Some(a.to_string()), Some(b.to_string())],
                )
            })
            .collect::<Vec<_>>()
    };
    let v = p.judge(vec![ReadInput {
        name: "batch".into(),
        source: Source::Snapshot,
        changes: all(&["1,1", "1,2", "2,1"]),
    }]);
    assert!(!v.consistent);
    assert_eq!((v.checks[0].missing.len(), v.checks[0].extra.len()), (0, 1));
}

#[test]
fn merge_engines_shape_the_workload_and_the_expected_state() {
    let first_row = "CREATE TABLE t (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('merge-engine' = 'first-row')";
    let p = Proof::open(Target::Paimon, first_row, b"a,b\n1,1\n1,2\n").unwrap();
    assert_eq!(
        p.merge.state(&p.shape, &p.ops),
        [vec![Some("1".to_string()), Some("1".to_string())]]
    );
    let e = Proof::open(Target::Paimon, first_row, b"op,a,b\ndelete,1,\n").unwrap_err();
    assert!(e.to_string().contains("operation 1 is a delete"), "{e}");
    // A generated workload leaves deletes out where the table refuses them.
    let g = Proof::generate(Target::Paimon, first_row, 500, 20, 3, true).unwrap();
    assert!(g.ops.iter().all(|op| op.kind == OpKind::Upsert));
    // Fluss: names Fluss accepts, and tiering on by default.
    let f = Proof::open(Target::Fluss, "CREATE TABLE orders (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('bucket.num' = '4')", b"a,b\n1,1\n").unwrap();
    assert_eq!(f.table.option("table.datalake.enabled"), Some("true"));
    assert!(f
        .table
        .canonical_sql()
        .unwrap()
        .contains("'table.datalake.freshness' = '1s'"));
    for (ddl, word) in [
        ("CREATE TABLE `a b` (a INT, b INT)", "not allowed"),
        (
            "CREATE TABLE t (a INT, b INT) WITH ('table.datalake.enabled' = 'false')",
            "must be 'true'",
        ),
    ] {
        let e = Proof::open(Target::Fluss, ddl, b"a,b\n1,1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains(word), "{e}");
    }
}

/// A column added while the table is written: rows written before it read NULL there (the
/// expected state says so), rows written after it keep their value; the statements around it
/// create the table without it, add it last and read it as NULL before it is there.
#[test]
fn an_added_column_reads_null_for_rows_written_before_it() {
    let ddl = "CREATE TABLE t (k INT, v INT, note STRING, PRIMARY KEY (k) NOT ENFORCED)";
    let csv = "op,k,v,note\n,1,10,a\n,2,20,b\n,1,11,c\n,3,30,d\n";
    let p = Proof::open(Target::Fluss, ddl, csv.as_bytes()).unwrap();
    let evolved = p.with_added_column(3).unwrap();
    assert_eq!(
        evolved.expected(),
        vec![
            cells(&["1", "11", "c"]),
            cells(&["2", "20", "NULL"]),
            cells(&["3", "30", "d"])
        ]
    );
    // Added before the first write, it changes nothing.
    assert_eq!(p.with_added_column(1).unwrap().expected(), p.expected());

    let added = p.added_column().unwrap();
    assert_eq!(added.name, "note");
    assert_eq!(added.alter, "ALTER TABLE `t` ADD `note` STRING");
    assert_eq!(
        added.select_before,
        "SELECT `k`, `v`, CAST(NULL AS STRING) AS `note` FROM `t`"
    );
    assert!(added.ddl_before.contains("`v` INT") && !added.ddl_before.contains("note"));
    let err = p.with_added_column(5).unwrap_err().to_string();
    assert!(
        err.contains("add-column@5") && err.contains("from 1 to 4"),
        "{err}"
    );
}

/// Fluss adds only a nullable column outside the key and partition columns: any other last
/// column is refused by name, before anything is created.
#[test]
fn a_last_column_fluss_cannot_add_is_refused_by_name() {
    for (ddl, why) in [
        (
            "CREATE TABLE t (v INT, k INT, PRIMARY KEY (k) NOT ENFORCED)",
            "k is part of the primary key",
        ),
        (
            "CREATE TABLE t (k INT, v INT NOT NULL, PRIMARY KEY (k) NOT ENFORCED)",
            "v is NOT NULL",
        ),
        (
            "CREATE TABLE t (k INT, v INT, p STRING, PRIMARY KEY (k, p) NOT ENFORCED) PARTITIONED BY (p)",
            "p is part of the primary key",
        ),
        (
            "CREATE TABLE t (k INT, p STRING) PARTITIONED BY (p)",
            "p partitions the table",
        ),
        (
            "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.key' = 'v')",
            "option bucket.key names v",
        ),
    ] {
        let p = Proof::generate(Target::Fluss, ddl, 4, 2, 1, false).unwrap();
        let err = p.with_added_column(2).unwrap_err().to_string();
        assert!(err.contains(why), "{ddl}: {err}");
    }
}

/// A wide table (10 to 40 value columns) with long texts: about one in four of its unbounded
/// STRING values a kilobyte to a few hundred long, never in a key or partition column; the rest
/// of each operation as generated, and the coverage says so.
#[test]
fn wide_rows_have_many_columns_and_long_texts_outside_the_key() {
    let mut saw_wide = false;
    for seed in 0..8 {
        let spec = crate::model::tables::table_spec::wide_spec(seed);
        let ddl = crate::model::tables::table_spec::TableSpec::parse(&spec)
            .unwrap()
            .ddl("t", Target::Fluss)
            .unwrap();
        let p = Proof::generate(Target::Fluss, &ddl, 60, 10, seed, true).unwrap();
        assert!(p.shape.columns.len() >= 11, "{spec}");
        saw_wide |= p.shape.columns.len() >= 25;
        let long = p.with_long_texts(seed).unwrap();
        assert_eq!(long.ops.len(), p.ops.len());
        let texts: Vec<usize> = (0..p.shape.columns.len())
            .filter(|&c| {
                p.shape.columns[c].1 == DataType::VarChar(crate::model::values::types::MAX_LENGTH)
            })
            .filter(|c| !p.shape.key.contains(c))
            .filter(|&c| !p.table.partition_keys.contains(&p.shape.columns[c].0))
            .collect();
        for (a, b) in p.ops.iter().zip(&long.ops) {
            for c in 0..a.values.len() {
                if texts.contains(&c) {
                    if let (Value::Text(x), Value::Text(y)) = (&a.values[c], &b.values[c]) {
                        assert!(y.starts_with(x.as_str()));
                    }
                } else {
                    assert_eq!(a.values[c], b.values[c], "column {c} of {spec}");
                }
            }
        }
        let lengthened = long
            .ops
            .iter()
            .flat_map(|o| &o.values)
            .filter(|v| matches!(v, Value::Text(t) if t.len() >= 1_000))
            .count();
        if !texts.is_empty() {
            assert!(lengthened > 0, "{spec}");
            assert!(long
                .coverage()
                .contains(&"operations with long texts".to_string()));
        }
    }
    assert!(saw_wide, "some wide table has 25 columns or more");
}
