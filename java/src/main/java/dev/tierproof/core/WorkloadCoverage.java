package dev.tierproof.core;

import java.util.List;

/**
 * What a workload's proof exercises, in the core's words ({@code engine first-row},
 * {@code partition column DATE}, {@code partitions 2-4}, {@code type DECIMAL},
 * {@code option table.log.ttl}, {@code operations with deletes}, ...): a campaign counts them over
 * its trials, so a person sees what the search did not explore.
 */
public final class WorkloadCoverage {
    private WorkloadCoverage() {}

    /** Each thing {@code workload}'s proof exercises, once, sorted. */
    public static List<String> of(Workload workload) {
        NativeLibrary.load();
        return List.of(nativeCoverage(workload.handle()));
    }

    private static native String[] nativeCoverage(long handle);
}
