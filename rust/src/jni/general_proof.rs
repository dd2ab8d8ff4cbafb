//! `dev.tierproof.core.GeneralWorkload`: a [`GeneralProof`] behind a handle (a pointer the Java
//! object holds until `close()`), so the workload crosses JNI once, as the file's bytes.

use super::arrays::{bad, bytes, string, string_array, text_rows};
use super::queries::option_pairs;
use super::{JniResult, ThrowTierproof};
use crate::error::TierproofError;
use crate::model::merge::Target;
use crate::model::proof::{GeneralProof, ReadInput};
use crate::oracle::RowKind;
use jni::objects::{JByteArray, JClass, JObject, JObjectArray, JString, JValue};
use jni::sys::{jint, jlong};
use jni::{jni_sig, jni_str, EnvUnowned};

fn proof<'a>(handle: jlong) -> JniResult<&'a GeneralProof> {
    if handle == 0 {
        return Err(bad("the workload is closed".to_string()));
    }
    // SAFETY: a non-zero handle is a pointer from `nativeOpen`, freed only by `nativeClose`,
    // which the Java object calls once and after which it never passes the handle again.
    Ok(unsafe { &*(handle as *const GeneralProof) })
}

/// `GeneralWorkload.Target`'s ordinal.
fn target_of(ordinal: jint) -> JniResult<Target> {
    match ordinal {
        0 => Ok(Target::Paimon),
        1 => Ok(Target::Fluss),
        other => Err(bad(format!("no target {other}"))),
    }
}

/// Why the streaming replays of the Paimon table are not judged, or null when they are.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeReplayNotPromised<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        Ok(match &proof(handle)?.merge.replay_not_promised {
            Some(why) => JString::from_str(env, why)?,
            None => JString::default(),
        })
    })
    .resolve::<ThrowTierproof>()
}

