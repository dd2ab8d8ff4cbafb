//! `dev.tierproof.core.Ddl`.

use super::arrays::{bad, string, target_of};
use super::table_paths::option_pairs;
use crate::create_table::parse_create_table;
use crate::ddl::{fluss_tier_table_ddl, table_ddl, tier_table_ddl};
use crate::model::merge::Target;
use crate::model::tables::table_spec::TableSpec;
use jni::objects::{JObjectArray, JString};
use jni::sys::{jboolean, jint, jlong};

export! {
    fn Java_dev_tierproof_core_Ddl_nativeTierTableDdl<'local>(
        env,
        table: JString<'local>,
    ) -> JString<'local> {
        let ddl = tier_table_ddl(&string(env, &table, "table")?)?;
        Ok(JString::from_str(env, ddl)?)
    }
}

export! {
    /// `mergeEngine == null` means append-only; `options` alternates keys and values.
    fn Java_dev_tierproof_core_Ddl_nativeTableDdl<'local>(
        env,
        table: JString<'local>,
        merge_engine: JString<'local>,
        changelog_producer: JString<'local>,
        bucket: jint,
        options: JObjectArray<'local, JString<'local>>,
    ) -> JString<'local> {
        let table = string(env, &table, "table")?;
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
        Ok(JString::from_str(env, table_ddl(&table, &spec, Target::Paimon)?)?)
    }
}

export! {
    fn Java_dev_tierproof_core_Ddl_nativeFlussTierTableDdl<'local>(
        env,
        table: JString<'local>,
        freshness: JString<'local>,
    ) -> JString<'local> {
        let ddl = fluss_tier_table_ddl(
            &string(env, &table, "table")?,
            &string(env, &freshness, "freshness")?,
        )?;
        Ok(JString::from_str(env, ddl)?)
    }
}

export! {
    /// Whether the DDL is the `(id INT, bal INT)` table; throws for an unsafe or unparsable one.
    fn Java_dev_tierproof_core_Ddl_nativeIsIdBal<'local>(env, sql: JString<'local>) -> jboolean {
        let table = parse_create_table(&string(env, &sql, "ddl")?)?;
        table.check_safe()?;
        Ok(table.is_id_bal())
    }
}

export! {
    /// The matrix's variant of a table: see [`crate::model::tables::variant::matrix_variant`].
    fn Java_dev_tierproof_core_Ddl_nativeMatrixVariant<'local>(
        env,
        ddl: JString<'local>,
        name: JString<'local>,
        engine: JString<'local>,
        producer: JString<'local>,
    ) -> JString<'local> {
        let sql = crate::model::tables::variant::matrix_variant(
            &string(env, &ddl, "ddl")?,
            &string(env, &name, "name")?,
            &string(env, &engine, "engine")?,
            &string(env, &producer, "producer")?,
        )?;
        Ok(JString::from_str(env, sql)?)
    }
}

export! {
    /// The DDL of a compact table spec ([`crate::model::tables::table_spec`]) for `target` (0 Paimon, 1 Fluss).
    fn Java_dev_tierproof_core_Ddl_nativeFromSpec<'local>(
        env,
        spec: JString<'local>,
        table: JString<'local>,
        target: jint,
    ) -> JString<'local> {
        let target = target_of(target)?;
        let parsed = TableSpec::parse(&string(env, &spec, "spec")?)?;
        let sql = parsed.ddl(&string(env, &table, "table")?, target)?;
        Ok(JString::from_str(env, sql)?)
    }
}

export! {
    /// A seeded wide table spec for the counterexample search (see `wide_spec`).
    fn Java_dev_tierproof_core_Ddl_nativeWideSpec<'local>(env, seed: jlong) -> JString<'local> {
        Ok(JString::from_str(
            env,
            crate::model::tables::table_spec::wide_spec(seed as u64),
        )?)
    }
}

export! {
    /// A seeded table spec for the counterexample search (see `random_spec`).
    fn Java_dev_tierproof_core_Ddl_nativeRandomSpec<'local>(env, seed: jlong) -> JString<'local> {
        Ok(JString::from_str(
            env,
            crate::model::tables::table_spec::random_spec(seed as u64),
        )?)
    }
}
