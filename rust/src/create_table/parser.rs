//! The parser of a CREATE TABLE statement in Flink SQL: its tokens (sqlparser's tokenizer) read
//! into a table: columns, key, partitions, options.

use super::*;

pub(super) struct Parser<'a> {
    pub(super) tokens: &'a [Token],
    pub(super) at: usize,
}

impl<'a> Parser<'a> {
    pub(super) fn new(tokens: &'a [Token]) -> Self {
        Parser { tokens, at: 0 }
    }

    pub(super) fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.at)
    }

    /// True (and consumed) when the next token is the unquoted keyword `kw`.
    pub(super) fn eat_keyword(&mut self, kw: &str) -> bool {
        match self.peek() {
            Some(Token::Word(w)) if is_keyword(w, kw) => {
                self.at += 1;
                true
            }
            _ => false,
        }
    }

    pub(super) fn peek_keyword(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Token::Word(w)) if is_keyword(w, kw))
    }

    pub(super) fn eat(&mut self, token: &Token) -> bool {
        if self.peek() == Some(token) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, token: &Token, context: &str) -> Result<()> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("{token} {context}")))
        }
    }

    pub(super) fn expect_keyword(&mut self, kw: &str, context: &str) -> Result<()> {
        if self.eat_keyword(kw) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("{kw} {context}")))
        }
    }

    pub(super) fn unexpected(&self, wanted: &str) -> TierproofError {
        match self.peek() {
            Some(t) => refused(format!("expected {wanted}, found {:?}", t.to_string())),
            None => refused(format!("expected {wanted}, but the statement ends")),
        }
    }

    pub(super) fn create_table(&mut self) -> Result<CreateTable> {
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

    pub(super) fn table_path(&mut self) -> Result<TablePath> {
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

    pub(super) fn ident(&mut self, what: &str) -> Result<String> {
        match self.peek() {
            Some(Token::Word(w)) => {
                self.at += 1;
                Ok(w.value.clone())
            }
            _ => Err(self.unexpected(what)),
        }
    }

    pub(super) fn string(&mut self, what: &str) -> Result<String> {
        match self.peek() {
            Some(Token::SingleQuotedString(s)) => {
                self.at += 1;
                Ok(s.clone())
            }
            _ => Err(self.unexpected(&format!("a quoted string for {what}"))),
        }
    }

    pub(super) fn ident_list(&mut self) -> Result<Vec<String>> {
        self.expect(&Token::LParen, "before a column list")?;
        let mut names = vec![self.ident("a column name")?];
        while self.eat(&Token::Comma) {
            names.push(self.ident("a column name")?);
        }
        self.expect(&Token::RParen, "after a column list")?;
        Ok(names)
    }

    pub(super) fn options(&mut self) -> Result<Vec<(String, String)>> {
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
    pub(super) fn element(&mut self, table: &mut CreateTable) -> Result<()> {
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

    pub(super) fn set_primary_key(table: &mut CreateTable, key: Vec<String>) -> Result<()> {
        if !table.primary_key.is_empty() {
            return Err(refused("the table declares more than one primary key"));
        }
        table.primary_key = key;
        Ok(())
    }

    pub(super) fn table_primary_key(&mut self, table: &mut CreateTable) -> Result<()> {
        self.expect_keyword("PRIMARY", "in a constraint")?;
        self.expect_keyword("KEY", "after PRIMARY")?;
        let key = self.ident_list()?;
        self.not_enforced()?;
        Self::set_primary_key(table, key)
    }

    pub(super) fn column_primary_key(
        &mut self,
        table: &mut CreateTable,
        column: &str,
    ) -> Result<()> {
        self.expect_keyword("PRIMARY", "in a constraint")?;
        self.expect_keyword("KEY", "after PRIMARY")?;
        self.not_enforced()?;
        Self::set_primary_key(table, vec![column.to_string()])
    }

    pub(super) fn not_enforced(&mut self) -> Result<()> {
        self.expect_keyword("NOT", "after PRIMARY KEY (Flink needs NOT ENFORCED)")?;
        self.expect_keyword("ENFORCED", "after PRIMARY KEY … NOT")
    }

    /// A type: words and bracketed arguments (`DECIMAL(10, 2)`, `ARRAY<INT NOT NULL>`,
    /// `TIMESTAMP(3) WITH LOCAL TIME ZONE`) up to a column constraint, `,` or `)`.
    pub(super) fn data_type(&mut self) -> Result<String> {
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
    pub(super) fn skip_expression(&mut self) {
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
