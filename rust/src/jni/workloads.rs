//! `dev.tierproof.core.Workloads`.

use super::arrays::{bad, bytes, rows, rows_object, string};
use super::{JniResult, ThrowTierproof};
use crate::shrink::shrink_candidates;
use crate::workload::{
    parse_upserts_csv_bytes, random_upserts, require_upserts, upserts_csv, utf8_text,
};
use jni::objects::{JBooleanArray, JByteArray, JClass, JIntArray, JObject, JString};
use jni::sys::{jint, jlong};
use jni::EnvUnowned;

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workloads_nativeParseCsv<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    csv: JByteArray<'local>,
) -> JObject<'local> {
    env.with_env(|env| -> JniResult<_> {
        let upserts = parse_upserts_csv_bytes(&bytes(env, &csv, "csv")?)?;
        rows_object(env, &upserts)
    })
    .resolve::<ThrowTierproof>()
}

/// A file's bytes as text; invalid UTF-8 is refused naming `what` and the line.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workloads_nativeUtf8Text<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    what: JString<'local>,
    content: JByteArray<'local>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let what = string(env, &what, "what")?;
        let raw = bytes(env, &content, "bytes")?;
        Ok(JString::from_str(env, utf8_text(&what, &raw)?)?)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workloads_nativeRandom<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    count: jint,
    keys: jint,
    seed: jlong,
) -> JObject<'local> {
    env.with_env(|env| -> JniResult<_> {
        let n = usize::try_from(count)
            .map_err(|_| bad(format!("--random {count} must not be negative")))?;
        let k =
            u32::try_from(keys).map_err(|_| bad(format!("--keys {keys} must not be negative")))?;
        let upserts =
            require_upserts(random_upserts(n, k, seed as u64)?, &format!("--random {n}"))?;
        rows_object(env, &upserts)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workloads_nativeToCsv<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    ids: JIntArray<'local>,
    bals: JIntArray<'local>,
    bal_null: JBooleanArray<'local>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let upserts = rows(env, &ids, &bals, &bal_null)?;
        Ok(JString::from_str(env, upserts_csv(&upserts))?)
    })
    .resolve::<ThrowTierproof>()
}

/// The `index`-th smaller candidate of a failing workload, or null when there are no more.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workloads_nativeShrinkCandidate<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    ids: JIntArray<'local>,
    bals: JIntArray<'local>,
    bal_null: JBooleanArray<'local>,
    index: jint,
) -> JObject<'local> {
    env.with_env(|env| -> JniResult<_> {
        let upserts = rows(env, &ids, &bals, &bal_null)?;
        let candidates = shrink_candidates(&upserts);
        match usize::try_from(index).ok().and_then(|i| candidates.get(i)) {
            Some(c) => rows_object(env, c),
            None => Ok(JObject::null()),
        }
    })
    .resolve::<ThrowTierproof>()
}
