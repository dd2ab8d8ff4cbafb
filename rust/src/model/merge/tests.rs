use super::*;
use crate::create_table::parse_create_table;
use crate::model::workloads::workload::parse_workload_csv;

fn setup(ddl: &str, target: Target) -> (Shape, Merge) {
    let t = parse_create_table(ddl).unwrap();
    let shape = Shape::of(&t).unwrap();
    let merge = Merge::of(&t, &shape, target).unwrap();
    (shape, merge)
}

fn state(ddl: &str, target: Target, csv: &str) -> Vec<String> {
    let (shape, merge) = setup(ddl, target);
    let ops = parse_workload_csv(&shape, csv).unwrap();
    merge.check_ops(&shape, &ops).unwrap();
    merge
        .state(&shape, &ops)
        .iter()
        .map(crate::model::rows::canon::show_row)
        .collect()
}

const OPS: &str = "op,k,a,b\n,1,5,x\n,1,,y\n,2,7,\n,1,3,\n";

#[test]
fn each_paimon_engine_merges_as_documented() {
    let t = |opts: &str| {
        format!(
            "CREATE TABLE t (k INT, a INT, b STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ({opts})"
        )
    };
    let p = Target::Paimon;
    assert_eq!(
        state(&t("'bucket' = '1'"), p, OPS),
        ["(1, 3, NULL)", "(2, 7, NULL)"]
    );
    assert_eq!(
        state(&t("'merge-engine' = 'first-row'"), p, OPS),
        ["(1, 5, x)", "(2, 7, NULL)"]
    );
    assert_eq!(
        state(&t("'merge-engine' = 'partial-update'"), p, OPS),
        ["(1, 3, y)", "(2, 7, NULL)"]
    );
    assert_eq!(
        state(
            &t("'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'sum'"),
            p,
            OPS
        ),
        ["(1, 8, y)", "(2, 7, NULL)"]
    );
    assert_eq!(
            state(
                &t("'merge-engine' = 'aggregation', 'fields.default-aggregate-function' = 'first_value'"),
                p,
                OPS
            ),
            ["(1, 5, x)", "(2, 7, NULL)"]
        );
    assert_eq!(
            state(
                &t("'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'max', 'fields.b.aggregate-function' = 'last_value'"),
                p,
                OPS
            ),
            ["(1, 5, NULL)", "(2, 7, NULL)"]
        );
    // The largest sequence value wins, whatever the arrival order; equal ones by arrival.
    assert_eq!(
        state(
            &t("'sequence.field' = 'a'"),
            p,
            "k,a,b\n1,9,x\n1,2,y\n1,9,z\n1,4,w\n"
        ),
        ["(1, 9, z)"]
    );
}

#[test]
fn sums_wrap_like_java_and_decimals_overflow_to_null() {
    let ddl = "CREATE TABLE t (k INT, a INT, d DECIMAL(3, 1), PRIMARY KEY (k) NOT ENFORCED) WITH \
                   ('merge-engine' = 'aggregation', 'fields.default-aggregate-function' = 'sum')";
    assert_eq!(
        state(
            ddl,
            Target::Paimon,
            "k,a,d\n1,2147483647,99.9\n1,1,0.1\n1,,1\n"
        ),
        ["(1, -2147483648, 1.0)"]
    );
}

#[test]
fn deletes_follow_each_engines_rules() {
    let t = |opts: &str| {
        parse_create_table(&format!(
            "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ({opts})"
        ))
        .unwrap()
    };
    let del = "op,k,a\n,1,1\ndelete,1,\n,2,2\n";
    for (opts, ok) in [
        ("'bucket' = '1'", true),
        ("'merge-engine' = 'first-row'", false),
        ("'merge-engine' = 'partial-update'", false),
        (
            "'merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true'",
            true,
        ),
        (
            "'merge-engine' = 'aggregation', 'aggregation.remove-record-on-delete' = 'true'",
            true,
        ),
    ] {
        let table = t(opts);
        let shape = Shape::of(&table).unwrap();
        let merge = Merge::of(&table, &shape, Target::Paimon).unwrap();
        let ops = parse_workload_csv(&shape, del).unwrap();
        assert_eq!(merge.check_ops(&shape, &ops).is_ok(), ok, "{opts}");
        if ok {
            assert_eq!(merge.state(&shape, &ops).len(), 1, "{opts}");
        }
    }
    // ignore-delete: a delete changes nothing.
    let table = t("'merge-engine' = 'first-row', 'ignore-delete' = 'true'");
    let shape = Shape::of(&table).unwrap();
    let merge = Merge::of(&table, &shape, Target::Paimon).unwrap();
    let ops = parse_workload_csv(&shape, del).unwrap();
    merge.check_ops(&shape, &ops).unwrap();
    assert_eq!(merge.state(&shape, &ops).len(), 2);
    // A delete under a sequence field removes the row it found; a later write with a smaller
    // sequence value still sorts before that delete, so the key stays deleted.
    assert_eq!(
            state(
                "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('sequence.field' = 'a')",
                Target::Paimon,
                "op,k,a\n,1,5\ndelete,1,\n,1,3\n,2,1\n"
            ),
            ["(2, 1)"]
        );
}

