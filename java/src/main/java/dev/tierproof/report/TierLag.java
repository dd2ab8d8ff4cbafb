package dev.tierproof.report;

/**
 * Where tiering stood at one moment of a streamhouse proof: how many changes the log held, how
 * many of them the latest lake snapshot held, and that snapshot's id (-1 before the first).
 * {@link TierLagPlots} draws them.
 */
public record TierLag(long atMillis, long logEnd, long tiered, long lakeSnapshot) {
    public long lag() {
        return logEnd - tiered;
    }
}
