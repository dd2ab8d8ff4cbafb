//! The JNI face: one module per Java class in `dev.tierproof.core`. Each export runs inside
//! `EnvUnowned::with_env`, which catches panics; [`ThrowTierproof`] turns a core error into
//! `IllegalArgumentException` (bad input) or `TierproofException` (anything else), and a panic
//! into `TierproofException`. Nothing unwinds into the JVM.

/// One JNI export: `fn NAME<'local>(env, ARGS) -> RET { BODY }` becomes the `extern "system"`
/// function the JVM binds by NAME, with the JNI environment and the class before ARGS. BODY runs
/// inside `EnvUnowned::with_env` (which catches panics) with `env` naming its `Env`, and returns a
/// [`JniResult`]; what it fails with is thrown by [`ThrowTierproof`]. Nothing unwinds into the JVM.
macro_rules! export {
    ($(#[$meta:meta])* fn $name:ident<$lt:lifetime>($env:pat $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)? $body:block) => {
        $(#[$meta])*
        #[unsafe(no_mangle)]
        pub extern "system" fn $name<$lt>(
            mut env: ::jni::EnvUnowned<$lt>,
            _class: ::jni::objects::JClass<$lt>,
            $($arg: $ty),*
        ) $(-> $ret)? {
            env.with_env(|$env| -> $crate::jni::JniResult<_> { $body })
                .resolve::<$crate::jni::ThrowTierproof>()
        }
    };
}

mod arrays;
mod ddl;
mod general_proof;
mod table_paths;
mod text_input;
mod type_round_trip;
mod upserts;
mod workload_coverage;

use crate::error::TierproofError;
use jni::errors::ErrorPolicy;
use jni::strings::JNIString;
use jni::Env;
use std::any::Any;

/// What an export can fail with: the core's error, or JNI itself.
#[derive(Debug, thiserror::Error)]
pub enum JniFailure {
    #[error(transparent)]
    Core(#[from] TierproofError),
    #[error("JNI call failed: {0}")]
    Jni(#[from] jni::errors::Error),
}

pub type JniResult<T> = std::result::Result<T, JniFailure>;

/// The error policy of every export.
pub struct ThrowTierproof;

const ILLEGAL_ARGUMENT: &str = "java/lang/IllegalArgumentException";
const TIERPROOF_EXCEPTION: &str = "dev/tierproof/core/TierproofException";

fn throw(env: &mut Env<'_>, class: &str, message: &str) {
    // `throw_new` returns Err(JavaException) once it has thrown: that is the success case here.
    let _ = env.throw_new(JNIString::from(class), JNIString::from(message));
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

impl<T: Default> ErrorPolicy<T, JniFailure> for ThrowTierproof {
    type Captures<'unowned_env_local: 'native_method, 'native_method> = ();

    fn on_error<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _cap: &mut Self::Captures<'unowned_env_local, 'native_method>,
        err: JniFailure,
    ) -> jni::errors::Result<T> {
        if env.exception_check() {
            return Ok(T::default()); // a Java exception is already on its way
        }
        match &err {
            JniFailure::Core(e) if e.is_bad_input() => throw(env, ILLEGAL_ARGUMENT, &e.detail()),
            _ => throw(env, TIERPROOF_EXCEPTION, &err.to_string()),
        }
        Ok(T::default())
    }

    fn on_panic<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _cap: &mut Self::Captures<'unowned_env_local, 'native_method>,
        payload: Box<dyn Any + Send + 'static>,
    ) -> jni::errors::Result<T> {
        let message = format!(
            "tierproof native code panicked: {}",
            panic_message(payload.as_ref())
        );
        // Dropping some payloads can panic again: leak it rather than risk that.
        std::mem::forget(payload);
        if !env.exception_check() {
            throw(env, TIERPROOF_EXCEPTION, &message);
        }
        Ok(T::default())
    }
}