#[test]
fn fluss_engines_and_their_limits() {
    let t = |opts: &str| {
        format!("CREATE TABLE t (k INT, v BIGINT, s STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ({opts})")
    };
    let f = Target::Fluss;
    // Fluss's SQL DELETE cannot match a DATE key: the SQL producer refuses such deletes,
    // naming why; the Fluss client writes them.
    let (shape, merge) = setup(
        "CREATE TABLE t (d DATE, v INT, PRIMARY KEY (d) NOT ENFORCED)",
        f,
    );
    let delete = parse_workload_csv(&shape, "op,d,v\ndelete,2024-02-29,\n").unwrap();
    assert!(merge.check_ops(&shape, &delete).is_ok());
    let why = merge.sql_deletes_refused.as_deref().unwrap_or_default();
    assert!(why.contains("key column d of type DATE"), "{why}");
    let ops = "k,v,s\n1,5,a\n1,3,b\n1,5,c\n2,1,d\n";
    assert_eq!(
        state(&t("'bucket.num' = '2'"), f, ops),
        ["(1, 5, c)", "(2, 1, d)"]
    );
    assert_eq!(
        state(&t("'table.merge-engine' = 'first_row'"), f, ops),
        ["(1, 5, a)", "(2, 1, d)"]
    );
    let versioned =
        t("'table.merge-engine' = 'versioned', 'table.merge-engine.versioned.ver-column' = 'v'");
    assert_eq!(state(&versioned, f, ops), ["(1, 5, c)", "(2, 1, d)"]);
    let (shape, merge) = setup(&versioned, f);
    let null_ver = parse_workload_csv(&shape, "k,v,s\n1,,a\n").unwrap();
    assert!(merge
        .check_ops(&shape, &null_ver)
        .unwrap_err()
        .to_string()
        .contains("NULL"));
    let delete = parse_workload_csv(&shape, "op,k,v,s\ndelete,1,,\n").unwrap();
    assert!(merge
        .check_ops(&shape, &delete)
        .unwrap_err()
        .to_string()
        .contains("no deletes"));
    let table = parse_create_table(&t("'table.merge-engine' = 'aggregation'")).unwrap();
    let shape = Shape::of(&table).unwrap();
    assert!(Merge::of(&table, &shape, f).is_err());
}

#[test]
fn unmodelled_options_are_refused_by_name() {
    for (opts, word) in [
        (
            "'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'listagg'",
            "listagg",
        ),
        (
            "'merge-engine' = 'partial-update', 'fields.a.sequence-group' = 'k'",
            "sequence-group",
        ),
        ("'merge-engine' = 'nope'", "nope"),
        ("'sequence.field' = 'zz'", "zz"),
    ] {
        let table = parse_create_table(&format!(
            "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ({opts})"
        ))
        .unwrap();
        let shape = Shape::of(&table).unwrap();
        let e = Merge::of(&table, &shape, Target::Paimon)
            .unwrap_err()
            .to_string();
        assert!(e.contains(word), "{e}");
    }
}

#[test]
fn replays_are_judged_only_where_paimon_promises_merged_changes() {
    let (_, m) = setup(
            "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('merge-engine' = 'partial-update', 'changelog-producer' = 'input')",
            Target::Paimon,
        );
    assert!(m.replay_not_promised.is_some());
    let (_, m) = setup(
            "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('merge-engine' = 'partial-update', 'changelog-producer' = 'lookup')",
            Target::Paimon,
        );
    assert!(m.replay_not_promised.is_none());
}
