//! `dev.tierproof.core.Upserts`.

use super::arrays::{rows, string, string_array};
use super::{JniResult, ThrowTierproof};
use crate::upsert::upsert_inserts;
use jni::objects::{JBooleanArray, JClass, JIntArray, JObjectArray, JString};
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
