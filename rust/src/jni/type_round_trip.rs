//! `dev.tierproof.core.TypeRoundTrip`.

use super::arrays::{bad, string, string_array, text_rows};
use super::JniResult;
use crate::create_table::parse_create_table;
use crate::model::rows::round_trip::{differences, insert_statement};
use jni::objects::{JObjectArray, JString};
use jni::sys::jint;

fn row_width(w: jint) -> JniResult<usize> {
    usize::try_from(w)
        .ok()
        .filter(|w| *w > 0)
        .ok_or_else(|| bad(format!("width {w} must be at least 1")))
}

export! {
    fn Java_dev_tierproof_core_TypeRoundTrip_nativeInsertStatement<'local>(
        env,
        ddl: JString<'local>,
        cells: JObjectArray<'local, JString<'local>>,
        width: jint,
    ) -> JString<'local> {
        let table = parse_create_table(&string(env, &ddl, "ddl")?)?;
        let rows = text_rows(env, &cells, row_width(width)?)?;
        Ok(JString::from_str(env, insert_statement(&table, &rows)?)?)
    }
}

export! {
    fn Java_dev_tierproof_core_TypeRoundTrip_nativeDifferences<'local>(
        env,
        ddl: JString<'local>,
        written: JObjectArray<'local, JString<'local>>,
        read: JObjectArray<'local, JString<'local>>,
        width: jint,
    ) -> JObjectArray<'local, JString<'local>> {
        let table = parse_create_table(&string(env, &ddl, "ddl")?)?;
        let w = text_rows(env, &written, row_width(width)?)?;
        let r = text_rows(env, &read, row_width(width)?)?;
        string_array(env, &differences(&table, &w, &r)?)
    }
}
