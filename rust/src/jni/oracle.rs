//! `dev.tierproof.core.Oracle`.

use super::arrays::{bad, bools, ints, rows, string};
use super::{JniResult, ThrowTierproof};
use crate::oracle::{engine_state, judge, judge_against, Change, RowKind};
use crate::row::rows_from_columns;
use crate::spec::MergeEngine;
use jni::objects::{JBooleanArray, JByteArray, JClass, JIntArray, JObjectArray, JString};
use jni::sys::jboolean;
use jni::{Env, EnvUnowned};

/// Judges reads against the upserts; read `i` is `names[i]` with changes
/// `(kinds[i][j], ids[i][j], bals[i][j], balIsNull[i][j])`, against the last value per id or,
/// when `engine` is given, that merge engine's state. Returns the verdict as JSON.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_tierproof_core_Oracle_nativeJudge<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    up_ids: JIntArray<'local>,
    up_bals: JIntArray<'local>,
    up_null: JBooleanArray<'local>,
    keyed: jboolean,
    engine: JString<'local>,
    names: JObjectArray<'local, JString<'local>>,
    kinds: JObjectArray<'local, JByteArray<'local>>,
    ids: JObjectArray<'local, JIntArray<'local>>,
    bals: JObjectArray<'local, JIntArray<'local>>,
    bal_null: JObjectArray<'local, JBooleanArray<'local>>,
) -> JString<'local> {
    env.with_env(|env| -> JniResult<_> {
        let upserts = rows(env, &up_ids, &up_bals, &up_null)?;
        let n = names.len(env)?;
        for (what, len) in [
            ("kinds", kinds.len(env)?),
            ("ids", ids.len(env)?),
            ("bals", bals.len(env)?),
            ("balIsNull", bal_null.len(env)?),
        ] {
            if len != n {
                return Err(bad(format!("{n} read names but {len} {what} arrays")));
            }
        }
        let mut reads = Vec::with_capacity(n);
        for i in 0..n {
            let name = names.get_element(env, i)?;
            let (k, id, bal, null) = (
                kinds.get_element(env, i)?,
                ids.get_element(env, i)?,
                bals.get_element(env, i)?,
                bal_null.get_element(env, i)?,
            );
            reads.push((
                string(env, &name, "read name")?,
                read_changes(env, &k, &id, &bal, &null)?,
            ));
            // Free the per-read references: a verdict may hold many reads.
            env.delete_local_ref(name);
            env.delete_local_ref(k);
            env.delete_local_ref(id);
            env.delete_local_ref(bal);
            env.delete_local_ref(null);
        }
        // No engine: the promise itself, the last value per id.
        let verdict = if engine.is_null() {
            judge(&upserts, keyed, reads)
        } else {
            let engine: MergeEngine = string(env, &engine, "engine")?.parse()?;
            judge_against(engine_state(engine, &upserts), keyed, reads)
        };
        let json = serde_json::to_string(&verdict)
            .map_err(|e| crate::error::TierproofError::Internal(e.to_string()))?;
        Ok(JString::from_str(env, json)?)
    })
    .resolve::<ThrowTierproof>()
}

fn read_changes(
    env: &Env<'_>,
    kinds: &JByteArray<'_>,
    ids: &JIntArray<'_>,
    bals: &JIntArray<'_>,
    bal_null: &JBooleanArray<'_>,
) -> JniResult<Vec<Change>> {
    if kinds.is_null() {
        return Err(bad("kinds is null".to_string()));
    }
    let mut k = vec![0i8; kinds.len(env)?];
    kinds.get_region(env, 0, &mut k)?;
    let (i, b, n) = (
        ints(env, ids, "ids")?,
        ints(env, bals, "bals")?,
        bools(env, bal_null, "balIsNull")?,
    );
    if k.len() != i.len() || i.len() != b.len() || i.len() != n.len() {
        return Err(bad(format!(
            "change columns differ in length: {} kinds, {} ids, {} bals, {} null flags",
            k.len(),
            i.len(),
            b.len(),
            n.len()
        )));
    }
    rows_from_columns(&i, &b, &n)
        .into_iter()
        .zip(k)
        .enumerate()
        .map(|(index, (row, code))| {
            Ok(Change {
                kind: RowKind::from_code(index, i32::from(code))?,
                row,
            })
        })
        .collect()
}
