//! A column added while the table is written: `ALTER TABLE … ADD`, the one schema change
//! Fluss 0.9.1 takes (a nullable column, at the end; it refuses DROP, RENAME and MODIFY). The
//! table is created without the workload's last column and gets it before an operation; a row
//! written before then has no value for it, so it reads NULL, and the expected state says so.

use super::shrinking::option_names_column;
use super::*;

/// The table's last column, added by `ALTER TABLE … ADD` while the table is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedColumn {
    pub name: String,
    /// Its type as the DDL writes it (`INT`, `DECIMAL(10, 2)`).
    pub data_type: String,
    /// The `CREATE TABLE` without it: the table as it is created.
    pub ddl_before: String,
    /// The statement that adds it, in Flink SQL.
    pub alter: String,
    /// A `SELECT` of every column before it is there: the column reads `CAST(NULL AS …)`.
    pub select_before: String,
}

impl Proof {
    /// The workload's last column as a column added later, or why it cannot be: it must be
    /// nullable and neither a key, a partition column nor named by an option (Fluss adds only
    /// such a column), and it must not be the table's only column besides the key.
    pub fn added_column(&self) -> Result<AddedColumn> {
        let refuse = |why: String| {
            TierproofError::InvalidInput(format!(
                "add-column adds the table's last column later, and {why}"
            ))
        };
        let last = self.shape.columns.len() - 1;
        let (name, _) = &self.shape.columns[last];
        if last == 0 || self.shape.key.contains(&last) {
            return Err(refuse(format!("{name} is part of the primary key")));
        }
        if self.shape.not_null[last] {
            return Err(refuse(format!(
                "{name} is NOT NULL (Fluss adds only nullable columns)"
            )));
        }
        if self.table.partition_keys.contains(name) {
            return Err(refuse(format!("{name} partitions the table")));
        }
        if let Some((k, _)) =
            (self.table.options.iter()).find(|(k, v)| option_names_column(k, v, name))
        {
            return Err(refuse(format!("the table's option {k} names {name}")));
        }
        let mut before = self.table.clone();
        let column = before.columns.pop().expect("a table has columns");
        let path = self.table.path.quoted();
        let mut select: Vec<String> = (self.shape.columns[..last].iter())
            .map(|(c, _)| quote_ident(c))
            .collect();
        select.push(format!(
            "CAST(NULL AS {}) AS {}",
            column.data_type,
            quote_ident(name)
        ));
        Ok(AddedColumn {
            name: name.clone(),
            alter: format!(
                "ALTER TABLE {path} ADD {} {}",
                quote_ident(name),
                column.data_type
            ),
            select_before: format!("SELECT {} FROM {path}", select.join(", ")),
            data_type: column.data_type,
            ddl_before: before.canonical_sql()?,
        })
    }

    /// The same workload when its last column is added just before operation `at` (1-based):
    /// each upsert before it writes NULL there, as a row written without the column reads.
    pub fn with_added_column(&self, at: usize) -> Result<Proof> {
        self.added_column()?;
        if at == 0 || at > self.ops.len() {
            return Err(TierproofError::InvalidInput(format!(
                "add-column@{at}: the operation must be from 1 to {}",
                self.ops.len()
            )));
        }
        let last = self.shape.columns.len() - 1;
        let mut ops = self.ops.clone();
        for op in ops.iter_mut().take(at - 1) {
            op.values[last] = Value::Null;
        }
        self.with_outcomes_kept(ops)
    }
}
