use super::*;
use crate::ddl::tier_table_ddl;

fn refusal(sql: &str) -> String {
    let e = parse_create_table(sql).and_then(|t| t.check_proof_shape(true).map(|_| t));
    e.unwrap_err().to_string()
}

#[test]
fn the_generated_ddl_parses_and_renders_back_unchanged() {
    let ddl = tier_table_ddl("accounts").unwrap();
    let t = parse_create_table(&ddl).unwrap();
    t.check_proof_shape(true).unwrap();
    assert_eq!(t.canonical_sql().unwrap(), ddl);
    assert!(t.keyed());
    assert_eq!(t.table(), "accounts");
    assert_eq!(t.database(), None);
}

#[test]
fn only_one_create_table_runs() {
    for (sql, kind) in [
        ("DROP TABLE keep", "DROP TABLE"),
        ("drop table if exists keep;", "DROP TABLE"),
        ("ALTER TABLE keep RENAME TO gone", "ALTER TABLE"),
        ("INSERT INTO keep VALUES (1, 2)", "INSERT"),
        (
            "CREATE CATALOG c WITH ('type' = 'paimon')",
            "CREATE CATALOG",
        ),
        ("CREATE DATABASE d", "CREATE DATABASE"),
        ("CREATE OR REPLACE VIEW v AS SELECT 1", "CREATE VIEW"),
        ("USE d", "USE"),
        ("SET 'table.dml-sync' = 'true'", "SET"),
        ("DELETE FROM keep", "DELETE"),
        ("TRUNCATE TABLE keep", "TRUNCATE"),
    ] {
        let e = refusal(sql);
        assert!(
            e.contains(&format!("it is a {kind} statement")),
            "{sql}: {e}"
        );
        assert!(e.starts_with("the DDL is refused: "), "{e}");
    }
    let e = refusal("CREATE TABLE t (id INT, bal INT); DROP TABLE keep");
    assert!(e.contains("2 statements (CREATE TABLE, DROP TABLE)"), "{e}");
    assert!(refusal("  -- only a comment\n ; ").contains("no statement"));
    assert!(refusal("CREATE TABLE t AS SELECT * FROM keep").contains("AS / LIKE"));
    assert!(refusal("CREATE TABLE t WITH ('a' = 'b') AS SELECT 1").contains("expected ("));
    assert!(refusal("CREATE TABLE t (id INT, bal INT) AS SELECT 1").contains("AS / LIKE"));
    assert!(refusal("CREATE TABLE t (id INT, bal INT) LIKE keep").contains("AS / LIKE"));
    assert!(refusal("CREATE TEMPORARY TABLE t (id INT, bal INT)").contains("TEMPORARY"));
    // A trailing semicolon and comments are fine.
    let t = parse_create_table("/* mine */ CREATE TABLE t (id INT, bal INT); -- done\n").unwrap();
    assert!(!t.keyed());
}

#[test]
fn the_shape_is_checked_before_anything_is_created() {
    let e = refusal("CREATE TABLE t (id INT, bal INT, note STRING)");
    assert!(
        e.contains("exactly the columns id INT, bal INT, in that order")
            && e.contains("it declares id INT, bal INT, note STRING"),
        "{e}"
    );
    assert!(refusal("CREATE TABLE t (bal INT, id INT)").contains("declares bal INT, id INT"));
    assert!(refusal("CREATE TABLE t (id BIGINT, bal INT)").contains("declares id BIGINT"));
    assert!(refusal("CREATE TABLE t (id INT, bal DECIMAL(10, 2))").contains("bal DECIMAL(10, 2)"));
    assert!(refusal("CREATE TABLE t (id INT, bal AS id + 1)").contains("bal (computed)"));
    assert!(
        refusal("CREATE TABLE t (id INT, bal INT METADATA FROM 'x')").contains("bal (metadata)")
    );
    assert!(
        refusal("CREATE TABLE t (id INT, bal INT, PRIMARY KEY (bal) NOT ENFORCED)")
            .contains("primary key must be (id)")
    );
    assert!(refusal("CREATE TABLE t (id INT, bal INT NOT NULL)").contains("NOT NULL"));
    for option in [
        "'path' = '/tmp/elsewhere'",
        "'data-file.path-directory' = '../../x'",
        "'data-file.external-paths' = 'file:///tmp/x'",
        "'DATA-FILE.EXTERNAL-PATHS.strategy' = 'round-robin'",
        "'data-file.prefix' = '../../x-'",
        "'changelog-file.prefix' = '/tmp/c-'",
    ] {
        let e = refusal(&format!("CREATE TABLE t (id INT, bal INT) WITH ({option})"));
        assert!(
            e.contains("names a location") || e.contains("would put files in another directory"),
            "{option}: {e}"
        );
    }
    // A plain prefix is fine.
    parse_create_table("CREATE TABLE t (id INT, bal INT) WITH ('data-file.prefix' = 'd-')")
        .unwrap()
        .check_proof_shape(false)
        .unwrap();
    assert!(refusal("CREATE TABLE t (id INT, bal INT) PARTITIONED BY (day)").contains("\"day\""));
    assert!(refusal("CREATE TABLE c.d.t (id INT, bal INT)").contains("names a catalog"));
    assert!(refusal("CREATE TABLE `..` (id INT, bal INT)").contains("may not start with '.'"));
    assert!(
        refusal("CREATE TABLE t (id INT, bal INT) WITH ('a' = '1', 'a' = '2')")
            .contains("set twice")
    );
    // bal NOT NULL is fine for a workload without NULLs.
    let t = parse_create_table("CREATE TABLE t (id INT, bal INT NOT NULL)").unwrap();
    t.check_proof_shape(false).unwrap();
}

#[test]
fn flink_syntax_is_understood_and_rendered_quoted() {
    let t = parse_create_table(
            "create table if not exists Ledger.`my table` (\n  id integer not null primary key not enforced comment 'the key',\n  `bal` INT NULL\n) comment 'it''s mine' partitioned by (id) with ('bucket' = '2', 'merge-engine' = 'first-row')",
        )
        .unwrap();
    t.check_proof_shape(true).unwrap();
    assert!(t.if_not_exists);
    assert_eq!(t.database(), Some("Ledger"));
    assert_eq!(t.table(), "my table");
    assert_eq!(t.primary_key, ["id"]);
    assert_eq!(
            t.canonical_sql().unwrap(),
            "CREATE TABLE `Ledger`.`my table` (\n  `id` INTEGER NOT NULL COMMENT 'the key',\n  `bal` INT,\n  PRIMARY KEY (`id`) NOT ENFORCED\n) COMMENT 'it''s mine' PARTITIONED BY (`id`) WITH (\n  'bucket' = '2',\n  'merge-engine' = 'first-row'\n)"
        );
    let t = parse_create_table(
        "CREATE TABLE t (id INT, bal INT, CONSTRAINT pk PRIMARY KEY (id) NOT ENFORCED)",
    )
    .unwrap();
    assert_eq!(t.primary_key, ["id"]);
    assert!(
        parse_create_table("CREATE TABLE t (id INT, bal INT, PRIMARY KEY (id))")
            .unwrap_err()
            .to_string()
            .contains("NOT ENFORCED")
    );
}
