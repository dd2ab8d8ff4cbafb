//! `dev.tierproof.core.Ddl`.

use super::arrays::{bad, string};
use super::queries::option_pairs;
use super::{JniResult, ThrowTierproof};
use crate::ddl::{fluss_tier_table_ddl, table_ddl, tier_table_ddl};
use crate::ident::TablePath;
use crate::spec::TableSpec;
use jni::objects::{JClass, JObjectArray, JString};
use jni::sys::jint;
use jni::EnvUnowned;

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Ddl_nativeTierTableDdl<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    table: JString<'local>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let ddl = tier_table_ddl(&string(env, &table, "table")?)?;
        Ok(JString::from_str(env, ddl)?)
    })
    .resolve::<ThrowTierproof>()
}

/// `mergeEngine == null` means append-only; `options` alternates keys and values.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Ddl_nativeTableDdl<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    table: JString<'local>,
    merge_engine: JString<'local>,
    changelog_producer: JString<'local>,
    bucket: jint,
    options: JObjectArray<'local, JString<'local>>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let path = TablePath::parse(&string(env, &table, "table")?)?;
        let mut spec = if merge_engine.is_null() {
            TableSpec::append_only()
        } else {
            let bucket = u32::try_from(bucket)
                .ok()
                .filter(|b| *b > 0)
                .ok_or_else(|| bad(format!("bucket {bucket} must be at least 1")))?;
            TableSpec::keyed(
                bucket,
                string(env, &merge_engine, "mergeEngine")?.parse()?,
                string(env, &changelog_producer, "changelogProducer")?.parse()?,
            )
        };
        for (key, value) in option_pairs(env, &options)? {
            spec = spec.with_option(&key, &value)?;
        }
        Ok(JString::from_str(env, table_ddl(&path, &spec)?)?)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Ddl_nativeFlussTierTableDdl<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    table: JString<'local>,
    freshness: JString<'local>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let ddl = fluss_tier_table_ddl(
            &string(env, &table, "table")?,
            &string(env, &freshness, "freshness")?,
        )?;
        Ok(JString::from_str(env, ddl)?)
    })
    .resolve::<ThrowTierproof>()
}
