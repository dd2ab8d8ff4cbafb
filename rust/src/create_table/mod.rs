//! A user's `CREATE TABLE` (`--ddl-file`), checked before anything runs. The text is lexed by
//! sqlparser's tokenizer with Flink's lexical rules (backtick identifiers, `''` in strings, `--`
//! and `/* */` comments) and parsed here into the parts tierproof relies on. Anything but exactly
//! one `CREATE TABLE` is refused with the statement's kind named. The statement that then runs is
//! rendered back from what was checked ([`CreateTable::canonical_sql`]), never the raw text, so
//! nothing the check did not see can reach Flink.

use crate::ddl::with_clause;
use crate::error::{Result, TierproofError};
use crate::ident::{quote_ident, quote_literal, validate_database_name, validate_name, TablePath};
use sqlparser::dialect::Dialect;
use sqlparser::tokenizer::{Token, Tokenizer, Word};

mod parser;
#[cfg(test)]
mod tests;

use parser::Parser;

/// Flink SQL's lexical rules: identifiers quoted with backticks only, no backslash escapes.
#[derive(Debug)]
struct FlinkLexicon;

impl Dialect for FlinkLexicon {
    fn is_identifier_start(&self, ch: char) -> bool {
        ch.is_alphabetic() || ch == '_'
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        ch.is_alphanumeric() || ch == '_' || ch == '$'
    }

    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        ch == '`'
    }
}

/// One column as declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnDef {
    pub name: String,
    /// The type as written, normalized (`INT`, `DECIMAL(10, 2)`); empty for a computed column.
    pub data_type: String,
    pub not_null: bool,
    pub comment: Option<String>,
    /// `None` for a physical column; otherwise why it is not one (`computed`, `metadata`).
    pub non_physical: Option<&'static str>,
}

impl ColumnDef {
    fn describe(&self) -> String {
        match self.non_physical {
            Some(kind) => format!("{} ({kind})", self.name),
            None if self.not_null => format!("{} {} NOT NULL", self.name, self.data_type),
            None => format!("{} {}", self.name, self.data_type),
        }
    }
}

/// The parts of a `CREATE TABLE` tierproof checks and renders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateTable {
    /// `table` or `db.table`: the catalog is always tierproof's own.
    pub path: TablePath,
    pub if_not_exists: bool,
    pub columns: Vec<ColumnDef>,
    pub primary_key: Vec<String>,
    pub partition_keys: Vec<String>,
    pub comment: Option<String>,
    pub options: Vec<(String, String)>,
    /// A `WATERMARK FOR …` clause was present (refused by the shape check).
    pub watermark: bool,
}

/// Words in an option key that name a place to write (`path`, `data-file.path-directory`,
/// `data-file.external-paths`, ...): a table's files must stay inside its directory.
const LOCATION_WORDS: &[&str] = &["path", "dir", "warehouse", "external", "location", "uri"];

/// Refuses an option that could place files outside the table's directory: a key naming a
/// location, or a file-name prefix (`data-file.prefix`) that is not a plain name fragment (Paimon
/// joins it to the bucket's directory, so `../` in it would climb out).
fn check_option_stays_inside(key: &str, value: &str) -> Result<()> {
    let lower = key.to_ascii_lowercase();
    if let Some(word) = LOCATION_WORDS.iter().find(|w| lower.contains(*w)) {
        return Err(refused(format!(
            "option {key:?} names a location ({word:?}); tierproof keeps every file of the table inside the warehouse"
        )));
    }
    if lower.ends_with("prefix")
        && (value.contains("..") || value.chars().any(|c| "/\\:%?#".contains(c)))
    {
        return Err(refused(format!(
            "option {key:?} = {value:?} would put files in another directory; a prefix must be a plain name"
        )));
    }
    Ok(())
}

fn refused(reason: impl Into<String>) -> TierproofError {
    TierproofError::RefusedDdl(reason.into())
}

/// Parses `sql`, which must be exactly one `CREATE TABLE`.
pub fn parse_create_table(sql: &str) -> Result<CreateTable> {
    let tokens = Tokenizer::new(&FlinkLexicon, sql)
        .tokenize()
        .map_err(|e| refused(format!("it does not lex as SQL: {e}")))?;
    let statements = split_statements(tokens);
    match statements.len() {
        0 => {
            return Err(refused(
                "it holds no statement; it must hold one CREATE TABLE",
            ))
        }
        1 => {}
        n => {
            let kinds: Vec<String> = statements.iter().map(|s| statement_kind(s)).collect();
            return Err(refused(format!(
                "it holds {n} statements ({}); it must hold exactly one CREATE TABLE",
                kinds.join(", ")
            )));
        }
    }
    Parser::new(&statements[0]).create_table()
}

