//! `dev.tierproof.core.Upserts`.

use super::arrays::{bad, rows, string, string_array};
use super::{JniResult, ThrowTierproof};
use crate::upsert::{batched_upsert_inserts, upsert_inserts};
use jni::objects::{JBooleanArray, JClass, JIntArray, JObjectArray, JString};
use jni::sys::jint;
use jni::EnvUnowned;

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Upserts_nativeUpsertInserts<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    table: JString<'local>,
    ids: JIntArray<'local>,
    bals: JIntArray<'local>,
    bal_null: JBooleanArray<'local>,
) -> JObjectArray<'local, JString<'local>> {
    env.with_env(|env| -> JniResult<_> {
        let upserts = rows(env, &ids, &bals, &bal_null)?;
        let sql = upsert_inserts(&string(env, &table, "table")?, &upserts)?;
        string_array(env, &sql)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Upserts_nativeBatchedUpsertInserts<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    table: JString<'local>,
    ids: JIntArray<'local>,
    bals: JIntArray<'local>,
    bal_null: JBooleanArray<'local>,
    max_rows: jint,
) -> JObjectArray<'local, JString<'local>> {
    env.with_env(|env| -> JniResult<_> {
        let max = usize::try_from(max_rows)
            .ok()
            .filter(|m| *m > 0)
            .ok_or_else(|| bad(format!("maxRows {max_rows} must be at least 1")))?;
        let upserts = rows(env, &ids, &bals, &bal_null)?;
        let sql = batched_upsert_inserts(&string(env, &table, "table")?, &upserts, max)?;
        string_array(env, &sql)
    })
    .resolve::<ThrowTierproof>()
}
