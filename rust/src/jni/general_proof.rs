//! `dev.tierproof.core.Workload`: a [`Proof`] behind a handle (a pointer the Java
//! object holds until `close()`), so the workload crosses JNI once, as the file's bytes.

use super::arrays::{
    bad, bytes, ints, nullable_string, nullable_string_array, pair_array, string, string_array,
    target_of,
};
use super::table_paths::option_pairs;
use super::JniResult;
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

pub(super) fn proof<'a>(handle: jlong) -> JniResult<&'a Proof> {
    if handle == 0 {
        return Err(bad("the workload is closed".to_string()));
    }
    // SAFETY: a non-zero handle is a pointer from `nativeOpen`, freed only by `nativeClose`,
    // which the Java object calls once and after which it never passes the handle again.
    Ok(unsafe { &*(handle as *const Proof) })
}

export! {
    /// Why the streaming replays of the Paimon table are not judged, or null when they are.
    fn Java_dev_tierproof_core_Workload_nativeReplayNotPromised<'local>(
        env,
        handle: jlong,
    ) -> JString<'local> {
        nullable_string(env, proof(handle)?.merge.replay_not_promised.as_deref())
    }
}

export! {
    /// Why one ordered job cannot write the workload as statements would, or null when it can.
    fn Java_dev_tierproof_core_Workload_nativeOrderedWriteRefused<'local>(
        env,
        handle: jlong,
    ) -> JString<'local> {
        nullable_string(env, proof(handle)?.ordered_write_refused().as_deref())
    }
}

export! {
    /// Why the table takes no deletes, or null when it does.
    fn Java_dev_tierproof_core_Workload_nativeDeletesRefused<'local>(
        env,
        handle: jlong,
    ) -> JString<'local> {
        nullable_string(env, proof(handle)?.merge.deletes_refused.as_deref())
    }
}

export! {
    /// A workload for the DDL's table; with a `promiseDdl` (else null) judged against that table's
    /// promise instead (see `Proof::open_judged_as`).
    fn Java_dev_tierproof_core_Workload_nativeOpen<'local>(
        env,
        target: jint,
        ddl: JString<'local>,
        promise_ddl: JString<'local>,
        csv: JByteArray<'local>,
    ) -> jlong {
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
    }
}

export! {
    /// Checks the DDL alone (what `nativeOpen` checks first); throws naming what is wrong.
    fn Java_dev_tierproof_core_Workload_nativeCheckTable<'local>(
        env,
        target: jint,
        ddl: JString<'local>,
    ) {
        Ok(Proof::check_table(
            target_of(target)?,
            &string(env, &ddl, "ddl")?,
        )?)
    }
}

export! {
    /// A seeded random workload for the table: `n` operations over about `keys` keys, with deletes
    /// if `deletes` and the table takes them, each partition column taking at most
    /// `partitionValues` values (0: as many as the keys make); with a `promiseDdl` (else null) made
    /// for that table and judged by its promise (see `Proof::generate_judged_as`).
    fn Java_dev_tierproof_core_Workload_nativeGenerate<'local>(
        env,
        target: jint,
        ddl: JString<'local>,
        promise_ddl: JString<'local>,
        n: jint,
        keys: jint,
        seed: jlong,
        deletes: jboolean,
        partition_values: jint,
    ) -> jlong {
        let n =
            usize::try_from(n).map_err(|_| bad(format!("--random {n} must not be negative")))?;
        let keys =
            u32::try_from(keys).map_err(|_| bad(format!("--keys {keys} must not be negative")))?;
        let partition_values = usize::try_from(partition_values).map_err(|_| {
            bad(format!(
                "--partition-values {partition_values} must not be negative"
            ))
        })?;
        let (target, ddl) = (target_of(target)?, string(env, &ddl, "ddl")?);
        let p = if promise_ddl.is_null() {
            Proof::generate_partitioned(
                target,
                &ddl,
                n,
                keys,
                seed as u64,
                deletes,
                partition_values,
            )?
        } else {
            let promise = string(env, &promise_ddl, "promiseDdl")?;
            Proof::generate_judged_as(
                target,
                &ddl,
                &promise,
                n,
                keys,
                seed as u64,
                partition_values,
            )?
        };
        Ok(Box::into_raw(Box::new(p)) as jlong)
    }
}

