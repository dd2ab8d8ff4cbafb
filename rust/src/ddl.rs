//! `CREATE TABLE` in Flink SQL for the exercise's `(id INT, bal INT)` table, laid out one column
//! and one option a line, from the general [`TableSpec`].

use crate::error::Result;
use crate::ident::quote_literal;
use crate::model::merge::Target;
use crate::model::tables::table_spec::TableSpec;

/// The exercise's DDL: the tiered `(id INT, bal INT)` primary-key table.
pub fn tier_table_ddl(table: &str) -> Result<String> {
    table_ddl(table, &TableSpec::default(), Target::Paimon)
}

/// The DDL of a spec for `target`, one line a column and an option; names and values are quoted,
/// so the output is one statement. Paimon's default merge engine is named, as the exercise does.
pub fn table_ddl(table: &str, spec: &TableSpec, target: Target) -> Result<String> {
    let path = spec.path_for(table, target)?;
    let mut ddl = format!(
        "CREATE TABLE {} (\n{}\n)",
        path.quoted(),
        spec.column_lines().join(",\n")
    );
    ddl.push_str(&with_clause(&spec.options_for(target, true)?));
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
    table_ddl(table, &TableSpec::fluss_tiered(freshness)?, Target::Fluss)
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
        let ddl = table_ddl("fluss.acct", &spec, Target::Fluss).unwrap();
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
        let ddl = table_ddl("a", &TableSpec::append_only(), Target::Paimon).unwrap();
        assert!(!ddl.contains("PRIMARY KEY"));
        assert!(!ddl.contains("WITH"));
    }

    #[test]
    fn extra_options_are_quoted_and_duplicates_refused() {
        let spec = TableSpec::default()
            .with_option("scan.mode", "it's")
            .unwrap();
        let ddl = table_ddl("t", &spec, Target::Paimon).unwrap();
        assert!(ddl.contains("'scan.mode' = 'it''s'"));
        assert!(spec.with_option("bucket", "2").is_err());
    }
}
