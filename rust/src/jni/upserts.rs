//! `dev.tierproof.core.Upserts`.

use super::arrays::{rows, string, string_array};
use crate::upsert::upsert_inserts;
use jni::objects::{JBooleanArray, JIntArray, JObjectArray, JString};

export! {
    fn Java_dev_tierproof_core_Upserts_nativeUpsertInserts<'local>(
        env,
        table: JString<'local>,
        ids: JIntArray<'local>,
        bals: JIntArray<'local>,
        bal_null: JBooleanArray<'local>,
    ) -> JObjectArray<'local, JString<'local>> {
        let upserts = rows(env, &ids, &bals, &bal_null)?;
        let sql = upsert_inserts(&string(env, &table, "table")?, &upserts)?;
        string_array(env, &sql)
    }
}
