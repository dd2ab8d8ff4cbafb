//! Every statement the core generates parses back with sqlparser as exactly one statement whose
//! table name is the one given, whatever that name holds: injection through a name is impossible
//! by construction, and these tests show it.

use sqlparser::ast::{ObjectName, SetExpr, Statement};
use sqlparser::dialect::GenericDialect;
use sqlparser::parser::Parser;
use tierproof::ident::TablePath;
use tierproof::model::merge::Target;
use tierproof::model::proof::Proof;
use tierproof::model::tables::table_spec::TableSpec;
use tierproof::{table_ddl, tier_table_ddl, upsert_inserts, Row};

const HOSTILE_NAMES: &[&str] = &[
    "accounts",
    "t`; DROP TABLE x; --",
    "`a.b`",
    "x' OR '1'='1",
    "Ünïcødé 表",
    "`x``y`",
    "a -- c * b",
    "t); DELETE FROM t; (",
];

fn parse_one(sql: &str) -> Statement {
    let mut statements = Parser::parse_sql(&GenericDialect {}, sql)
        .unwrap_or_else(|e| panic!("does not parse: {sql}\n{e}"));
    assert_eq!(statements.len(), 1, "more than one statement in: {sql}");
    statements.remove(0)
}

fn name_parts(name: &ObjectName) -> Vec<String> {
    name.0
        .iter()
        .map(|p| p.as_ident().expect("a plain identifier").value.clone())
        .collect()
}

/// What the name was given as, part by part, the way the core reads it.
fn expected_parts(table: &str) -> Vec<String> {
    TablePath::parse(table).unwrap().parts().to_vec()
}

/// sqlparser's Generic dialect does not know Flink's `NOT ENFORCED` or the `WITH` option list of
/// Flink DDL, so the DDL's head and column list are checked as a plain CREATE TABLE.
fn ddl_head(ddl: &str) -> String {
    let cut = ddl
        .find("PRIMARY KEY")
        .or_else(|| ddl.find(") WITH"))
        .unwrap_or(ddl.len());
    let head = ddl[..cut].trim_end().trim_end_matches(',');
    format!("{head}\n)")
}

#[test]
fn ddl_names_round_trip() {
    for table in HOSTILE_NAMES {
        let ddl = tier_table_ddl(table).unwrap();
        match parse_one(&ddl_head(&ddl)) {
            Statement::CreateTable(ct) => {
                assert_eq!(name_parts(&ct.name), expected_parts(table), "{ddl}");
                let cols: Vec<_> = ct.columns.iter().map(|c| c.name.value.clone()).collect();
                assert_eq!(cols, ["id", "bal"]);
            }
            other => panic!("not a CREATE TABLE: {other}"),
        }
        // The options stay inside their quotes too.
        assert!(ddl.ends_with(
            "'bucket' = '1',\n  'merge-engine' = 'deduplicate',\n  'changelog-producer' = 'input'\n)"
        ));
    }
}

#[test]
fn option_values_cannot_escape_their_quotes() {
    let spec = TableSpec::append_only()
        .with_option("comment", "x'); DROP TABLE y; --")
        .unwrap();
    let ddl = table_ddl("t", &spec, Target::Paimon).unwrap();
    assert!(
        ddl.contains("'comment' = 'x''); DROP TABLE y; --'"),
        "{ddl}"
    );
    let options = &ddl[ddl.find("WITH (").unwrap() + 6..ddl.rfind(')').unwrap()];
    // Parsed as a list of string literals: exactly two, the key and the whole value.
    let literals = Parser::new(&GenericDialect {})
        .try_with_sql(&format!("SELECT {}", options.replace(" = ", ", ")))
        .unwrap()
        .parse_statement()
        .unwrap();
    assert_eq!(literals.to_string().matches('\'').count() % 2, 0);
    assert!(literals.to_string().contains("'x''); DROP TABLE y; --'"));
}

/// The tiered table of `table` with a workload: repeated ids, NULL, INT's extremes.
fn proof_of(table: &str) -> Proof {
    let csv = "id,bal\n1,10\n1,\n-2147483648,2147483647\n-7,-2147483648\n";
    Proof::open(
        Target::Paimon,
        &tier_table_ddl(table).unwrap(),
        csv.as_bytes(),
    )
    .unwrap()
}

#[test]
fn inserts_round_trip_with_values_in_order() {
    let ups = [
        Row::new(1, Some(10)),
        Row::new(1, None),
        Row::new(i32::MIN, Some(i32::MAX)),
        Row::new(-7, Some(i32::MIN)),
    ];
    for table in HOSTILE_NAMES {
        let one_each = upsert_inserts(table, &ups).unwrap();
        assert_eq!(one_each.len(), ups.len());
        let proof = proof_of(table);
        let batched: Vec<String> = proof
            .statements(3)
            .unwrap()
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(batched.len(), 2);
        for sql in one_each.iter().chain(&batched) {
            match parse_one(sql) {
                Statement::Insert(ins) => {
                    assert_eq!(
                        ins.table.to_string(),
                        TablePath::parse(table).unwrap().quoted()
                    );
                    // One row's VALUES, or the batched projection over a VALUES: two columns.
                    let width = match *ins.source.unwrap().body {
                        SetExpr::Values(v) => v.rows.iter().map(Vec::len).max(),
                        SetExpr::Select(s) => Some(s.projection.len()),
                        other => panic!("not VALUES or SELECT: {other}"),
                    };
                    assert_eq!(width, Some(2), "{sql}");
                }
                other => panic!("not an INSERT: {other}"),
            }
        }
    }
    let batched = proof_of("t").statements(10).unwrap();
    assert_eq!(
        batched[0].1,
        "INSERT INTO `t` SELECT `c0`, IF(`n1`, CAST(NULL AS INT), `c1`) FROM (VALUES (1, 10, FALSE), (1, 0, TRUE), (-2147483648, 2147483647, FALSE), (-7, -2147483648, FALSE)) AS `upserts`(`c0`, `c1`, `n1`)"
    );
}

#[test]
fn reads_and_sentinel_round_trip() {
    for table in HOSTILE_NAMES {
        let proof = proof_of(table);
        let sql = proof.select_all(&[("scan.mode".into(), "it's".into())]);
        // The hint is a comment to sqlparser; the statement is one SELECT.
        assert!(matches!(parse_one(&sql), Statement::Query(_)), "{sql}");
        let sentinel = proof.sentinel_insert(1000).unwrap();
        assert!(
            matches!(parse_one(&sentinel), Statement::Insert(_)),
            "{sentinel}"
        );
    }
}

#[test]
fn bad_names_are_refused_with_the_name() {
    for bad in ["", "a\u{0}b", "x\ty", "a.b.c.d", "a..b"] {
        let err = tier_table_ddl(bad).unwrap_err();
        assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        assert!(err.is_bad_input());
        assert!(upsert_inserts(bad, &[Row::new(1, Some(1))]).is_err());
    }
}
