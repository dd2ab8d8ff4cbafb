//! Workloads as JSON Lines: one object per line, `{"op": "delete", "region": "eu", "id": 2}`.
//! Keys name the table's columns (and optionally `op`, as in the CSV form); a column left out or
//! `null` is NULL, which is how a partial-update table's partial row is written. Values are JSON
//! strings, numbers or booleans, read as the column's type reads text, so a number keeps every
//! digit it was written with (a DECIMAL(38, 18) or a BIGINT beyond 2^53 is exact). Every error
//! names its line and the key.

use crate::error::{Result, TierproofError};
use crate::model::workloads::workload::{op_of, Op, Shape};
use serde_json::{Map, Value as Json};

fn bad(line: usize, message: String) -> TierproofError {
    TierproofError::InvalidInput(format!("JSON line {line}: {message}"))
}

/// A JSON value as the text a column parses; `None` for `null`.
fn text(line: usize, key: &str, v: &Json) -> Result<Option<String>> {
    match v {
        Json::Null => Ok(None),
        Json::String(s) => Ok(Some(s.clone())),
        Json::Number(n) => Ok(Some(n.to_string())),
        Json::Bool(b) => Ok(Some(b.to_string())),
        Json::Array(_) | Json::Object(_) => Err(bad(
            line,
            format!("{key:?} holds {v}; a value is a string, number, boolean or null"),
        )),
    }
}

/// Parses JSON Lines for `shape`; blank lines are skipped.
pub fn parse_workload_jsonl(shape: &Shape, text_in: &str) -> Result<Vec<Op>> {
    let mut ops = Vec::new();
    for (i, raw) in text_in.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let object: Map<String, Json> =
            serde_json::from_str(raw).map_err(|e| bad(line, format!("not a JSON object: {e}")))?;
        let mut cells: Vec<Option<String>> = vec![None; shape.columns.len()];
        let mut op = None;
        for (key, v) in &object {
            match shape.columns.iter().position(|(c, _)| c == key) {
                Some(c) => cells[c] = text(line, key, v)?,
                None if key == "op" => op = text(line, key, v)?,
                None => {
                    let known: Vec<&str> = shape.columns.iter().map(|(c, _)| c.as_str()).collect();
                    return Err(bad(
                        line,
                        format!(
                            "{key:?} is not a column of the table ({})",
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
        let refs: Vec<Option<&str>> = cells.iter().map(|c| c.as_deref()).collect();
        ops.push(op_of(shape, op.as_deref(), &refs).map_err(|m| bad(line, m))?);
    }
    if ops.is_empty() {
        return Err(TierproofError::InvalidInput(
            "the JSON Lines hold no operations; a proof of nothing would say nothing".into(),
        ));
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_table::parse_create_table;
    use crate::model::workloads::input::parse_workload;
    use crate::model::workloads::workload::{parse_workload_csv, OpKind};

    fn shape() -> Shape {
        Shape::of(
            &parse_create_table(
                "CREATE TABLE t (region STRING, id BIGINT, amount DECIMAL(38, 18), ok BOOLEAN, \
                 PRIMARY KEY (region, id) NOT ENFORCED)",
            )
            .unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn json_lines_read_as_the_csv_reads() {
        let jsonl = "{\"region\": \"eu\", \"id\": 9007199254740993, \"amount\": 12345678901234567890.123456789012345678, \"ok\": true}\n\
                     \n\
                     {\"op\": \"delete\", \"region\": \"eu\", \"id\": 9007199254740993}\n\
                     {\"region\": \"\", \"id\": 1}\n";
        let csv = "op,region,id,amount,ok\n\
                   ,eu,9007199254740993,12345678901234567890.123456789012345678,true\n\
                   delete,eu,9007199254740993,,\n\
                   ,\"\",1,,\n";
        let from_json = parse_workload(&shape(), jsonl).unwrap();
        assert_eq!(from_json, parse_workload_csv(&shape(), csv).unwrap());
        assert_eq!(from_json[1].kind, OpKind::Delete);
    }

    #[test]
    fn errors_name_the_line_and_the_key() {
        for (jsonl, want) in [
            (
                "{\"region\": \"eu\", \"id\": 1}\n{\"nope\": 1}\n",
                "JSON line 2: \"nope\" is not a column",
            ),
            (
                "{\"region\": \"eu\", \"id\": [1]}\n",
                "JSON line 1: \"id\" holds [1]",
            ),
            (
                "{\"region\": \"eu\", \"id\": 1.5}\n",
                "JSON line 1: column id: BIGINT value \"1.5\"",
            ),
            (
                "{\"region\": \"eu\"}\n",
                "JSON line 1: column id is NOT NULL but empty",
            ),
            (
                "{\"region\": \"eu\", \"id\": 1,}\n",
                "JSON line 1: not a JSON object",
            ),
        ] {
            let e = parse_workload(&shape(), jsonl).unwrap_err().to_string();
            assert!(e.contains(want), "{e}");
        }
    }
}