export! {
    /// The `index`th smaller or simpler workload of the same table, as a new handle, or 0 past the
    /// last (see `Proof::shrink_candidate`).
    fn Java_dev_tierproof_core_Workload_nativeShrinkCandidate<'local>(
        _env,
        handle: jlong,
        index: jint,
    ) -> jlong {
        let index =
            usize::try_from(index).map_err(|_| bad(format!("candidate {index} is negative")))?;
        Ok(match proof(handle)?.shrink_candidate(index) {
            Some(p) => Box::into_raw(Box::new(p)) as jlong,
            None => 0,
        })
    }
}

export! {
    /// The workload as CSV (what `nativeOpen` reads back).
    fn Java_dev_tierproof_core_Workload_nativeWorkloadCsv<'local>(
        env,
        handle: jlong,
    ) -> JString<'local> {
        Ok(JString::from_str(env, proof(handle)?.workload_csv())?)
    }
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

export! {
    /// The table as a `dev.tierproof.core.CheckedDdl`.
    fn Java_dev_tierproof_core_Workload_nativeTable<'local>(env, handle: jlong) -> JObject<'local> {
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
    }
}

export! {
    /// The statements, as labels and SQL alternating.
    fn Java_dev_tierproof_core_Workload_nativeStatements<'local>(
        env,
        handle: jlong,
        rows_per_insert: jint,
    ) -> JObjectArray<'local, JString<'local>> {
        let n = usize::try_from(rows_per_insert)
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| {
                bad(format!(
                    "rows per insert {rows_per_insert} must be at least 1"
                ))
            })?;
        pair_array(env, proof(handle)?.statements(n)?)
    }
}

export! {
    fn Java_dev_tierproof_core_Workload_nativeSentinelInsert<'local>(
        env,
        handle: jlong,
        watermark: jlong,
    ) -> JString<'local> {
        let sql = proof(handle)?.sentinel_insert(watermark)?;
        Ok(JString::from_str(env, sql)?)
    }
}

export! {
    fn Java_dev_tierproof_core_Workload_nativeSelectAll<'local>(
        env,
        handle: jlong,
        options: JObjectArray<'local, JString<'local>>,
    ) -> JString<'local> {
        let opts = option_pairs(env, &options)?;
        Ok(JString::from_str(env, proof(handle)?.select_all(&opts))?)
    }
}

export! {
    /// A read about to stream in: a pointer to its [`PendingRead`], freed (spill files and all) by
    /// `nativeCloseRead`. With a spill directory (else null), judged partition by partition
    /// (`Proof::new_spilled_read`): its changes go to `partitions` files there.
    fn Java_dev_tierproof_core_Workload_nativeNewRead<'local>(
        env,
        handle: jlong,
        name: JString<'local>,
        source: jint,
        dir: JString<'local>,
        partitions: jint,
    ) -> jlong {
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
    }
}

export! {
    /// The view reads (`Proof::view_queries`), flat: name, SQL, name, SQL, ...
    fn Java_dev_tierproof_core_Workload_nativeViewQueries<'local>(
        env,
        handle: jlong,
    ) -> JObjectArray<'local, JString<'local>> {
        let queries = proof(handle)?.view_queries()?;
        pair_array(env, queries.into_iter().map(|q| (q.name, q.sql)))
    }
}

