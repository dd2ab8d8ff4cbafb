package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import dev.tierproof.report.Unfinished;

/**
 * Writes have stopped, and the lake did not reach the log end offset: tiering stopped moving
 * (STALLED) or was still moving when the wait ran out (LAGGING), with where each bucket stood.
 */
public final class TieringUnfinished extends TierproofException {
    private final Unfinished unfinished;
    private final long logEndOffset;

    TieringUnfinished(Unfinished unfinished, long logEndOffset) {
        super((unfinished.moving() ? "tiering was still catching up when the wait ran out: "
                : "tiering stopped moving: ") + unfinished.evidence() + Tiering.NO_CHANGE_NOTE);
        this.unfinished = unfinished;
        this.logEndOffset = logEndOffset;
    }

    /** Stalled or lagging, and where tiering stood. */
    public Unfinished unfinished() {
        return unfinished;
    }

    /** The sum of every bucket's log end offset. */
    public long logEndOffset() {
        return logEndOffset;
    }
}
