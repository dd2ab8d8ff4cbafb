//! A compact spec for generated tables, written once and rendered as both the Paimon and the
//! Fluss DDL of that table:
//!
//! ```text
//! region: STRING, id: BIGINT, amount: DECIMAL(12, 2), day: DATE; key = region, id;
//! partition = region; buckets = 4; engine = first-row
//! ```
//!
//! The first part lists the columns (`name: TYPE`, `NOT NULL` allowed); the others are optional:
//! `key`, `partition`, `buckets` (default 1) and `engine` (`deduplicate`, `first-row`,
//! `partial-update` and `aggregation` for Paimon; `deduplicate`, `first-row` and
//! `versioned(column)` for Fluss). Every name and type is checked as a DDL's would be.

use crate::create_table::{parse_create_table, CreateTable};
use crate::error::{Result, TierproofError};
use crate::ident::{quote_ident, quote_literal, validate_fluss_name, validate_name, TablePath};
use crate::model::merge::names::{ChangelogProducer, PaimonEngine};
use crate::model::merge::Target;
use crate::model::values::types::DataType;

fn bad(reason: String) -> TierproofError {
    TierproofError::InvalidInput(format!("table spec: {reason}"))
}

/// Splits at `sep` outside parentheses.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0i32, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A generated table's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    /// Name, type, NOT NULL.
    pub columns: Vec<(String, DataType, bool)>,
    pub key: Vec<String>,
    pub partition: Vec<String>,
    pub buckets: u32,
    pub engine: String,
    /// Table options given as dotted keys (`paimon.deletion-vectors.enabled = true`), in order.
    pub options: Vec<(String, String)>,
}

fn names(value: &str) -> Result<Vec<String>> {
    value
        .split(',')
        .map(|n| {
            let n = n.trim();
            validate_name(n)?;
            Ok(n.to_string())
        })
        .collect()
}

