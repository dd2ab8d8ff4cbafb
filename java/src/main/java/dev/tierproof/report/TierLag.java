package dev.tierproof.report;

import java.util.List;

/**
 * Where tiering stood at one moment of a streamhouse proof: how many changes the log held, how
 * many of them the latest lake snapshot held, and that snapshot's id (-1 before the first).
 */
public record TierLag(long atMillis, long logEnd, long tiered, long lakeSnapshot) {
    public long lag() {
        return logEnd - tiered;
    }

    /**
     * The log end and the tiered changes over time as a small SVG line chart (the gap between the
     * two lines is the lag); empty when there are fewer than two samples.
     */
    public static String svg(List<TierLag> samples) {
        if (samples.size() < 2) {
            return "";
        }
        int width = 640;
        int height = 220;
        int pad = 40;
        long lastAt = Math.max(1, samples.get(samples.size() - 1).atMillis());
        long top = Math.max(1, samples.stream().mapToLong(s -> Math.max(s.logEnd(), s.tiered())).max().orElse(1));
        StringBuilder log = new StringBuilder();
        StringBuilder lake = new StringBuilder();
        for (TierLag s : samples) {
            double x = pad + (width - 2.0 * pad) * s.atMillis() / lastAt;
            log.append(String.format(java.util.Locale.ROOT, "%.1f,%.1f ", x, y(s.logEnd(), top, height, pad)));
            lake.append(String.format(java.util.Locale.ROOT, "%.1f,%.1f ", x, y(s.tiered(), top, height, pad)));
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height
                + "\" role=\"img\" aria-label=\"tier lag over time\" font-family=\"sans-serif\" font-size=\"11\">"
                + "<rect x=\"" + pad + "\" y=\"" + pad / 2 + "\" width=\"" + (width - 2 * pad) + "\" height=\""
                + (height - 1.5 * pad) + "\" fill=\"none\" stroke=\"#bbb\"/>"
                + "<polyline fill=\"none\" stroke=\"#c33\" stroke-width=\"1.5\" points=\"" + log + "\"/>"
                + "<polyline fill=\"none\" stroke=\"#36c\" stroke-width=\"1.5\" points=\"" + lake + "\"/>"
                + "<text x=\"" + pad + "\" y=\"" + (height - 8) + "\">0 ms</text>"
                + "<text x=\"" + (width - pad) + "\" y=\"" + (height - 8) + "\" text-anchor=\"end\">" + lastAt
                + " ms</text>"
                + "<text x=\"" + (pad - 4) + "\" y=\"" + (pad / 2 + 10) + "\" text-anchor=\"end\">" + top + "</text>"
                + "<text x=\"" + (pad + 8) + "\" y=\"" + (pad / 2 + 14) + "\" fill=\"#c33\">log end offset (changes"
                + " written)</text><text x=\"" + (pad + 8) + "\" y=\"" + (pad / 2 + 28) + "\" fill=\"#36c\">lake"
                + " snapshot offsets (changes tiered)</text></svg>";
    }

    private static double y(long value, long top, int height, int pad) {
        return pad / 2.0 + (height - 1.5 * pad) * (1 - (double) value / top);
    }
}
