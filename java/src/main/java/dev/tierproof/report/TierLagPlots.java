package dev.tierproof.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The tier lag samples as the page's two plots, time in seconds along both: the changes in the
 * log and in the lake, and the gap between them (the lag). Each lake snapshot is marked where the
 * watch first saw it: the samples hold the snapshot id, not the moment tiering committed it, so
 * a mark can be up to one poll late.
 */
final class TierLagPlots {
    private static final String LOG = "#c0392b";
    private static final String LAKE = "#2e6fd8";
    private static final String LAG = "#d9822b";

    private TierLagPlots() {}

    /** The two plots as SVG; none for fewer than two samples (nothing to draw a line through). */
    static List<String> svgs(List<TierLag> samples) {
        return svgs(samples, List.of());
    }

    /** As {@link #svgs(List)}, each fault that held shaded over both. */
    static List<String> svgs(List<TierLag> samples, List<FaultBand> faults) {
        if (samples.size() < 2) {
            return List.of();
        }
        List<SvgPlot.Event> snapshots = snapshots(samples);
        List<SvgPlot.Band> bands = faults.stream().map(f -> new SvgPlot.Band(f.fromMillis() / 1000.0,
                f.toMillis() / 1000.0, f.fault())).toList();
        String written = new SvgPlot("Changes in the Fluss log and in the lake over time", "time since the"
                + " watch started (s)", "changes")
                .line(new SvgPlot.Line("log end offset (changes written)", LOG, false, points(samples, false)))
                .line(new SvgPlot.Line("changes tiered into the lake", LAKE, false, points(samples, true)))
                .events("lake snapshot id, when first seen", snapshots).bands("fault", bands).svg();
        String lag = new SvgPlot("Tier lag over time", "time since the watch started (s)", "changes not yet tiered")
                .line(new SvgPlot.Line("tier lag (log end − tiered)", LAG, true, lag(samples)))
                .events("lake snapshot id, when first seen", snapshots).bands("fault", bands).svg();
        return List.of(written, lag);
    }

    private static List<double[]> points(List<TierLag> samples, boolean tiered) {
        return steps(samples, s -> tiered ? s.tiered() : s.logEnd());
    }

    private static List<double[]> lag(List<TierLag> samples) {
        return steps(samples, TierLag::lag);
    }

    /**
     * The values as steps: each holds until the next poll saw another. A line drawn straight
     * between two polls would show values no poll saw.
     */
    private static List<double[]> steps(List<TierLag> samples, ToLongFunction<TierLag> value) {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            TierLag s = samples.get(i);
            if (i > 0) {
                out.add(new double[] {seconds(s), value.applyAsLong(samples.get(i - 1))});
            }
            out.add(new double[] {seconds(s), value.applyAsLong(s)});
        }
        return out;
    }

    /** The first sample of each lake snapshot id (none before the first snapshot, id -1). */
    private static List<SvgPlot.Event> snapshots(List<TierLag> samples) {
        List<SvgPlot.Event> out = new ArrayList<>();
        long last = -1;
        for (TierLag s : samples) {
            if (s.lakeSnapshot() >= 0 && s.lakeSnapshot() != last) {
                out.add(new SvgPlot.Event(seconds(s), String.valueOf(s.lakeSnapshot())));
                last = s.lakeSnapshot();
            }
        }
        return out;
    }

    private static double seconds(TierLag s) {
        return s.atMillis() / 1000.0;
    }
}
