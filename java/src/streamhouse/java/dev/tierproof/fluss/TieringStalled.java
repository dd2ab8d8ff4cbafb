package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;

/**
 * Writes have stopped, and the lake did not reach the log end offset within the bound: the
 * streamhouse verdict is STALLED, with where each bucket stood as the evidence.
 */
public final class TieringStalled extends TierproofException {
    private final String evidence;
    private final long logEndOffset;

    TieringStalled(String evidence, long logEndOffset, long waitedSeconds) {
        super("tiering did not catch up within " + waitedSeconds + " s: " + evidence + Tiering.NO_CHANGE_NOTE);
        this.evidence = evidence;
        this.logEndOffset = logEndOffset;
    }

    /** Where tiering stood: the log's changes and buckets, the lake snapshot, the buckets behind. */
    public String evidence() {
        return evidence;
    }

    /** The sum of every bucket's log end offset. */
    public long logEndOffset() {
        return logEndOffset;
    }
}