impl TableSpec {
    pub fn parse(text: &str) -> Result<TableSpec> {
        let parts = split_top(text, ';');
        let mut spec = TableSpec {
            columns: Vec::new(),
            key: Vec::new(),
            partition: Vec::new(),
            buckets: 1,
            engine: "deduplicate".into(),
            options: Vec::new(),
        };
        for column in split_top(parts[0], ',') {
            let (name, ty) = column
                .split_once(':')
                .ok_or_else(|| bad(format!("column {:?} is not `name: TYPE`", column.trim())))?;
            let name = name.trim();
            validate_name(name)?;
            let ty = ty.trim();
            let (ty, not_null) = match ty.to_ascii_uppercase().strip_suffix("NOT NULL") {
                Some(t) => (ty[..t.len()].trim().to_string(), true),
                None => (ty.to_string(), false),
            };
            if spec.columns.iter().any(|(n, _, _)| n == name) {
                return Err(bad(format!("column {name} is named twice")));
            }
            spec.columns
                .push((name.to_string(), DataType::parse(&ty)?, not_null));
        }
        for part in &parts[1..] {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("{:?} is not `name = value`", part.trim())))?;
            let v = v.trim();
            match k.trim() {
                "key" => spec.key = names(v)?,
                "partition" => spec.partition = names(v)?,
                "buckets" => {
                    spec.buckets = v
                        .parse()
                        .ok()
                        .filter(|b| (1..=1024).contains(b))
                        .ok_or_else(|| bad(format!("buckets {v:?} is not 1 to 1024")))?
                }
                "engine" => spec.engine = v.to_string(),
                // A dotted key is a table option, passed through as written.
                option if option.contains('.') && !v.is_empty() => {
                    spec.options.push((option.to_string(), v.to_string()))
                }
                other => {
                    return Err(bad(format!(
                        "{other:?} is not key, partition, buckets, engine or a table option with a value \
                         (a dotted key, e.g. paimon.deletion-vectors.enabled = true)"
                    )))
                }
            }
        }
        for c in spec.key.iter().chain(&spec.partition) {
            if !spec.columns.iter().any(|(n, _, _)| n == c) {
                return Err(bad(format!("{c} is not a column")));
            }
        }
        Ok(spec)
    }

    /// The exercise's `(id INT, bal INT)` Paimon table keyed by `id`: `bucket`, `merge-engine`
    /// and `changelog-producer` as given.
    pub fn keyed(bucket: u32, engine: PaimonEngine, producer: ChangelogProducer) -> TableSpec {
        TableSpec {
            options: vec![("changelog-producer".into(), producer.name().into())],
            buckets: bucket,
            engine: engine.name().into(),
            ..TableSpec::id_bal(true)
        }
    }

    /// The exercise's `(id INT, bal INT)` columns with no key: a table that keeps every version.
    pub fn append_only() -> TableSpec {
        TableSpec::id_bal(false)
    }

    /// The exercise's `(id INT, bal INT)` table as a Fluss primary-key table in one bucket that
    /// tiers into the lake within `freshness` (a Fluss duration such as `1s`).
    pub fn fluss_tiered(freshness: &str) -> Result<TableSpec> {
        TableSpec::id_bal(true).with_option("table.datalake.freshness", freshness)
    }

    fn id_bal(keyed: bool) -> TableSpec {
        let int = || DataType::parse("INT").expect("INT is a type");
        TableSpec {
            columns: COLUMNS
                .iter()
                .map(|c| (c.to_string(), int(), false))
                .collect(),
            key: if keyed {
                vec![COLUMNS[0].to_string()]
            } else {
                Vec::new()
            },
            partition: Vec::new(),
            buckets: 1,
            engine: PaimonEngine::Deduplicate.name().into(),
            options: Vec::new(),
        }
    }

    /// Adds a table option after the others; a key already set, or one the spec sets itself
    /// (buckets, engine, the datalake), is refused, as is a value with a control character.
    pub fn with_option(mut self, key: &str, value: &str) -> Result<TableSpec> {
        let refuse = |reason: &str| TierproofError::InvalidOption {
            key: key.to_string(),
            reason: reason.to_string(),
        };
        validate_name(key).map_err(|e| refuse(&e.to_string()))?;
        if SET_BY_THE_SPEC.contains(&key) || self.options.iter().any(|(k, _)| k == key) {
            return Err(refuse("it is already set"));
        }
        if value.chars().any(char::is_control) {
            return Err(refuse("the value holds a control character"));
        }
        self.options.push((key.to_string(), value.to_string()));
        Ok(self)
    }

    /// The `CREATE TABLE` of this spec named `table`, for `target`, checked and rendered as a
    /// user's DDL would be.
    pub fn ddl(&self, table: &str, target: Target) -> Result<String> {
        let path = self.path_for(table, target)?;
        let mut sql = format!(
            "CREATE TABLE {} (\n{}\n)",
            path.quoted(),
            self.column_lines().join(",\n")
        );
        if !self.partition.is_empty() {
            let p: Vec<String> = self.partition.iter().map(|c| quote_ident(c)).collect();
            sql.push_str(&format!(" PARTITIONED BY ({})", p.join(", ")));
        }
        let options = self.options_for(target, false)?;
        if !options.is_empty() {
            let o: Vec<String> = options
                .iter()
                .map(|(k, v)| format!("{} = {}", quote_literal(k), quote_literal(v)))
                .collect();
            sql.push_str(&format!(" WITH ({})", o.join(", ")));
        }
        let checked: CreateTable = parse_create_table(&sql)?;
        checked.check_safe()?;
        checked.canonical_sql()
    }

    /// `table` as a path, checked against Fluss's naming rules too when `target` is Fluss.
    pub fn path_for(&self, table: &str, target: Target) -> Result<TablePath> {
        let path = TablePath::parse(table)?;
        if target == Target::Fluss {
            for part in path.parts() {
                validate_fluss_name(part)?;
            }
        }
        Ok(path)
    }

    /// The column and key lines of the DDL, two spaces in: `` `id` INT``, …, the primary key.
    pub fn column_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .columns
            .iter()
            .map(|(n, t, nn)| {
                format!(
                    "  {} {t}{}",
                    quote_ident(n),
                    if *nn { " NOT NULL" } else { "" }
                )
            })
            .collect();
        if !self.key.is_empty() {
            let k: Vec<String> = self.key.iter().map(|c| quote_ident(c)).collect();
            lines.push(format!("  PRIMARY KEY ({}) NOT ENFORCED", k.join(", ")));
        }
        lines
    }

    /// The `WITH` options for `target`, in order: the buckets and the engine as that engine's
    /// options (Paimon's default engine named only when `name_default_engine` and the table has a
    /// key), the datalake for Fluss, then the spec's own options.
    pub fn options_for(
        &self,
        target: Target,
        name_default_engine: bool,
    ) -> Result<Vec<(String, String)>> {
        let mut options: Vec<(String, String)> = Vec::new();
        let engine = self.engine.as_str();
        match target {
            Target::Paimon => {
                if !self.key.is_empty() {
                    // an append table with a fixed bucket needs a bucket key
                    options.push(("bucket".into(), self.buckets.to_string()));
                }
                match PaimonEngine::named(engine) {
                    // the exercise's keyed table names its default engine; an append table none
                    Some(PaimonEngine::Deduplicate)
                        if !name_default_engine || self.key.is_empty() => {}
                    Some(e) => options.push(("merge-engine".into(), e.name().into())),
                    None => {
                        return Err(bad(format!(
                            "engine {engine:?} is not a Paimon merge engine ({})",
                            PaimonEngine::names()
                        )))
                    }
                }
            }
            Target::Fluss => {
                options.push(("bucket.num".into(), self.buckets.to_string()));
                match engine {
                    "deduplicate" => {}
                    "first-row" => options.push(("table.merge-engine".into(), "first_row".into())),
                    v if v.starts_with("versioned(") && v.ends_with(')') => {
                        let column = v["versioned(".len()..v.len() - 1].trim();
                        options.push(("table.merge-engine".into(), "versioned".into()));
                        options.push(("table.merge-engine.versioned.ver-column".into(), column.into()));
                    }
                    other => return Err(bad(format!("engine {other:?} is not one tierproof models for Fluss (deduplicate, first-row, versioned(column))"))),
                }
                options.push(("table.datalake.enabled".into(), "true".into()));
            }
        }
        for (key, value) in &self.options {
            if options.iter().any(|(k, _)| k == key) {
                return Err(bad(format!(
                    "option {key} is set by the spec itself (buckets, engine or the datalake); leave it out"
                )));
            }
            options.push((key.clone(), value.clone()));
        }
        Ok(options)
    }
}