/// Splits at top-level `;`, dropping whitespace and comments; empty statements vanish.
fn split_statements(tokens: Vec<Token>) -> Vec<Vec<Token>> {
    let mut out = vec![Vec::new()];
    for t in tokens {
        match t {
            Token::Whitespace(_) | Token::EOF => {}
            Token::SemiColon => out.push(Vec::new()),
            other => out.last_mut().expect("never empty").push(other),
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// A statement's kind for messages: `DROP TABLE`, `INSERT`, `CREATE CATALOG`, ...
fn statement_kind(tokens: &[Token]) -> String {
    let words: Vec<String> = tokens
        .iter()
        .take_while(|t| matches!(t, Token::Word(w) if w.quote_style.is_none()))
        .map(|t| t.to_string().to_ascii_uppercase())
        .collect();
    let Some(first) = words.first() else {
        return format!("a statement starting with {:?}", tokens[0].to_string());
    };
    if ["CREATE", "DROP", "ALTER", "SHOW", "DESCRIBE", "REPLACE"].contains(&first.as_str()) {
        let skip = ["TEMPORARY", "SYSTEM", "OR", "REPLACE"];
        if let Some(object) = words[1..].iter().find(|w| !skip.contains(&w.as_str())) {
            return format!("{first} {object}");
        }
    }
    first.clone()
}

fn is_keyword(w: &Word, kw: &str) -> bool {
    w.quote_style.is_none() && w.value.eq_ignore_ascii_case(kw)
}

impl CreateTable {
    /// The table name part.
    pub fn table(&self) -> &str {
        self.path.table()
    }

    /// The database part, when the DDL names one.
    pub fn database(&self) -> Option<&str> {
        let parts = self.path.parts();
        (parts.len() == 2).then(|| parts[0].as_str())
    }

    pub fn keyed(&self) -> bool {
        !self.primary_key.is_empty()
    }

    /// Checks the table can hold a proof's `(id INT, bal INT)` upserts, before it is created:
    /// exactly the physical columns `id INT, bal INT` in that order (INSERTs are positional), a
    /// key of `id` or none, no watermark, and no option that places files outside the warehouse.
    /// `writes_null_bal` refuses `bal … NOT NULL` for a workload that writes a NULL.
    pub fn check_proof_shape(&self, writes_null_bal: bool) -> Result<()> {
        let declared: Vec<String> = self.columns.iter().map(ColumnDef::describe).collect();
        let physical_int = |c: &ColumnDef, name: &str| {
            c.name == name
                && c.non_physical.is_none()
                && matches!(c.data_type.as_str(), "INT" | "INTEGER")
        };
        if self.columns.len() != 2
            || !physical_int(&self.columns[0], "id")
            || !physical_int(&self.columns[1], "bal")
        {
            return Err(refused(format!(
                "the table must have exactly the columns id INT, bal INT, in that order (the upserts are written positionally); it declares {}",
                declared.join(", ")
            )));
        }
        if !self.primary_key.is_empty() && self.primary_key != ["id"] {
            return Err(refused(format!(
                "the primary key must be (id) or absent, not ({}): the promise is the last value per id",
                self.primary_key.join(", ")
            )));
        }
        if writes_null_bal && self.columns[1].not_null {
            return Err(refused(
                "column bal is NOT NULL but the workload writes a NULL bal",
            ));
        }
        self.check_safe()
    }

    /// What every table tierproof creates must satisfy: no watermark (the proof bounds its
    /// streaming read by its own commit watermarks), partition keys that are columns, and no
    /// option that places files outside the warehouse.
    pub fn check_safe(&self) -> Result<()> {
        if self.watermark {
            return Err(refused(
                "a WATERMARK clause is not supported: the proof bounds its streaming read by its own commit watermarks",
            ));
        }
        for key in &self.partition_keys {
            if !self.columns.iter().any(|c| c.name == *key) {
                return Err(refused(format!(
                    "PARTITIONED BY names {key:?}, which is not a column"
                )));
            }
        }
        for (key, value) in &self.options {
            check_option_stays_inside(key, value)?;
        }
        Ok(())
    }

    /// Whether this is the exercise's `(id INT, bal INT)` table (keyed on id or not).
    pub fn is_id_bal(&self) -> bool {
        self.check_proof_shape(false).is_ok()
    }

    /// The value of a `WITH` option.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The statement that runs: what was checked, quoted, without `IF NOT EXISTS` (a table that
    /// exists is refused before this runs, so the statement must create one).
    pub fn canonical_sql(&self) -> Result<String> {
        let mut lines = Vec::new();
        for c in &self.columns {
            validate_name(&c.name)?;
            let mut line = format!("  {} {}", quote_ident(&c.name), c.data_type);
            if c.not_null {
                line.push_str(" NOT NULL");
            }
            if let Some(comment) = &c.comment {
                line.push_str(&format!(" COMMENT {}", quote_literal(comment)));
            }
            lines.push(line);
        }
        if self.keyed() {
            let key: Vec<String> = self.primary_key.iter().map(|k| quote_ident(k)).collect();
            lines.push(format!("  PRIMARY KEY ({}) NOT ENFORCED", key.join(", ")));
        }
        let mut sql = format!(
            "CREATE TABLE {} (\n{}\n)",
            self.path.quoted(),
            lines.join(",\n")
        );
        if let Some(comment) = &self.comment {
            sql.push_str(&format!(" COMMENT {}", quote_literal(comment)));
        }
        if !self.partition_keys.is_empty() {
            let keys: Vec<String> = self.partition_keys.iter().map(|k| quote_ident(k)).collect();
            sql.push_str(&format!(" PARTITIONED BY ({})", keys.join(", ")));
        }
        sql.push_str(&with_clause(&self.options));
        Ok(sql)
    }
}