export! {
    /// A view read (the `index`th of `nativeViewQueries`) about to stream in, freed by `nativeCloseRead`.
    fn Java_dev_tierproof_core_Workload_nativeNewViewRead<'local>(
        env,
        handle: jlong,
        name: JString<'local>,
        index: jint,
    ) -> jlong {
        let p = proof(handle)?;
        let view = usize::try_from(index)
            .ok()
            .and_then(|i| p.view_queries().ok()?.into_iter().nth(i))
            .ok_or_else(|| bad(format!("view read {index} does not exist")))?
            .view;
        let read = p.new_view_read(&string(env, &name, "read name")?, view);
        Ok(Box::into_raw(Box::new(read)) as jlong)
    }
}

fn pending<'a>(read: jlong) -> JniResult<&'a mut PendingRead> {
    if read == 0 {
        return Err(bad("the read is closed".to_string()));
    }
    // SAFETY: a non-zero read is a pointer from `nativeNewRead`, freed only by `nativeCloseRead`;
    // the Java object serializes its calls and zeroes the pointer before closing.
    Ok(unsafe { &mut *(read as *mut PendingRead) })
}

export! {
    /// A batch of changes in the wire format ([`crate::model::workloads::wire`]): decoded and folded at once.
    fn Java_dev_tierproof_core_Workload_nativeAppend<'local>(
        env,
        handle: jlong,
        read: jlong,
        batch: JByteArray<'local>,
        length: jint,
    ) {
        let p = proof(handle)?;
        let r = pending(read)?;
        let all = bytes(env, &batch, "batch")?;
        let n = usize::try_from(length)
            .ok()
            .filter(|n| *n <= all.len())
            .ok_or_else(|| bad(format!("batch length {length} is outside its array")))?;
        p.push_batch(r, &all[..n])?;
        Ok(())
    }
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

export! {
    /// The verdict over reads that streamed in, in the order given, as JSON for the Java records.
    fn Java_dev_tierproof_core_Workload_nativeJudge<'local>(
        env,
        handle: jlong,
        reads: JLongArray<'local>,
        failures: JObjectArray<'local, JString<'local>>,
        against_first: jboolean,
    ) -> JString<'local> {
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
    }
}

export! {
    /// The table's column names, in order.
    fn Java_dev_tierproof_core_Workload_nativeColumns<'local>(
        env,
        handle: jlong,
    ) -> JObjectArray<'local, JString<'local>> {
        let names: Vec<String> = proof(handle)?
            .shape
            .columns
            .iter()
            .map(|(name, _)| name.clone())
            .collect();
        string_array(env, &names)
    }
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
    let parts =
        crate::model::oracle::spill::partitions_for(changes.max(0) as u64, rows.max(0) as u64);
    jint::try_from(parts).unwrap_or(jint::MAX)
}

export! {
    /// How many operations the workload holds.
    fn Java_dev_tierproof_core_Workload_nativeOperations<'local>(_env, handle: jlong) -> jint {
        Ok(jint::try_from(proof(handle)?.ops.len()).unwrap_or(jint::MAX))
    }
}

export! {
    /// Operations `from..from + count` as text: per operation its kind, then its cells (null is NULL).
    fn Java_dev_tierproof_core_Workload_nativeOperationCells<'local>(
        env,
        handle: jlong,
        from: jint,
        count: jint,
    ) -> JObjectArray<'local, JString<'local>> {
        let (from, count) = (
            usize::try_from(from).map_err(|_| bad(format!("operation {from} is negative")))?,
            usize::try_from(count).map_err(|_| bad(format!("count {count} is negative")))?,
        );
        let cells = proof(handle)?.operation_cells(from, count);
        nullable_string_array(env, &cells)
    }
}

export! {
    /// The workload's first `n` operations, as a new handle (see `Proof::prefix`).
    fn Java_dev_tierproof_core_Workload_nativePrefix<'local>(
        _env,
        handle: jlong,
        n: jint,
    ) -> jlong {
        let n = usize::try_from(n).map_err(|_| bad(format!("prefix {n} is negative")))?;
        let p = proof(handle)?.prefix(n)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    }
}

