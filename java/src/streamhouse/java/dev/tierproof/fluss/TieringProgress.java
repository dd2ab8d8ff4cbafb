package dev.tierproof.fluss;

import dev.tierproof.report.Unfinished;
import java.time.Duration;

/**
 * How far tiering moved while the proof waited for it: the changes tiered (every bucket's lake
 * offset, up to its log end offset, summed) at the first look and now, and when they last grew.
 * Tiering that stopped moving is STALLED; tiering still moving when the wait runs out is LAGGING.
 */
record TieringProgress(long first, long firstAtNanos, long tiered, long movedAtNanos) {
    static TieringProgress firstLook(long tiered, long nanos) {
        return new TieringProgress(tiered, nanos, tiered, nanos);
    }

    /** The next look: {@code tiered} changes tiered at {@code nanos}. */
    TieringProgress at(long now, long nanos) {
        return now > tiered ? new TieringProgress(first, firstAtNanos, now, nanos) : this;
    }

    /** How long no bucket's lake offset has moved, at {@code nanos}. */
    Duration still(long nanos) {
        return Duration.ofNanos(nanos - movedAtNanos);
    }

    boolean moved() {
        return tiered > first;
    }

    /** A duration as people read it: {@code 40 s}, {@code 0.3 s}. */
    static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s"
                : String.format(java.util.Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    /** Stalled: no lake offset moved, for as long as {@code why} says; then where tiering stood. */
    static Unfinished stalled(String why, String seen) {
        return Unfinished.stalled("no bucket's lake offset moved " + why + "; " + seen);
    }

    /** Lagging: still moving when the wait ran out at {@code nanos}, with the rate and what is left. */
    Unfinished lagging(long logEnd, long nanos, String seen) {
        double seconds = Math.max(1e-3, (movedAtNanos - firstAtNanos) / 1e9);
        double rate = (tiered - first) / seconds;
        long left = logEnd - tiered;
        return Unfinished.lagging(String.format(java.util.Locale.ROOT, "%d of the log's %d changes tiered, %d of"
                + " them in this wait's %s (%.1f changes/s, the last %s ago): about %d s more at that rate; %s",
                tiered, logEnd, tiered - first, seconds(Duration.ofNanos(nanos - firstAtNanos)), rate,
                seconds(still(nanos)), Math.round(left / rate), seen));
    }
}