impl Default for TableSpec {
    /// The exercise's tiered table: `bucket=1`, `merge-engine=deduplicate`,
    /// `changelog-producer=input`.
    fn default() -> Self {
        TableSpec::keyed(1, PaimonEngine::Deduplicate, ChangelogProducer::Input)
    }
}

/// The two columns of the exercise's table, in order.
pub const COLUMNS: [&str; 2] = ["id", "bal"];

/// Options a spec sets from its own fields, never given as options.
const SET_BY_THE_SPEC: [&str; 5] = [
    "bucket",
    "merge-engine",
    "bucket.num",
    "table.merge-engine",
    "table.datalake.enabled",
];

/// A seeded table spec for the counterexample search: a key of one or two columns (INT, BIGINT,
/// STRING or DATE), sometimes a partition column (STRING, INT, BIGINT or DATE) in the key, one to
/// four buckets, and one to three value columns of assorted types; deduplicate, as the tiered
/// table — or, one time in four, the same columns with no key (a log or append table). The same
/// seed gives the same spec on every platform.
pub fn random_spec(seed: u64) -> String {
    spec_of(seed, |draw| 1 + (draw % 3) as usize)
}

/// As [`random_spec`], a wide table: 10 to 40 value columns (as users' event and ledger tables
/// have them), its text columns unbounded `STRING`s a workload may fill with long values.
pub fn wide_spec(seed: u64) -> String {
    spec_of(seed, |draw| 10 + (draw % 31) as usize)
}

