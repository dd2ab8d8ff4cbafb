//! `dev.tierproof.core.Queries`.

use super::arrays::{bad, rows, string, string_array};
use super::{JniResult, ThrowTierproof};
use crate::ident::{validate_database_name, TablePath};
use crate::query::{select_rows, sentinel_insert, unused_id};
use jni::objects::{JBooleanArray, JClass, JIntArray, JObjectArray, JString};
use jni::sys::{jboolean, jint, jlong};
use jni::{Env, EnvUnowned};

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Queries_nativeSelectRows<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    table: JString<'local>,
    options: JObjectArray<'local, JString<'local>>,
    has_exclude: jboolean,
    exclude_id: jint,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let opts = option_pairs(env, &options)?;
        let sql = select_rows(
            &string(env, &table, "table")?,
            &opts,
            has_exclude.then_some(exclude_id),
        )?;
        Ok(JString::from_str(env, sql)?)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Queries_nativeSentinelInsert<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    table: JString<'local>,
    id: jint,
    watermark: jlong,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let sql = sentinel_insert(&string(env, &table, "table")?, id, watermark)?;
        Ok(JString::from_str(env, sql)?)
    })
    .resolve::<ThrowTierproof>()
}

/// The smallest id the upserts leave free; throws when every INT is taken.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Queries_nativeUnusedId<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    ids: JIntArray<'local>,
    bals: JIntArray<'local>,
    bal_null: JBooleanArray<'local>,
) -> jint {
    env.with_env(|env| -> JniResult<_> {
        let upserts = rows(env, &ids, &bals, &bal_null)?;
        unused_id(&upserts).ok_or_else(|| {
            bad("the upserts use every INT id; none is left for a sentinel".to_string())
        })
    })
    .resolve::<ThrowTierproof>()
}

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

/// The parts of a dotted table path, unquoted.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Queries_nativePathParts<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    table: JString<'local>,
) -> JObjectArray<'local, JString<'local>> {
    env.with_env(|env| -> JniResult<_> {
        let path = TablePath::parse(&string(env, &table, "table")?)?;
        if let Some(db) = path.database() {
            validate_database_name(db)?;
        }
        string_array(env, path.parts())
    })
    .resolve::<ThrowTierproof>()
}

/// The parts, each checked, quoted and joined: `` `db`.`t` ``.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Queries_nativeQuotedPath<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    parts: JObjectArray<'local, JString<'local>>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
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
    })
    .resolve::<ThrowTierproof>()
}
