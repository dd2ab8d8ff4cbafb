//! `dev.tierproof.core.TextInput`.

use super::arrays::{bytes, string};
use super::{JniResult, ThrowTierproof};
use crate::model::csv::utf8_text;
use jni::objects::{JByteArray, JClass, JString};
use jni::EnvUnowned;

/// A file's bytes as text; invalid UTF-8 is refused naming `what` and the line.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_tierproof_core_TextInput_nativeUtf8Text<'local>(
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
