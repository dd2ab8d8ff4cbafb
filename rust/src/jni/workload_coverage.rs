//! `dev.tierproof.core.WorkloadCoverage`: what a workload's proof exercises, for a campaign's
//! coverage (see `Proof::coverage`).

use super::arrays::string_array;
use super::general_proof::proof;
use jni::objects::{JObjectArray, JString};
use jni::sys::jlong;

export! {
    fn Java_dev_tierproof_core_WorkloadCoverage_nativeCoverage<'local>(
        env,
        handle: jlong,
    ) -> JObjectArray<'local, JString<'local>> {
        string_array(env, &proof(handle)?.coverage())
    }
}
