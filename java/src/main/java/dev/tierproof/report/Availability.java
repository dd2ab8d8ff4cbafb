package dev.tierproof.report;

import java.util.List;

/**
 * Whether the cluster served the table again once its faults had healed: every bucket with a
 * leader and every replica back in its in-sync set, within a bound taken from the cluster's own
 * settings (its ZooKeeper session timeout and {@code log.replica.max-lag-time}). When not, the
 * run's verdict is UNAVAILABLE, whatever its reads held; the timeline of leaders and ISRs is the
 * evidence either way.
 *
 * @param available whether every bucket was led and in sync within the bound
 * @param boundMillis the bound, from the last heal
 * @param recoveredMillis how long after the last heal that held, or -1 when it never did
 * @param evidence one sentence: what held, or which buckets lacked a leader or replicas at the bound
 * @param timeline each change seen, {@code 1200 ms: b0: leader 1 (epoch 2), isr [1] of [0, 1]}
 */
public record Availability(boolean available, long boundMillis, long recoveredMillis, String evidence,
        List<String> timeline) {
    public Availability {
        java.util.Objects.requireNonNull(evidence, "evidence");
        timeline = List.copyOf(timeline);
    }

    /** The summary's line for it. */
    public String line() {
        return (available ? "available" : "UNAVAILABLE") + ": " + evidence;
    }
}
