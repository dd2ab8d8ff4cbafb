//! `dev.tierproof.core.TextInput`.

use super::arrays::{bytes, string};
use crate::model::workloads::csv::utf8_text;
use jni::objects::{JByteArray, JString};

export! {
    /// A file's bytes as text; invalid UTF-8 is refused naming `what` and the line.
    fn Java_dev_tierproof_core_TextInput_nativeUtf8Text<'local>(
        env,
        what: JString<'local>,
        content: JByteArray<'local>,
    ) -> JString<'local> {
        let what = string(env, &what, "what")?;
        let raw = bytes(env, &content, "bytes")?;
        Ok(JString::from_str(env, utf8_text(&what, &raw)?)?)
    }
}
