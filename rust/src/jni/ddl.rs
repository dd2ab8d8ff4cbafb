//! `dev.tierproof.core.Ddl`.

use super::arrays::{bad, string, target_of};
use super::table_paths::option_pairs;
use super::{JniResult, ThrowTierproof};
use crate::create_table::parse_create_table;
use crate::ddl::{fluss_tier_table_ddl, table_ddl, tier_table_ddl};
use crate::ident::TablePath;
use crate::spec::TableSpec;
use jni::objects::{JClass, JObjectArray, JString};
use jni::sys::{jboolean, jint, jlong};
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

/// Whether the DDL is the `(id INT, bal INT)` table; throws for an unsafe or unparsable one.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Ddl_nativeIsIdBal<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    sql: JString<'local>,
) -> jboolean {
    env.with_env(|env| -> JniResult<_> {
        let table = parse_create_table(&string(env, &sql, "ddl")?)?;
        table.check_safe()?;
        Ok(table.is_id_bal())
    })
    .resolve::<ThrowTierproof>()
}

/// The matrix's variant of a table: see [`crate::model::variant::matrix_variant`].
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Ddl_nativeMatrixVariant<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    ddl: JString<'local>,
    name: JString<'local>,
    engine: JString<'local>,
    producer: JString<'local>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let sql = crate::model::variant::matrix_variant(
            &string(env, &ddl, "ddl")?,
            &string(env, &name, "name")?,
            &string(env, &engine, "engine")?,
            &string(env, &producer, "producer")?,
        )?;
        Ok(JString::from_str(env, sql)?)
    })
    .resolve::<ThrowTierproof>()
}

/// The DDL of a compact table spec ([`crate::model::table_spec`]) for `target` (0 Paimon, 1 Fluss).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Ddl_nativeFromSpec<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    spec: JString<'local>,
    table: JString<'local>,
    target: jint,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let target = target_of(target)?;
        let parsed = crate::model::table_spec::TableSpec::parse(&string(env, &spec, "spec")?)?;
        let sql = parsed.ddl(&string(env, &table, "table")?, target)?;
        Ok(JString::from_str(env, sql)?)
    })
    .resolve::<ThrowTierproof>()
}

/// A seeded table spec for the counterexample search (see `random_spec`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Ddl_nativeRandomSpec<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    seed: jlong,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        Ok(JString::from_str(
            env,
            crate::model::table_spec::random_spec(seed as u64),
        )?)
    })
    .resolve::<ThrowTierproof>()
}
