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

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
}

impl<'a> Parser<'a> {
    fn new(tokens: &'a [Token]) -> Self {
        Parser { tokens, at: 0 }
    }

    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.at)
    }

    /// True (and consumed) when the next token is the unquoted keyword `kw`.
    fn eat_keyword(&mut self, kw: &str) -> bool {
        match self.peek() {
            Some(Token::Word(w)) if is_keyword(w, kw) => {
                self.at += 1;
                true
            }
            _ => false,
        }
    }

    fn peek_keyword(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Token::Word(w)) if is_keyword(w, kw))
    }

    fn eat(&mut self, token: &Token) -> bool {
        if self.peek() == Some(token) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: &Token, context: &str) -> Result<()> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("{token} {context}")))
        }
    }

    fn expect_keyword(&mut self, kw: &str, context: &str) -> Result<()> {
        if self.eat_keyword(kw) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("{kw} {context}")))
        }
    }

    fn unexpected(&self, wanted: &str) -> TierproofError {
        match self.peek() {
            Some(t) => refused(format!("expected {wanted}, found {:?}", t.to_string())),
            None => refused(format!("expected {wanted}, but the statement ends")),
        }
    }

    fn create_table(&mut self) -> Result<CreateTable> {
        let kind = statement_kind(self.tokens);
        if !self.eat_keyword("CREATE") {
            return Err(refused(format!(
                "it is a {kind} statement; only CREATE TABLE is allowed (tierproof never drops, alters or writes to a table it did not create)"
            )));
        }
        if self.eat_keyword("TEMPORARY") {
            return Err(refused(
                "CREATE TEMPORARY TABLE makes a table outside the warehouse; write CREATE TABLE",
            ));
        }
        if !self.eat_keyword("TABLE") {
            return Err(refused(format!(
                "it is a {kind} statement; only CREATE TABLE is allowed"
            )));
        }
        let if_not_exists = if self.eat_keyword("IF") {
            self.expect_keyword("NOT", "after IF")?;
            self.expect_keyword("EXISTS", "after IF NOT")?;
            true
        } else {
            false
        };
        let path = self.table_path()?;
        if self.peek_keyword("AS") || self.peek_keyword("LIKE") {
            return Err(refused(
                "CREATE TABLE … AS / LIKE is refused: the table must be declared column by column",
            ));
        }
        self.expect(&Token::LParen, "after the table name")?;
        let mut table = CreateTable {
            path,
            if_not_exists,
            columns: Vec::new(),
            primary_key: Vec::new(),
            partition_keys: Vec::new(),
            comment: None,
            options: Vec::new(),
            watermark: false,
        };
        loop {
            self.element(&mut table)?;
            if self.eat(&Token::Comma) {
                continue;
            }
            self.expect(&Token::RParen, "or `,` after a column")?;
            break;
        }
        if self.eat_keyword("COMMENT") {
            table.comment = Some(self.string("a comment")?);
        }
        if self.eat_keyword("PARTITIONED") {
            self.expect_keyword("BY", "after PARTITIONED")?;
            table.partition_keys = self.ident_list()?;
        }
        if self.eat_keyword("WITH") {
            table.options = self.options()?;
        }
        if self.peek_keyword("AS") || self.peek_keyword("LIKE") {
            return Err(refused(
                "CREATE TABLE … AS / LIKE is refused: the table must be declared column by column",
            ));
        }
        if let Some(t) = self.peek() {
            return Err(refused(format!(
                "unexpected {:?} after the table's options",
                t.to_string()
            )));
        }
        Ok(table)
    }

    fn table_path(&mut self) -> Result<TablePath> {
        let mut parts = vec![self.ident("a table name")?];
        while self.eat(&Token::Period) {
            parts.push(self.ident("a name part after `.`")?);
        }
        let text = parts
            .iter()
            .map(|p| quote_ident(p))
            .collect::<Vec<_>>()
            .join(".");
        if parts.len() > 2 {
            return Err(refused(format!(
                "the table {text} names a catalog; give `table` or `db.table` (tierproof uses its own Paimon catalog)"
            )));
        }
        if parts.len() == 2 {
            validate_database_name(&parts[0])?;
        }
        TablePath::parse(&text)
    }

    fn ident(&mut self, what: &str) -> Result<String> {
        match self.peek() {
            Some(Token::Word(w)) => {
                self.at += 1;
                Ok(w.value.clone())
            }
            _ => Err(self.unexpected(what)),
        }
    }

    fn string(&mut self, what: &str) -> Result<String> {
        match self.peek() {
            Some(Token::SingleQuotedString(s)) => {
                self.at += 1;
                Ok(s.clone())
            }
            _ => Err(self.unexpected(&format!("a quoted string for {what}"))),
        }
    }

    fn ident_list(&mut self) -> Result<Vec<String>> {
        self.expect(&Token::LParen, "before a column list")?;
        let mut names = vec![self.ident("a column name")?];
        while self.eat(&Token::Comma) {
            names.push(self.ident("a column name")?);
        }
        self.expect(&Token::RParen, "after a column list")?;
        Ok(names)
    }

    fn options(&mut self) -> Result<Vec<(String, String)>> {
        self.expect(&Token::LParen, "after WITH")?;
        let mut options: Vec<(String, String)> = Vec::new();
        loop {
            let key = self.string("an option key")?;
            self.expect(&Token::Eq, "after an option key")?;
            let value = self.string(&format!("the value of option {key:?}"))?;
            if options.iter().any(|(k, _)| *k == key) {
                return Err(refused(format!("option {key:?} is set twice")));
            }
            options.push((key, value));
            if !self.eat(&Token::Comma) {
                break;
            }
        }
        self.expect(&Token::RParen, "after the options")?;
        Ok(options)
    }

    /// A column, a table constraint or a watermark.
    fn element(&mut self, table: &mut CreateTable) -> Result<()> {
        if self.eat_keyword("CONSTRAINT") {
            self.ident("a constraint name")?;
            return self.table_primary_key(table);
        }
        if self.peek_keyword("PRIMARY") {
            return self.table_primary_key(table);
        }
        if self.eat_keyword("WATERMARK") {
            table.watermark = true;
            self.skip_expression();
            return Ok(());
        }
        let name = self.ident("a column name")?;
        if self.eat_keyword("AS") {
            self.skip_expression();
            table.columns.push(ColumnDef {
                name,
                data_type: String::new(),
                not_null: false,
                comment: None,
                non_physical: Some("computed"),
            });
            return Ok(());
        }
        let data_type = self.data_type()?;
        let mut column = ColumnDef {
            name,
            data_type,
            not_null: false,
            comment: None,
            non_physical: None,
        };
        loop {
            if self.eat_keyword("NOT") {
                self.expect_keyword("NULL", "after NOT")?;
                column.not_null = true;
            } else if self.eat_keyword("NULL") {
                column.not_null = false;
            } else if self.eat_keyword("COMMENT") {
                column.comment = Some(self.string("a column comment")?);
            } else if self.eat_keyword("CONSTRAINT") {
                self.ident("a constraint name")?;
                self.column_primary_key(table, &column.name)?;
            } else if self.peek_keyword("PRIMARY") {
                self.column_primary_key(table, &column.name)?;
            } else if self.eat_keyword("METADATA") {
                column.non_physical = Some("metadata");
                self.skip_expression();
            } else {
                break;
            }
        }
        table.columns.push(column);
        Ok(())
    }

    fn set_primary_key(table: &mut CreateTable, key: Vec<String>) -> Result<()> {
        if !table.primary_key.is_empty() {
            return Err(refused("the table declares more than one primary key"));
        }
        table.primary_key = key;
        Ok(())
    }

    fn table_primary_key(&mut self, table: &mut CreateTable) -> Result<()> {
        self.expect_keyword("PRIMARY", "in a constraint")?;
        self.expect_keyword("KEY", "after PRIMARY")?;
        let key = self.ident_list()?;
        self.not_enforced()?;
        Self::set_primary_key(table, key)
    }

    fn column_primary_key(&mut self, table: &mut CreateTable, column: &str) -> Result<()> {
        self.expect_keyword("PRIMARY", "in a constraint")?;
        self.expect_keyword("KEY", "after PRIMARY")?;
        self.not_enforced()?;
        Self::set_primary_key(table, vec![column.to_string()])
    }

    fn not_enforced(&mut self) -> Result<()> {
        self.expect_keyword("NOT", "after PRIMARY KEY (Flink needs NOT ENFORCED)")?;
        self.expect_keyword("ENFORCED", "after PRIMARY KEY … NOT")
    }

    /// A type: words and bracketed arguments (`DECIMAL(10, 2)`, `ARRAY<INT NOT NULL>`,
    /// `TIMESTAMP(3) WITH LOCAL TIME ZONE`) up to a column constraint, `,` or `)`.
    fn data_type(&mut self) -> Result<String> {
        let stops = [
            "NOT",
            "NULL",
            "COMMENT",
            "CONSTRAINT",
            "PRIMARY",
            "METADATA",
        ];
        let mut text = String::new();
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            match t {
                Token::LParen | Token::Lt => depth += 1,
                Token::RParen | Token::Gt if depth > 0 => depth -= 1,
                Token::RParen | Token::Comma if depth == 0 => break,
                Token::Word(w) if depth == 0 && stops.iter().any(|s| is_keyword(w, s)) => break,
                _ => {}
            }
            self.at += 1;
            let piece = match t {
                Token::Word(w) if w.quote_style.is_none() => w.value.to_ascii_uppercase(),
                other => other.to_string(),
            };
            let glue = !text.is_empty()
                && !matches!(
                    t,
                    Token::LParen | Token::RParen | Token::Comma | Token::Lt | Token::Gt
                )
                && !text.ends_with(['(', '<']);
            if glue || text.ends_with(',') {
                text.push(' ');
            }
            text.push_str(&piece);
        }
        if text.is_empty() {
            return Err(self.unexpected("a column type"));
        }
        Ok(text)
    }

    /// Skips an expression up to the next `,` or `)` at depth zero.
    fn skip_expression(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            match t {
                Token::LParen => depth += 1,
                Token::RParen if depth == 0 => return,
                Token::RParen => depth -= 1,
                Token::Comma if depth == 0 => return,
                _ => {}
            }
            self.at += 1;
        }
    }
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

#[cfg(test)]
mod tests {
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
        let t =
            parse_create_table("/* mine */ CREATE TABLE t (id INT, bal INT); -- done\n").unwrap();
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
        assert!(
            refusal("CREATE TABLE t (id INT, bal DECIMAL(10, 2))").contains("bal DECIMAL(10, 2)")
        );
        assert!(refusal("CREATE TABLE t (id INT, bal AS id + 1)").contains("bal (computed)"));
        assert!(
            refusal("CREATE TABLE t (id INT, bal INT METADATA FROM 'x')")
                .contains("bal (metadata)")
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
                e.contains("names a location")
                    || e.contains("would put files in another directory"),
                "{option}: {e}"
            );
        }
        // A plain prefix is fine.
        parse_create_table("CREATE TABLE t (id INT, bal INT) WITH ('data-file.prefix' = 'd-')")
            .unwrap()
            .check_proof_shape(false)
            .unwrap();
        assert!(
            refusal("CREATE TABLE t (id INT, bal INT) PARTITIONED BY (day)").contains("\"day\"")
        );
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
}
