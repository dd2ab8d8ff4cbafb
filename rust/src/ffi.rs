//! The C face, for `solution.py` (ctypes). Every call returns a status and hands back one string
//! owned by Rust: the result on success, the error message otherwise. Free it with
//! [`tierproof_free`]. Panics are caught here and reported as status 2.

use crate::ddl::tier_table_ddl;
use crate::error::{Result, TierproofError};
use crate::row::Row;
use crate::upsert::upsert_inserts;
use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Parses `text` as an INT, naming `what` (e.g. "upsert #3 id") in any error.
pub fn parse_int(what: &str, text: &str) -> Result<i32> {
    let t = text.trim();
    let wide: i128 = t.parse().map_err(|_| TierproofError::NotAnInteger {
        what: what.to_string(),
        value: text.to_string(),
    })?;
    check_int(what, wide)
}

/// Refuses a value outside INT, naming it.
pub fn check_int(what: &str, value: i128) -> Result<i32> {
    i32::try_from(value).map_err(|_| TierproofError::OutOfRange {
        what: what.to_string(),
        value: value.to_string(),
    })
}

pub const STATUS_OK: c_int = 0;
pub const STATUS_BAD_INPUT: c_int = 1;
pub const STATUS_INTERNAL: c_int = 2;

/// The DDL of the tiered table named `table` (UTF-8, NUL-terminated).
///
/// # Safety
/// `table` must be a valid NUL-terminated string; `out` must be a valid pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierproof_tier_table_ddl(
    table: *const c_char,
    out: *mut *mut c_char,
) -> c_int {
    run(out, || tier_table_ddl(&text(table, "table")?))
}

/// One `INSERT` per upsert. `upserts_json` is a JSON array of `[id, bal]` pairs whose values are
/// decimal strings (any size: the range check and its message are the core's) and `bal` may be
/// `null`. The result is a JSON array of statements.
///
/// # Safety
/// Both strings must be valid and NUL-terminated; `out` must be a valid pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierproof_upsert_inserts(
    table: *const c_char,
    upserts_json: *const c_char,
    out: *mut *mut c_char,
) -> c_int {
    run(out, || {
        let table = text(table, "table")?;
        let pairs: Vec<(String, Option<String>)> =
            serde_json::from_str(&text(upserts_json, "upserts")?).map_err(|e| {
                TierproofError::InvalidInput(format!("upserts are not [id, bal] string pairs: {e}"))
            })?;
        let upserts = pairs
            .iter()
            .enumerate()
            .map(|(i, (id, bal))| {
                let id = parse_int(&format!("upsert #{} id", i + 1), id)?;
                let bal = match bal {
                    Some(b) => Some(parse_int(&format!("upsert #{} bal", i + 1), b)?),
                    None => None,
                };
                Ok(Row::new(id, bal))
            })
            .collect::<Result<Vec<Row>>>()?;
        let statements = upsert_inserts(&table, &upserts)?;
        serde_json::to_string(&statements).map_err(|e| TierproofError::Internal(e.to_string()))
    })
}

/// Frees a string this library handed out. Null is ignored.
///
/// # Safety
/// `s` must come from this library and be freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierproof_free(s: *mut c_char) {
    if !s.is_null() {
        drop(CString::from_raw(s));
    }
}

unsafe fn text(s: *const c_char, what: &str) -> Result<String> {
    if s.is_null() {
        return Err(TierproofError::InvalidInput(format!("{what} is null")));
    }
    CStr::from_ptr(s)
        .to_str()
        .map(str::to_string)
        .map_err(|_| TierproofError::InvalidInput(format!("{what} is not valid UTF-8")))
}

unsafe fn run(out: *mut *mut c_char, f: impl FnOnce() -> Result<String>) -> c_int {
    let (status, message) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(s)) => (STATUS_OK, s),
        Ok(Err(e)) if e.is_bad_input() => (STATUS_BAD_INPUT, e.to_string()),
        Ok(Err(e)) => (STATUS_INTERNAL, e.to_string()),
        Err(_) => (
            STATUS_INTERNAL,
            "tierproof native code panicked".to_string(),
        ),
    };
    if !out.is_null() {
        // A NUL inside a message would end it early; such input is refused before, but be safe.
        let c = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
        *out = c.into_raw();
    }
    status
}
