//! `dev.tierproof.core.Workload`: a [`Proof`] behind a handle (a pointer the Java
//! object holds until `close()`), so the workload crosses JNI once, as the file's bytes.

use super::arrays::{
    bad, bytes, ints, nullable_string, nullable_string_array, pair_array, string, string_array,
    target_of,
};
use super::table_paths::option_pairs;
use super::{JniResult, ThrowTierproof};
use crate::error::TierproofError;
use crate::model::proof::{PendingRead, Proof, Source};
use jni::objects::{
    JByteArray, JClass, JIntArray, JLongArray, JObject, JObjectArray, JString, JValue,
};
use jni::sys::{jboolean, jint, jlong};
use jni::{jni_sig, jni_str, EnvUnowned};

// Reads stream in side by side, each on its own thread into its own `PendingRead`: the proof
// they all read must be shareable across threads.
const _: () = {
    const fn shared<T: Sync>() {}
    shared::<Proof>()
};

fn proof<'a>(handle: jlong) -> JniResult<&'a Proof> {
    if handle == 0 {
        return Err(bad("the workload is closed".to_string()));
    }
    // SAFETY: a non-zero handle is a pointer from `nativeOpen`, freed only by `nativeClose`,
    // which the Java object calls once and after which it never passes the handle again.
    Ok(unsafe { &*(handle as *const Proof) })
}

/// Why the streaming replays of the Paimon table are not judged, or null when they are.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeReplayNotPromised<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        nullable_string(env, proof(handle)?.merge.replay_not_promised.as_deref())
    })
    .resolve::<ThrowTierproof>()
}

/// Why one ordered job cannot write the workload as statements would, or null when it can.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeOrderedWriteRefused<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        nullable_string(env, proof(handle)?.ordered_write_refused().as_deref())
    })
    .resolve::<ThrowTierproof>()
}

/// Why the table takes no deletes, or null when it does.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeDeletesRefused<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        nullable_string(env, proof(handle)?.merge.deletes_refused.as_deref())
    })
    .resolve::<ThrowTierproof>()
}

