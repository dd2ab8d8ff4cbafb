//! Conversions between Java arrays/strings and the core's types.

use super::{JniFailure, JniResult};
use crate::error::TierproofError;
use crate::row::{rows_from_columns, Row};
use jni::objects::{JBooleanArray, JByteArray, JIntArray, JObjectArray, JString};
use jni::Env;

pub fn string(env: &Env<'_>, s: &JString<'_>, what: &str) -> JniResult<String> {
    if s.is_null() {
        return Err(bad(format!("{what} is null")));
    }
    Ok(s.try_to_string(env)?)
}

pub fn ints(env: &Env<'_>, a: &JIntArray<'_>, what: &str) -> JniResult<Vec<i32>> {
    if a.is_null() {
        return Err(bad(format!("{what} is null")));
    }
    let mut v = vec![0; a.len(env)?];
    a.get_region(env, 0, &mut v)?;
    Ok(v)
}

pub fn bools(env: &Env<'_>, a: &JBooleanArray<'_>, what: &str) -> JniResult<Vec<bool>> {
    if a.is_null() {
        return Err(bad(format!("{what} is null")));
    }
    let mut v = vec![false; a.len(env)?];
    a.get_region(env, 0, &mut v)?;
    Ok(v)
}

/// A `byte[]` as bytes.
pub fn bytes(env: &Env<'_>, a: &JByteArray<'_>, what: &str) -> JniResult<Vec<u8>> {
    if a.is_null() {
        return Err(bad(format!("{what} is null")));
    }
    let mut raw = vec![0i8; a.len(env)?];
    a.get_region(env, 0, &mut raw)?;
    Ok(raw.into_iter().map(|b| b as u8).collect())
}

/// A `String[]` whose null elements are NULL cells, cut into rows of `width`.
pub fn text_rows(
    env: &mut Env<'_>,
    cells: &JObjectArray<'_, JString<'_>>,
    width: usize,
) -> JniResult<Vec<Vec<Option<String>>>> {
    if cells.is_null() {
        return Err(bad("cells are null".to_string()));
    }
    let n = cells.len(env)?;
    if width == 0 || n % width != 0 {
        return Err(bad(format!("{n} cells do not make rows of {width}")));
    }
    let mut flat = Vec::with_capacity(n);
    for i in 0..n {
        let cell = cells.get_element(env, i)?;
        flat.push(if cell.is_null() {
            None
        } else {
            Some(string(env, &cell, "cell")?)
        });
        env.delete_local_ref(cell);
    }
    Ok(flat.chunks(width).map(<[Option<String>]>::to_vec).collect())
}

/// Rows from the `(ids, bals, balIsNull)` columns; the three must have one length.
pub fn rows(
    env: &Env<'_>,
    ids: &JIntArray<'_>,
    bals: &JIntArray<'_>,
    bal_null: &JBooleanArray<'_>,
) -> JniResult<Vec<Row>> {
    let (i, b, n) = (
        ints(env, ids, "ids")?,
        ints(env, bals, "bals")?,
        bools(env, bal_null, "balIsNull")?,
    );
    if i.len() != b.len() || i.len() != n.len() {
        return Err(bad(format!(
            "row columns differ in length: {} ids, {} bals, {} null flags",
            i.len(),
            b.len(),
            n.len()
        )));
    }
    Ok(rows_from_columns(&i, &b, &n))
}

/// A `String[]` of the given strings, `None` as null.
pub fn nullable_string_array<'local>(
    env: &mut Env<'local>,
    items: &[Option<String>],
) -> JniResult<JObjectArray<'local, JString<'local>>> {
    let array = JObjectArray::<JString>::new(env, items.len(), JString::null())?;
    for (i, s) in items.iter().enumerate() {
        if let Some(s) = s {
            let js = JString::from_str(env, s)?;
            array.set_element(env, i, &js)?;
            env.delete_local_ref(js);
        }
    }
    Ok(array)
}

/// A `String[]` of the given strings.
pub fn string_array<'local>(
    env: &mut Env<'local>,
    items: &[String],
) -> JniResult<JObjectArray<'local, JString<'local>>> {
    let empty = JString::from_str(env, "")?;
    let array = JObjectArray::<JString>::new(env, items.len(), &empty)?;
    for (i, s) in items.iter().enumerate() {
        let js = JString::from_str(env, s)?;
        array.set_element(env, i, &js)?;
        env.delete_local_ref(js);
    }
    Ok(array)
}

pub fn bad(message: String) -> JniFailure {
    JniFailure::Core(TierproofError::InvalidInput(message))
}

/// A Java string, or null for `None`.
pub fn nullable_string<'local>(
    env: &mut Env<'local>,
    text: Option<&str>,
) -> JniResult<JString<'local>> {
    Ok(match text {
        Some(t) => JString::from_str(env, t)?,
        None => JString::default(),
    })
}

/// `Workload.Target`'s ordinal.
pub fn target_of(ordinal: jni::sys::jint) -> JniResult<crate::model::merge::Target> {
    match ordinal {
        0 => Ok(crate::model::merge::Target::Paimon),
        1 => Ok(crate::model::merge::Target::Fluss),
        other => Err(bad(format!("no target {other}"))),
    }
}

/// Pairs as one flat array: first, second, first, second, ... (Java reads them two at a time).
pub fn pair_array<'local>(
    env: &mut Env<'local>,
    pairs: impl IntoIterator<Item = (String, String)>,
) -> JniResult<JObjectArray<'local, JString<'local>>> {
    let flat: Vec<String> = pairs.into_iter().flat_map(|(a, b)| [a, b]).collect();
    string_array(env, &flat)
}
