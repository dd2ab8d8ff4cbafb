//! `dev.tierproof.core.TypeRoundTrip`.

use super::arrays::{bad, string, string_array};
use super::{JniResult, ThrowTierproof};
use crate::create_table::parse_create_table;
use crate::model::round_trip::{differences, insert_statement, TextRow};
use jni::objects::{JClass, JObjectArray, JString};
use jni::sys::jint;
use jni::{Env, EnvUnowned};

/// Rows given flat, row after row, `width` cells each; a null cell is NULL.
fn text_rows(
    env: &mut Env<'_>,
    cells: &JObjectArray<'_, JString<'_>>,
    width: jint,
) -> JniResult<Vec<TextRow>> {
    if cells.is_null() {
        return Err(bad("cells are null".to_string()));
    }
    let width = usize::try_from(width)
        .ok()
        .filter(|w| *w > 0)
        .ok_or_else(|| bad(format!("width {width} must be at least 1")))?;
    let n = cells.len(env)?;
    if n % width != 0 {
        return Err(bad(format!("{n} cells do not make rows of {width}")));
    }
    let mut flat = Vec::with_capacity(n);
    for i in 0..n {
        let cell = cells.get_element(env, i)?;
        flat.push(if cell.is_null() {
            None
        } else {
            Some(string(env, &cell, "cell")?)
        });
        env.delete_local_ref(cell);
    }
    Ok(flat.chunks(width).map(<[Option<String>]>::to_vec).collect())
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_TypeRoundTrip_nativeInsertStatement<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    ddl: JString<'local>,
    cells: JObjectArray<'local, JString<'local>>,
    width: jint,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let table = parse_create_table(&string(env, &ddl, "ddl")?)?;
        let rows = text_rows(env, &cells, width)?;
        Ok(JString::from_str(env, insert_statement(&table, &rows)?)?)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_TypeRoundTrip_nativeDifferences<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    ddl: JString<'local>,
    written: JObjectArray<'local, JString<'local>>,
    read: JObjectArray<'local, JString<'local>>,
    width: jint,
) -> JObjectArray<'local, JString<'local>> {
    env.with_env(|env| -> JniResult<_> {
        let table = parse_create_table(&string(env, &ddl, "ddl")?)?;
        let w = text_rows(env, &written, width)?;
        let r = text_rows(env, &read, width)?;
        string_array(env, &differences(&table, &w, &r)?)
    })
    .resolve::<ThrowTierproof>()
}