/// A workload for the DDL's table; with a `promiseDdl` (else null) judged against that table's
/// promise instead (see `Proof::open_judged_as`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeOpen<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    target: jint,
    ddl: JString<'local>,
    promise_ddl: JString<'local>,
    csv: JByteArray<'local>,
) -> jlong {
    env.with_env(|env| -> JniResult<_> {
        let (target, ddl) = (target_of(target)?, string(env, &ddl, "ddl")?);
        // No workload: a table someone else wrote, for an audit.
        if csv.is_null() && promise_ddl.is_null() {
            return Ok(Box::into_raw(Box::new(Proof::of_table(target, &ddl)?)) as jlong);
        }
        let csv = bytes(env, &csv, "csv")?;
        let p = if promise_ddl.is_null() {
            Proof::open(target, &ddl, &csv)?
        } else {
            let promise = string(env, &promise_ddl, "promiseDdl")?;
            Proof::open_judged_as(target, &ddl, &promise, &csv)?
        };
        Ok(Box::into_raw(Box::new(p)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

/// Checks the DDL alone (what `nativeOpen` checks first); throws naming what is wrong.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeCheckTable<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    target: jint,
    ddl: JString<'local>,
) {
    env.with_env(|env| -> JniResult<_> {
        Ok(Proof::check_table(
            target_of(target)?,
            &string(env, &ddl, "ddl")?,
        )?)
    })
    .resolve::<ThrowTierproof>()
}

/// A seeded random workload for the table: `n` operations over about `keys` keys, with deletes
/// if `deletes` and the table takes them; with a `promiseDdl` (else null) made for that table and
/// judged by its promise (see `Proof::generate_judged_as`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeGenerate<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    target: jint,
    ddl: JString<'local>,
    promise_ddl: JString<'local>,
    n: jint,
    keys: jint,
    seed: jlong,
    deletes: jboolean,
) -> jlong {
    env.with_env(|env| -> JniResult<_> {
        let n =
            usize::try_from(n).map_err(|_| bad(format!("--random {n} must not be negative")))?;
        let keys =
            u32::try_from(keys).map_err(|_| bad(format!("--keys {keys} must not be negative")))?;
        let (target, ddl) = (target_of(target)?, string(env, &ddl, "ddl")?);
        let p = if promise_ddl.is_null() {
            Proof::generate(target, &ddl, n, keys, seed as u64, deletes)?
        } else {
            let promise = string(env, &promise_ddl, "promiseDdl")?;
            Proof::generate_judged_as(target, &ddl, &promise, n, keys, seed as u64)?
        };
        Ok(Box::into_raw(Box::new(p)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

/// The `index`th smaller or simpler workload of the same table, as a new handle, or 0 past the
/// last (see `Proof::shrink_candidate`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeShrinkCandidate<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    index: jint,
) -> jlong {
    env.with_env(|_env| -> JniResult<_> {
        let index =
            usize::try_from(index).map_err(|_| bad(format!("candidate {index} is negative")))?;
        Ok(match proof(handle)?.shrink_candidate(index) {
            Some(p) => Box::into_raw(Box::new(p)) as jlong,
            None => 0,
        })
    })
    .resolve::<ThrowTierproof>()
}

/// The workload as CSV (what `nativeOpen` reads back).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeWorkloadCsv<'local>(
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
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeClose<'local>(
    _env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) {
    if handle != 0 {
        // SAFETY: see `proof`; the Java object zeroes its handle before calling this, once.
        drop(unsafe { Box::from_raw(handle as *mut Proof) });
    }
}

/// The table as a `dev.tierproof.core.CheckedDdl`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeTable<'local>(
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
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeStatements<'local>(
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
        pair_array(env, proof(handle)?.statements(n)?)
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeSentinelInsert<'local>(
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
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeSelectAll<'local>(
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

/// A read about to stream in: a pointer to its [`PendingRead`], freed (spill files and all) by
/// `nativeCloseRead`. With a spill directory (else null), judged partition by partition
/// (`Proof::new_spilled_read`): its changes go to `partitions` files there.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeNewRead<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    name: JString<'local>,
    source: jint,
    dir: JString<'local>,
    partitions: jint,
) -> jlong {
    env.with_env(|env| -> JniResult<_> {
        let source = Source::of_code(source)?;
        let name = string(env, &name, "read name")?;
        let p = proof(handle)?;
        let read = if dir.is_null() {
            p.new_read(&name, source)
        } else {
            let partitions = u32::try_from(partitions)
                .map_err(|_| bad(format!("{partitions} partitions: at least 1")))?;
            let dir = string(env, &dir, "spill directory")?;
            p.new_spilled_read(&name, source, std::path::Path::new(&dir), partitions)?
        };
        Ok(Box::into_raw(Box::new(read)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

/// The view reads (`Proof::view_queries`), flat: name, SQL, name, SQL, ...
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeViewQueries<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> JObjectArray<'local, JString<'local>> {
    env.with_env(|env| -> JniResult<_> {
        let queries = proof(handle)?.view_queries()?;
        pair_array(env, queries.into_iter().map(|q| (q.name, q.sql)))
    })
    .resolve::<ThrowTierproof>()
}

/// A view read (the `index`th of `nativeViewQueries`) about to stream in, freed by `nativeCloseRead`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeNewViewRead<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    name: JString<'local>,
    index: jint,
) -> jlong {
    env.with_env(|env| -> JniResult<_> {
        let p = proof(handle)?;
        let view = usize::try_from(index)
            .ok()
            .and_then(|i| p.view_queries().ok()?.into_iter().nth(i))
            .ok_or_else(|| bad(format!("view read {index} does not exist")))?
            .view;
        let read = p.new_view_read(&string(env, &name, "read name")?, view);
        Ok(Box::into_raw(Box::new(read)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

fn pending<'a>(read: jlong) -> JniResult<&'a mut PendingRead> {
    if read == 0 {
        return Err(bad("the read is closed".to_string()));
    }
    // SAFETY: a non-zero read is a pointer from `nativeNewRead`, freed only by `nativeCloseRead`;
    // the Java object serializes its calls and zeroes the pointer before closing.
    Ok(unsafe { &mut *(read as *mut PendingRead) })
}

/// A batch of changes in the wire format ([`crate::model::wire`]): decoded and folded at once.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeAppend<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    read: jlong,
    batch: JByteArray<'local>,
    length: jint,
) {
    env.with_env(|env| -> JniResult<_> {
        let p = proof(handle)?;
        let r = pending(read)?;
        let all = bytes(env, &batch, "batch")?;
        let n = usize::try_from(length)
            .ok()
            .filter(|n| *n <= all.len())
            .ok_or_else(|| bad(format!("batch length {length} is outside its array")))?;
        p.push_batch(r, &all[..n])?;
        Ok(())
    })
    .resolve::<ThrowTierproof>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeCloseRead<'local>(
    _env: EnvUnowned<'local>,
    _class: JClass<'local>,
    read: jlong,
) {
    if read != 0 {
        // SAFETY: see `pending`; the Java object zeroes its pointer before calling this, once.
        drop(unsafe { Box::from_raw(read as *mut PendingRead) });
    }
}

/// The verdict over reads that streamed in, in the order given, as JSON for the Java records.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeJudge<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    reads: JLongArray<'local>,
    failures: JObjectArray<'local, JString<'local>>,
    against_first: jboolean,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let p = proof(handle)?;
        let mut failed = Vec::new();
        if !failures.is_null() {
            for i in 0..failures.len(env)? {
                let w = failures.get_element(env, i)?;
                failed.push(string(env, &w, "failure")?);
                env.delete_local_ref(w);
            }
        }
        let n = reads.len(env)?;
        let mut pointers = vec![0i64; n];
        reads.get_region(env, 0, &mut pointers)?;
        let mut distinct = pointers.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() != pointers.len() {
            return Err(bad(
                "a read is judged once: the same read was given twice".to_string()
            ));
        }
        let mut folded = pointers
            .iter()
            .map(|&r| pending(r))
            .collect::<JniResult<Vec<&mut PendingRead>>>()?;
        let verdict = if folded.iter().any(|r| r.spilled()) {
            if !against_first {
                return Err(bad(
                    "reads judged partition by partition are judged against the first".to_string(),
                ));
            }
            p.judge_partitioned_against_first(&mut folded, failed)?
        } else {
            let folded: Vec<&PendingRead> = folded.into_iter().map(|r| &*r).collect();
            if against_first {
                p.judge_against_first(&folded, failed)
            } else {
                p.judge_folded_with(&folded, failed)
            }
        };
        let json = serde_json::to_string(&verdict).map_err(|e| {
            TierproofError::Internal(format!("the verdict does not serialize: {e}"))
        })?;
        Ok(JString::from_str(env, json)?)
    })
    .resolve::<ThrowTierproof>()
}

/// The table's column names, in order.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeColumns<'local>(
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

/// How many partitions an audit's reads of a log of `changes` changes are judged in, about
/// `rows` rows each (`spill::partitions_for`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativePartitionsFor<'local>(
    _env: EnvUnowned<'local>,
    _class: JClass<'local>,
    changes: jlong,
    rows: jlong,
) -> jint {
    let parts = crate::model::spill::partitions_for(changes.max(0) as u64, rows.max(0) as u64);
    jint::try_from(parts).unwrap_or(jint::MAX)
}

/// How many operations the workload holds.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeOperations<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> jint {
    env.with_env(|_env| -> JniResult<_> {
        Ok(jint::try_from(proof(handle)?.ops.len()).unwrap_or(jint::MAX))
    })
    .resolve::<ThrowTierproof>()
}

/// Operations `from..from + count` as text: per operation its kind, then its cells (null is NULL).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeOperationCells<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    from: jint,
    count: jint,
) -> JObjectArray<'local, JString<'local>> {
    env.with_env(|env| -> JniResult<_> {
        let (from, count) = (
            usize::try_from(from).map_err(|_| bad(format!("operation {from} is negative")))?,
            usize::try_from(count).map_err(|_| bad(format!("count {count} is negative")))?,
        );
        let cells = proof(handle)?.operation_cells(from, count);
        nullable_string_array(env, &cells)
    })
    .resolve::<ThrowTierproof>()
}

/// The workload's first `n` operations, as a new handle (see `Proof::prefix`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativePrefix<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    n: jint,
) -> jlong {
    env.with_env(|_env| -> JniResult<_> {
        let n = usize::try_from(n).map_err(|_| bad(format!("prefix {n} is negative")))?;
        let p = proof(handle)?.prefix(n)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

/// The operations as statements write them, as a new handle (see `Proof::as_written`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeAsWritten<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> jlong {
    env.with_env(|_env| -> JniResult<_> {
        let p = proof(handle)?.as_written()?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

/// The operations at the given 0-based positions, as a new handle (see `Proof::subset`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeSubset<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    positions: JIntArray<'local>,
) -> jlong {
    env.with_env(|env| -> JniResult<_> {
        let positions = ints(env, &positions, "positions")?
            .into_iter()
            .map(|p| {
                usize::try_from(p).map_err(|_| bad(format!("operation position {p} is negative")))
            })
            .collect::<JniResult<Vec<usize>>>()?;
        let p = proof(handle)?.subset(&positions)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}

/// The same workload under another table name, as a new handle (see `Proof::renamed`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_Workload_nativeRenamed<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
    table: JString<'local>,
) -> jlong {
    env.with_env(|env| -> JniResult<_> {
        let p = proof(handle)?.renamed(&string(env, &table, "table")?)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    })
    .resolve::<ThrowTierproof>()
}
