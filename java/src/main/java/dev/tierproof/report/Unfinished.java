package dev.tierproof.report;

/**
 * Writes had stopped and the lake did not catch up with the log: either tiering stopped moving
 * (STALLED: no bucket's lake offset moved for a whole window, a finding) or it was still moving
 * when the wait ran out (LAGGING: slow, not stuck; the run did not come to a verdict on the reads).
 *
 * @param moving whether a bucket's lake offset still moved within the last window
 * @param evidence where tiering stood: changes tiered of the log's, the buckets behind, the rate
 */
public record Unfinished(boolean moving, String evidence) {
    public Unfinished {
        java.util.Objects.requireNonNull(evidence, "evidence");
    }

    public static Unfinished stalled(String evidence) {
        return new Unfinished(false, evidence);
    }

    public static Unfinished lagging(String evidence) {
        return new Unfinished(true, evidence);
    }

    /** The verdict's word: LAGGING or STALLED. */
    public String word() {
        return moving ? "LAGGING" : "STALLED";
    }

    /** The JSON report's key for the evidence: {@code lagging} or {@code stalled}. */
    public String key() {
        return moving ? "lagging" : "stalled";
    }

    /** The sentence the summary gives after the word. */
    public String reason() {
        return moving ? "writes had stopped and the lake was still catching up when the wait ran out (slow, not"
                + " stalled): " + evidence
                : "writes had stopped and the lake did not reach the log end offset: " + evidence;
    }
}