/// A seeded spec whose value columns number `count(a draw)`.
fn spec_of(seed: u64, count: impl Fn(u64) -> usize) -> String {
    let mut rng = crate::model::search::generate::SplitMix64(seed);
    let mut pick =
        |options: &[&'static str]| options[(rng.next_u64() % options.len() as u64) as usize];
    let mut columns = vec![format!("k: {}", pick(&["INT", "BIGINT", "STRING", "DATE"]))];
    let mut key = vec!["k"];
    if pick(&["one", "two"]) == "two" {
        columns.push(format!("k2: {}", pick(&["INT", "STRING"])));
        key.push("k2");
    }
    let partitioned = pick(&["no", "yes"]) == "yes";
    if partitioned {
        columns.push(format!("p: {}", pick(&["STRING", "INT", "BIGINT", "DATE"])));
        key.push("p");
    }
    let values = [
        "INT",
        "BIGINT",
        "DECIMAL(10, 2)",
        "STRING",
        "DOUBLE",
        "BOOLEAN",
        "TIMESTAMP(3)",
        "DATE",
    ];
    let count = count(rng.next_u64());
    for i in 0..count {
        let ty = values[(rng.next_u64() % values.len() as u64) as usize];
        columns.push(format!("v{i}: {ty}"));
    }
    let buckets = 1 + rng.next_u64() % 4;
    // One table in four has no key: a log table, tiered into an append table, judged as a multiset.
    let keyed = !rng.next_u64().is_multiple_of(4);
    let mut spec = columns.join(", ");
    if keyed {
        spec.push_str(&format!("; key = {}", key.join(", ")));
    }
    spec.push_str(&format!("; buckets = {buckets}"));
    if partitioned {
        spec.push_str("; partition = p");
    }
    spec
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_specs_vary_and_render_as_both_ddls() {
        let specs: Vec<String> = (0..40).map(random_spec).collect();
        assert_eq!(specs[7], random_spec(7), "seeded");
        assert!(specs.iter().any(|s| s.contains("partition = p")));
        assert!(specs.iter().any(|s| !s.contains("partition")));
        assert!(specs.iter().any(|s| s.contains("k2:")));
        assert!(specs.iter().any(|s| s.contains("buckets = 4")));
        assert!(specs.iter().any(|s| !s.contains("key =")));
        assert!(specs
            .iter()
            .any(|s| !s.contains("key =") && s.contains("partition = p")));
        for s in &specs {
            let spec = TableSpec::parse(s).unwrap();
            for target in [Target::Paimon, Target::Fluss] {
                let ddl = spec.ddl("t", target).unwrap();
                crate::model::proof::Proof::generate(target, &ddl, 20, 5, 1, true)
                    .unwrap_or_else(|e| panic!("{s}: {e}"));
            }
        }
    }

    const LEDGER: &str = "region: STRING, id: BIGINT NOT NULL, amount: DECIMAL(12, 2), day: DATE; \
                          key = region, id; partition = region; buckets = 4";

    #[test]
    fn one_spec_two_ddls() {
        let spec = TableSpec::parse(LEDGER).unwrap();
        assert_eq!(spec.columns[2].1, DataType::Decimal(12, 2));
        assert!(spec.columns[1].2);
        let paimon = spec.ddl("ledger", Target::Paimon).unwrap();
        assert!(paimon.contains("`amount` DECIMAL(12, 2)"), "{paimon}");
        assert!(paimon.contains("PRIMARY KEY (`region`, `id`) NOT ENFORCED"));
        assert!(paimon.contains("PARTITIONED BY (`region`)"));
        assert!(paimon.contains("'bucket' = '4'"));
        let fluss = spec.ddl("ledger", Target::Fluss).unwrap();
        assert!(
            fluss.contains("'bucket.num' = '4'")
                && fluss.contains("'table.datalake.enabled' = 'true'")
        );
        // What the proofs read back: the same shape.
        let back = parse_create_table(&fluss).unwrap();
        assert_eq!(back.primary_key, ["region", "id"]);
        let versioned = TableSpec::parse(&format!("{LEDGER}; engine = versioned(id)")).unwrap();
        assert!(versioned
            .ddl("l", Target::Fluss)
            .unwrap()
            .contains("'table.merge-engine.versioned.ver-column' = 'id'"));
        assert!(versioned.ddl("l", Target::Paimon).is_err());
    }

    #[test]
    fn a_bad_spec_is_refused_by_name() {
        for (spec, word) in [
            ("a: INTEGRAL", "INTEGRAL"),
            ("a INT", "not `name: TYPE`"),
            ("a: INT; key = b", "b is not a column"),
            ("a: INT; buckets = 0", "buckets"),
            ("a: INT; colour = red", "\"colour\""),
            ("a: INT, a: INT", "named twice"),
            ("`a/b`: INT", "a/b"),
        ] {
            let e = TableSpec::parse(spec).unwrap_err().to_string();
            assert!(e.contains(word), "{spec}: {e}");
        }
    }

    /// A dotted key is a table option, passed through to the DDL; one the spec sets itself is
    /// refused, naming it.
    #[test]
    fn dotted_keys_are_table_options() {
        let spec = TableSpec::parse(
            "k: INT, v: STRING; key = k; paimon.deletion-vectors.enabled = true; table.log.ttl = 2d",
        )
        .unwrap();
        let ddl = spec.ddl("t", Target::Fluss).unwrap();
        assert!(
            ddl.contains("'paimon.deletion-vectors.enabled' = 'true'")
                && ddl.contains("'table.log.ttl' = '2d'"),
            "{ddl}"
        );
        let twice = TableSpec::parse("k: INT; key = k; bucket.num = 2").unwrap();
        let e = twice.ddl("t", Target::Fluss).unwrap_err().to_string();
        assert!(
            e.contains("option bucket.num is set by the spec itself"),
            "{e}"
        );
        assert!(TableSpec::parse("k: INT; paimon.x =").is_err());
    }
}
