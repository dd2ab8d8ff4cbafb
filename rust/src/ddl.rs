//! `CREATE TABLE` in Flink SQL for a [`TableSpec`].

use crate::error::Result;
use crate::ident::{quote_ident, quote_literal, validate_fluss_name, TablePath};
use crate::spec::{TableSpec, COLUMNS};

/// The exercise's DDL: the tiered `(id INT, bal INT)` primary-key table.
pub fn tier_table_ddl(table: &str) -> Result<String> {
    table_ddl(&TablePath::parse(table)?, &TableSpec::default())
}

/// The DDL of any spec; names and values are quoted, so the output is one statement.
pub fn table_ddl(path: &TablePath, spec: &TableSpec) -> Result<String> {
    let mut lines: Vec<String> = COLUMNS
        .iter()
        .map(|c| format!("  {} INT", quote_ident(c)))
        .collect();
    if spec.primary_key {
        lines.push(format!(
            "  PRIMARY KEY ({}) NOT ENFORCED",
            quote_ident(COLUMNS[0])
        ));
    }
    let mut ddl = format!("CREATE TABLE {} (\n{}\n)", path.quoted(), lines.join(",\n"));
    ddl.push_str(&with_clause(&spec.options));
    Ok(ddl)
}

/// ` WITH (\n  'k' = 'v',\n  …\n)`, keys and values quoted; empty for no options.
pub fn with_clause(options: &[(String, String)]) -> String {
    if options.is_empty() {
        return String::new();
    }
    let rendered: Vec<String> = options
        .iter()
        .map(|(k, v)| format!("  {} = {}", quote_literal(k), quote_literal(v)))
        .collect();
    format!(" WITH (\n{}\n)", rendered.join(",\n"))
}

/// The Fluss primary-key table of the streamhouse proof: one bucket, tiering into the lake. The
/// name must also be one Fluss accepts (checked here, before any cluster starts).
pub fn fluss_tier_table_ddl(table: &str, freshness: &str) -> Result<String> {
    let path = TablePath::parse(table)?;
    for part in path.parts() {
        validate_fluss_name(part)?;
    }
    table_ddl(&path, &TableSpec::fluss_tiered(freshness)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_ddl_is_the_exercise_table() {
        let ddl = tier_table_ddl("t").unwrap();
        assert_eq!(
            ddl,
            "CREATE TABLE `t` (\n  `id` INT,\n  `bal` INT,\n  PRIMARY KEY (`id`) NOT ENFORCED\n) WITH (\n  'bucket' = '1',\n  'merge-engine' = 'deduplicate',\n  'changelog-producer' = 'input'\n)"
        );
    }

    #[test]
    fn fluss_tiered_table() {
        let spec = TableSpec::fluss_tiered("1s").unwrap();
        let ddl = table_ddl(&TablePath::parse("fluss.acct").unwrap(), &spec).unwrap();
        assert!(ddl.starts_with("CREATE TABLE `fluss`.`acct` ("), "{ddl}");
        assert!(ddl.contains("PRIMARY KEY (`id`) NOT ENFORCED"), "{ddl}");
        assert!(ddl.ends_with("'bucket.num' = '1',\n  'table.datalake.enabled' = 'true',\n  'table.datalake.freshness' = '1s'\n)"), "{ddl}");
        assert!(TableSpec::fluss_tiered("1s\n").is_err());
    }

    #[test]
    fn fluss_names_follow_fluss_rules() {
        assert!(fluss_tier_table_ddl("acc-1_x", "1s").is_ok());
        for bad in ["a b", "Ünï", "__internal", "`a.b`"] {
            let e = fluss_tier_table_ddl(bad, "1s").unwrap_err().to_string();
            assert!(e.contains("Fluss"), "{bad}: {e}");
        }
        let long = "x".repeat(201);
        assert!(fluss_tier_table_ddl(&long, "1s")
            .unwrap_err()
            .to_string()
            .contains("at most 200"));
    }

    #[test]
    fn append_only_has_no_key_and_no_options() {
        let ddl = table_ddl(&TablePath::parse("a").unwrap(), &TableSpec::append_only()).unwrap();
        assert!(!ddl.contains("PRIMARY KEY"));
        assert!(!ddl.contains("WITH"));
    }

    #[test]
    fn extra_options_are_quoted_and_duplicates_refused() {
        let spec = TableSpec::default()
            .with_option("scan.mode", "it's")
            .unwrap();
        let ddl = table_ddl(&TablePath::parse("t").unwrap(), &spec).unwrap();
        assert!(ddl.contains("'scan.mode' = 'it''s'"));
        assert!(spec.with_option("bucket", "2").is_err());
    }
}
