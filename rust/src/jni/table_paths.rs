//! `dev.tierproof.core.TablePaths`, and the option pairs other exports take.

use super::arrays::{bad, string, string_array};
use super::JniResult;
use crate::ident::{validate_database_name, TablePath};
use jni::objects::{JObjectArray, JString};
use jni::Env;

/// Reads a `String[]` that alternates keys and values.
pub fn option_pairs(
    env: &mut Env<'_>,
    options: &JObjectArray<'_, JString<'_>>,
) -> JniResult<Vec<(String, String)>> {
    if options.is_null() {
        return Ok(Vec::new());
    }
    let n = options.len(env)?;
    if n % 2 != 0 {
        return Err(bad(format!(
            "options must alternate keys and values; found {n} strings"
        )));
    }
    let mut pairs = Vec::with_capacity(n / 2);
    for i in (0..n).step_by(2) {
        let k = options.get_element(env, i)?;
        let v = options.get_element(env, i + 1)?;
        pairs.push((
            string(env, &k, "option key")?,
            string(env, &v, "option value")?,
        ));
        env.delete_local_ref(k);
        env.delete_local_ref(v);
    }
    Ok(pairs)
}

export! {
    /// The parts of a dotted table path, unquoted.
    fn Java_dev_tierproof_core_TablePaths_nativePathParts<'local>(
        env,
        table: JString<'local>,
    ) -> JObjectArray<'local, JString<'local>> {
        let path = TablePath::parse(&string(env, &table, "table")?)?;
        if let Some(db) = path.database() {
            validate_database_name(db)?;
        }
        string_array(env, path.parts())
    }
}

export! {
    /// The parts, each checked, quoted and joined: `` `db`.`t` ``.
    fn Java_dev_tierproof_core_TablePaths_nativeQuotedPath<'local>(
        env,
        parts: JObjectArray<'local, JString<'local>>,
    ) -> JString<'local> {
        if parts.is_null() {
            return Err(bad("parts is null".to_string()));
        }
        let mut names = Vec::new();
        for i in 0..parts.len(env)? {
            let p = parts.get_element(env, i)?;
            names.push(string(env, &p, "path part")?);
            env.delete_local_ref(p);
        }
        let path = TablePath::from_parts(&names)?;
        Ok(JString::from_str(env, path.quoted())?)
    }
}