export! {
    /// The operations as statements write them, as a new handle (see `Proof::as_written`).
    fn Java_dev_tierproof_core_Workload_nativeAsWritten<'local>(_env, handle: jlong) -> jlong {
        let p = proof(handle)?.as_written()?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    }
}

export! {
    /// The operations at the given 0-based positions, as a new handle (see `Proof::subset`).
    fn Java_dev_tierproof_core_Workload_nativeSubset<'local>(
        env,
        handle: jlong,
        positions: JIntArray<'local>,
    ) -> jlong {
        let positions = positions_of(env, &positions)?;
        let p = proof(handle)?.subset(&positions)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    }
}

export! {
    /// The same workload with the writes at the given 0-based positions of unknown outcome and
    /// those the client reported failed, as a new handle (see `Proof::with_outcomes`).
    fn Java_dev_tierproof_core_Workload_nativeUncertain<'local>(
        env,
        handle: jlong,
        unknown: JIntArray<'local>,
        rejected: JIntArray<'local>,
    ) -> jlong {
        let unknown = positions_of(env, &unknown)?;
        let rejected = positions_of(env, &rejected)?;
        let p = proof(handle)?.with_outcomes(&unknown, &rejected)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    }
}

/// Operation positions from Java: 0-based, none negative.
fn positions_of(env: &jni::Env<'_>, positions: &JIntArray<'_>) -> JniResult<Vec<usize>> {
    ints(env, positions, "positions")?
        .into_iter()
        .map(|p| usize::try_from(p).map_err(|_| bad(format!("operation position {p} is negative"))))
        .collect()
}

export! {
    /// The same workload with about `percent` % of its operations on one hot key, as a new handle
    /// (see `Proof::with_hot_keys`).
    fn Java_dev_tierproof_core_Workload_nativeHotKeys<'local>(
        _env,
        handle: jlong,
        percent: jint,
        seed: jlong,
    ) -> jlong {
        let percent = u32::try_from(percent)
            .map_err(|_| bad(format!("--hot-keys {percent} must not be negative")))?;
        let p = proof(handle)?.with_hot_keys(percent, seed as u64)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    }
}

export! {
    /// The same workload with long values in about one in four of its text cells, as a new handle
    /// (see `Proof::with_long_texts`).
    fn Java_dev_tierproof_core_Workload_nativeLongTexts<'local>(_env, handle: jlong, seed: jlong) -> jlong {
        let p = proof(handle)?.with_long_texts(seed as u64)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    }
}

export! {
    /// The workload's last column as one added later (`Proof::added_column`): name, type, the
    /// DDL without it, the `ALTER TABLE` that adds it, the `SELECT` before it is there.
    fn Java_dev_tierproof_core_Workload_nativeAddedColumn<'local>(
        env,
        handle: jlong,
    ) -> JObjectArray<'local, JString<'local>> {
        let a = proof(handle)?.added_column()?;
        string_array(env, &[a.name, a.data_type, a.ddl_before, a.alter, a.select_before])
    }
}

export! {
    /// The same workload with its last column added before operation `at` (1-based), as a new
    /// handle (see `Proof::with_added_column`).
    fn Java_dev_tierproof_core_Workload_nativeWithAddedColumn<'local>(
        _env,
        handle: jlong,
        at: jint,
    ) -> jlong {
        let at = usize::try_from(at).map_err(|_| bad(format!("add-column@{at} must be positive")))?;
        let p = proof(handle)?.with_added_column(at)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    }
}

export! {
    /// The same workload under another table name, as a new handle (see `Proof::renamed`).
    fn Java_dev_tierproof_core_Workload_nativeRenamed<'local>(
        env,
        handle: jlong,
        table: JString<'local>,
    ) -> jlong {
        let p = proof(handle)?.renamed(&string(env, &table, "table")?)?;
        Ok(Box::into_raw(Box::new(p)) as jlong)
    }
}
