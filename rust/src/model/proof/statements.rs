//! The workload as SQL: its statements, the sentinel's insert that bounds a streaming read, and
//! the read-all query.

use super::*;

impl Proof {
    /// The workload as statements, each with a label for progress and messages. With one
    /// operation a statement (the contract; the exercise's `upsert_inserts` text for its `(id INT,
    /// bal INT)` table) they are the workload in order. With more, the operations go in windows:
    /// a window's upserts as one `INSERT … VALUES`, then its deletes as one `DELETE … WHERE key =
    /// … OR …`, at most `rows_per_insert` of each. Every key's operations keep their order — a
    /// window closes before an upsert of a key it deletes — while operations on different keys
    /// may commit in another order than written: no merge engine relates two keys.
    ///
    /// Flink plans a `VALUES` whose rows hold expressions (the casts most types need) as a union
    /// of one-row inputs, which does not keep their order, so such a window never writes one key
    /// twice (found by the random all-types proof, where the earlier write won). A table of INT
    /// columns only is written as Flink keeps order: a `VALUES` of bare literals with a NULL flag
    /// per nullable column, one projection turning the flag into NULL (proved on real Paimon: 500
    /// writes to 3 keys in one statement, last wins).
    pub fn statements(&self, rows_per_insert: usize) -> Result<Vec<(String, String)>> {
        let per_insert = rows_per_insert.max(1);
        let flagged = per_insert > 1
            && self
                .shape
                .columns
                .iter()
                .all(|(_, ty)| *ty == DataType::Int);
        let mut sql = Vec::new();
        let mut window = Window::default();
        for (n, op) in self.ops.iter().enumerate() {
            if let (OpKind::Delete, Some(why)) = (op.kind, &self.merge.sql_deletes_refused) {
                return Err(TierproofError::InvalidInput(format!(
                    "operation {} is a delete: {why}; write it with the Fluss client (--producer client)",
                    n + 1
                )));
            }
            // Every value is checked as a literal here, so a failure names its operation.
            let literals = self.shape.literals(&op.values).map_err(|e| {
                TierproofError::InvalidInput(format!("operation {}: {}", n + 1, e.detail()))
            })?;
            let key: CanonRow = if self.keyed() {
                let row = canon(&self.shape, &op.values);
                self.shape.key.iter().map(|&k| row[k].clone()).collect()
            } else {
                CanonRow::new()
            };
            match op.kind {
                OpKind::Upsert => {
                    let repeated = self.keyed() && !flagged && window.upserted.contains(&key);
                    if repeated || window.deleted.contains(&key) {
                        window.flush(self, flagged, &mut sql);
                    }
                    if self.keyed() {
                        window.upserted.insert(key);
                    }
                    window.upserts.push(&op.values);
                }
                OpKind::Delete => {
                    // A second delete of a key in one window changes nothing: it is left out.
                    if window.deleted.insert(key) {
                        let conditions: Vec<String> = self
                            .shape
                            .key
                            .iter()
                            .map(|&k| {
                                format!(
                                    "{} = {}",
                                    quote_ident(&self.shape.columns[k].0),
                                    literals[k]
                                )
                            })
                            .collect();
                        window.deletes.push(conditions.join(" AND "));
                    }
                }
            }
            if window.upserts.len() >= per_insert || window.deletes.len() >= per_insert {
                window.flush(self, flagged, &mut sql);
            }
        }
        window.flush(self, flagged, &mut sql);
        let total = sql.len();
        Ok(sql
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let kind = if s.starts_with("DELETE") {
                    "DELETE"
                } else {
                    "INSERT"
                };
                (format!("{kind} {} of {total}", i + 1), s)
            })
            .collect())
    }

    /// `INSERT INTO t VALUES (…), (…)`: each value a literal of exactly its column's type.
    pub(super) fn literal_insert(&self, rows: &[&[Value]]) -> String {
        let rows: Vec<String> = rows
            .iter()
            .map(|values| {
                // Checked by the caller, operation by operation.
                let literals = self.shape.literals(values).unwrap_or_default();
                format!("({})", literals.join(", "))
            })
            .collect();
        format!(
            "INSERT INTO {} VALUES {}",
            self.table.path.quoted(),
            rows.join(", ")
        )
    }

    /// `INSERT INTO t SELECT c0, IF(n1, CAST(NULL AS INT), c1) FROM (VALUES (1, 0, TRUE), …) AS
    /// upserts(c0, c1, n1)`: bare INT literals only, so Flink keeps the rows' order.
    pub(super) fn flagged_insert(&self, rows: &[&[Value]]) -> String {
        let nullable: Vec<usize> = (0..self.shape.columns.len())
            .filter(|&i| !self.shape.not_null[i])
            .collect();
        let select: Vec<String> = (0..self.shape.columns.len())
            .map(|i| {
                if nullable.contains(&i) {
                    format!("IF(`n{i}`, CAST(NULL AS INT), `c{i}`)")
                } else {
                    format!("`c{i}`")
                }
            })
            .collect();
        let mut aliases: Vec<String> = (0..self.shape.columns.len())
            .map(|i| format!("`c{i}`"))
            .collect();
        aliases.extend(nullable.iter().map(|i| format!("`n{i}`")));
        let rows: Vec<String> = rows
            .iter()
            .map(|values| {
                let mut cells: Vec<String> = values
                    .iter()
                    .map(|v| match v {
                        Value::Int(i) => i.to_string(),
                        _ => "0".to_string(),
                    })
                    .collect();
                cells.extend(nullable.iter().map(|&i| {
                    (if values[i] == Value::Null {
                        "TRUE"
                    } else {
                        "FALSE"
                    })
                    .to_string()
                }));
                format!("({})", cells.join(", "))
            })
            .collect();
        format!(
            "INSERT INTO {} SELECT {} FROM (VALUES {}) AS `upserts`({})",
            self.table.path.quoted(),
            select.join(", "),
            rows.join(", "),
            aliases.join(", ")
        )
    }

    /// The sentinel's `INSERT`, its commit carrying `watermark` (Paimon's `end-input.watermark`).
    pub fn sentinel_insert(&self, watermark: i64) -> Result<String> {
        Ok(format!(
            "INSERT INTO {} /*+ OPTIONS({}={}) */ VALUES ({})",
            self.table.path.quoted(),
            quote_literal("end-input.watermark"),
            quote_literal(&watermark.to_string()),
            self.shape.literals(&self.sentinel)?.join(", ")
        ))
    }

    /// `SELECT` every column, with the given read options as a hint.
    pub fn select_all(&self, options: &[(String, String)]) -> String {
        let columns: Vec<String> = self
            .shape
            .columns
            .iter()
            .map(|(c, _)| quote_ident(c))
            .collect();
        let mut sql = format!(
            "SELECT {} FROM {}",
            columns.join(", "),
            self.table.path.quoted()
        );
        if !options.is_empty() {
            let o: Vec<String> = options
                .iter()
                .map(|(k, v)| format!("{}={}", quote_literal(k), quote_literal(v)))
                .collect();
            sql.push_str(&format!(" /*+ OPTIONS({}) */", o.join(", ")));
        }
        sql
    }

    /// The sentinel's value in its column, as canonical text.
    pub(super) fn sentinel_text(&self) -> Option<String> {
        let col = self.sentinel_column;
        (self.sentinel[col] != Value::Null)
            .then(|| self.sentinel[col].canonical(self.shape.columns[col].1))
    }
}

/// The operations of one window of statements: its upserts (one `INSERT`), its deletes' key
/// conditions (one `DELETE`), and the keys each touched.
#[derive(Default)]
pub(super) struct Window<'a> {
    upserts: Vec<&'a [Value]>,
    deletes: Vec<String>,
    upserted: std::collections::HashSet<CanonRow>,
    deleted: std::collections::HashSet<CanonRow>,
}

impl Window<'_> {
    /// Its statements, upserts first (a key is deleted in a window only after its upsert), then
    /// an empty window.
    fn flush(&mut self, proof: &Proof, flagged: bool, sql: &mut Vec<String>) {
        if !self.upserts.is_empty() {
            sql.push(if flagged {
                proof.flagged_insert(&self.upserts)
            } else {
                proof.literal_insert(&self.upserts)
            });
        }
        if !self.deletes.is_empty() {
            let condition = if self.deletes.len() == 1 {
                self.deletes[0].clone()
            } else {
                let each: Vec<String> = self.deletes.iter().map(|d| format!("({d})")).collect();
                each.join(" OR ")
            };
            sql.push(format!(
                "DELETE FROM {} WHERE {condition}",
                proof.table.path.quoted()
            ));
        }
        *self = Window::default();
    }
}