/// Why the table takes no deletes, or null when it does.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeDeletesRefused<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        Ok(match &proof(handle)?.merge.deletes_refused {
            Some(why) => JString::from_str(env, why)?,
            None => JString::default(),
        })
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeOpen<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    target: jint,
    ddl: JString<'local>,
    csv: JByteArray<'local>,
) -> jlong {
    env.with_env(|env| -> JniResult<_> {
        let p = GeneralProof::open(
            target_of(target)?,
            &string(env, &ddl, "ddl")?,
            &bytes(env, &csv, "csv")?,
        )?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

/// As `nativeOpen`, judged against `promiseDdl`'s table (see `GeneralProof::open_judged_as`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeOpenJudgedAs<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    target: jint,
    ddl: JString<'local>,
    promise_ddl: JString<'local>,
    csv: JByteArray<'local>,
) -> jlong {
    env.with_env(|env| -> JniResult<_> {
        let p = GeneralProof::open_judged_as(
            target_of(target)?,
            &string(env, &ddl, "ddl")?,
            &string(env, &promise_ddl, "promiseDdl")?,
            &bytes(env, &csv, "csv")?,
        )?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

/// A seeded random workload for the table: `n` operations over about `keys` keys.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeGenerate<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    target: jint,
    ddl: JString<'local>,
    n: jint,
    keys: jint,
    seed: jlong,
) -> jlong {
    env.with_env(|env| -> JniResult<_> {
        let n =
            usize::try_from(n).map_err(|_| bad(format!("--random {n} must not be negative")))?;
        let keys =
            u32::try_from(keys).map_err(|_| bad(format!("--keys {keys} must not be negative")))?;
        let p = GeneralProof::generate(
            target_of(target)?,
            &string(env, &ddl, "ddl")?,
            n,
            keys,
            seed as u64,
        )?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

/// The workload as CSV (what `nativeOpen` reads back).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeWorkloadCsv<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        Ok(JString::from_str(env, proof(handle)?.workload_csv())?)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeClose<'local>(
    _env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) {
    if handle != 0 {
        // SAFETY: see `proof`; the Java object zeroes its handle before calling this, once.
        drop(unsafe { Box::from_raw(handle as *mut GeneralProof) });
    }
}

/// The table as a `dev.tierproof.core.CheckedDdl`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeTable<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> JObject<'local> {
    env.with_env(|env| -> JniResult<_> {
        let p = proof(handle)?;
        let database = match p.table.database() {
            Some(db) => JObject::from(JString::from_str(env, db)?),
            None => JObject::null(),
        };
        let name = JString::from_str(env, p.table.table())?;
        let sql = JString::from_str(env, p.table.canonical_sql()?)?;
        Ok(env.new_object(
            jni_str!("dev/tierproof/core/CheckedDdl"),
            jni_sig!("(Ljava/lang/String;Ljava/lang/String;ZLjava/lang/String;Z)V"),
            &[
                JValue::from(&database),
                JValue::from(&name),
                JValue::Bool(p.keyed()),
                JValue::from(&sql),
                JValue::Bool(p.table.if_not_exists),
            ],
        )?)
    })
    .resolve::<ThrowTierproof>()
}

/// The statements, as labels and SQL alternating.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeStatements<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    rows_per_insert: jint,
) -> JObjectArray<'local, JString<'local>> {
    env.with_env(|env| -> JniResult<_> {
        let n = usize::try_from(rows_per_insert)
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| {
                bad(format!(
                    "rows per insert {rows_per_insert} must be at least 1"
                ))
            })?;
        let flat: Vec<String> = proof(handle)?
            .statements(n)?
            .into_iter()
            .flat_map(|(label, sql)| [label, sql])
            .collect();
        string_array(env, &flat)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeSentinelInsert<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    watermark: jlong,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let sql = proof(handle)?.sentinel_insert(watermark)?;
        Ok(JString::from_str(env, sql)?)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeSelectAll<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    options: JObjectArray<'local, JString<'local>>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let opts = option_pairs(env, &options)?;
        Ok(JString::from_str(env, proof(handle)?.select_all(&opts))?)
    })
    .resolve::<ThrowTierproof>()
}

/// Judges reads: read `i` is `names[i]`, a snapshot when `snapshots[i]`, with changes whose
/// kinds are `kinds[i]` and whose cells are `cells[i]` (flat, a row after another, null = NULL).
/// Returns the verdict as JSON.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeJudge<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    names: JObjectArray<'local, JString<'local>>,
    snapshots: JByteArray<'local>,
    kinds: JObjectArray<'local, JByteArray<'local>>,
    cells: JObjectArray<'local, JObjectArray<'local, JString<'local>>>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let p = proof(handle)?;
        let width = p.shape.columns.len();
        let n = names.len(env)?;
        let snapshot_flags = bytes(env, &snapshots, "snapshots")?;
        if snapshot_flags.len() != n || kinds.len(env)? != n || cells.len(env)? != n {
            return Err(bad(format!(
                "{n} read names but other arrays differ in length"
            )));
        }
        let mut reads = Vec::with_capacity(n);
        for (i, snapshot) in snapshot_flags.iter().enumerate() {
            let name = names.get_element(env, i)?;
            let k = kinds.get_element(env, i)?;
            let c = cells.get_element(env, i)?;
            let kind_codes = bytes(env, &k, "kinds")?;
            let rows = text_rows(env, &c, width)?;
            if rows.len() != kind_codes.len() {
                return Err(bad(format!(
                    "read {i}: {} rows of {width} cells for {} changes",
                    rows.len(),
                    kind_codes.len()
                )));
            }
            let changes = kind_codes
                .iter()
                .zip(rows)
                .enumerate()
                .map(|(j, (code, row))| Ok((RowKind::from_code(j, i32::from(*code as i8))?, row)))
                .collect::<std::result::Result<Vec<_>, TierproofError>>()?;
            reads.push(ReadInput {
                name: string(env, &name, "read name")?,
                snapshot: *snapshot != 0,
                changes,
            });
            env.delete_local_ref(name);
            env.delete_local_ref(k);
            env.delete_local_ref(c);
        }
        let verdict = p.judge(reads);
        let json =
            serde_json::to_string(&verdict).map_err(|e| TierproofError::Internal(e.to_string()))?;
        Ok(JString::from_str(env, json)?)
    })
    .resolve::<ThrowTierproof>()
}

/// The table's column names, in order.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_GeneralWorkload_nativeColumns<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> JObjectArray<'local, JString<'local>> {
    env.with_env(|env| -> JniResult<_> {
        let names: Vec<String> = proof(handle)?
            .shape
            .columns
            .iter()
            .map(|(name, _)| name.clone())
            .collect();
        string_array(env, &names)
    })
    .resolve::<ThrowTierproof>()
}
