package dev.tierproof.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line plot as inline SVG that reads on its own: both axes titled, ticks at round values, a
 * legend, and events marked as labelled vertical rules. The page stays self-contained: no script,
 * no font but the reader's own sans-serif.
 */
final class SvgPlot {
    static final int WIDTH = 900;
    static final int HEIGHT = 320;
    private static final int LEFT = 76;
    private static final int RIGHT = 24;
    private static final int TOP = 44;
    private static final int BOTTOM = 50;
    /** Event labels closer than this (in pixels) to the previous one are left out: the rule stays. */
    private static final int LABEL_SPACING = 28;

    /** One line: its points (x, y) in the data's units; a filled line shades the area under it. */
    record Line(String name, String color, boolean filled, List<double[]> points) {}

    /** Something that happened at {@code x}: a vertical rule with a short label. */
    record Event(double x, String label) {}

    /** Something that held from {@code from} to {@code to}: a shaded band with a short label. */
    record Band(double from, double to, String label) {}

    private final String title;
    private final String xTitle;
    private final String yTitle;
    private final List<Line> lines = new ArrayList<>();
    private final List<Event> events = new ArrayList<>();
    private final List<Band> bands = new ArrayList<>();
    private String eventsName = "";
    private String bandsName = "";

    SvgPlot(String title, String xTitle, String yTitle) {
        this.title = title;
        this.xTitle = xTitle;
        this.yTitle = yTitle;
    }

    SvgPlot line(Line line) {
        lines.add(line);
        return this;
    }

    /** Marks {@code marks}, named {@code name} in the legend. */
    SvgPlot events(String name, List<Event> marks) {
        eventsName = name;
        events.addAll(marks);
        return this;
    }

    /** Shades {@code held}, named {@code name} in the legend. */
    SvgPlot bands(String name, List<Band> held) {
        bandsName = name;
        bands.addAll(held);
        return this;
    }

    String svg() {
        double lastX = Math.max(lines.stream().flatMap(l -> l.points().stream()).mapToDouble(p -> p[0]).max().orElse(1),
                bands.stream().mapToDouble(Band::to).max().orElse(0));
        Scale x = Scale.of(lastX, LEFT, WIDTH - RIGHT, false);
        Scale y = Scale.of(lines.stream().flatMap(l -> l.points().stream()).mapToDouble(p -> p[1]).max().orElse(1),
                HEIGHT - BOTTOM, TOP, true);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" viewBox=\"0 0"
                + " %d %d\" width=\"%d\" height=\"%d\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">"
                + "<title>%s</title>", WIDTH, HEIGHT, WIDTH, HEIGHT, Html.escape(title)));
        yGrid(svg, y);
        xTicks(svg, x);
        bandAreas(svg, x);
        eventRules(svg, x);
        lines.forEach(l -> svg.append(l.filled() ? area(l, x, y) : polyline(l, x, y)));
        axisTitles(svg);
        legend(svg);
        return svg.append("</svg>").toString();
    }

    /** Horizontal grid lines at the y ticks, their values left of the axis. */
    private static void yGrid(StringBuilder svg, Scale y) {
        for (double v : y.ticks()) {
            double py = y.at(v);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#444\">%s</text>", LEFT, WIDTH - RIGHT, py,
                    py, v == 0 ? "#888" : "#e4e4e4", LEFT - 8, py + 4, y.label(v)));
        }
    }

    /** The x axis's ticks and their values below it. */
    private static void xTicks(StringBuilder svg, Scale x) {
        int base = HEIGHT - BOTTOM;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#888\"/>",
                LEFT, LEFT, TOP, base));
        for (double v : x.ticks()) {
            double px = x.at(v);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#888\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#444\">%s</text>", px, px, base,
                    base + 5, px, base + 18, x.label(v)));
        }
    }

    /** Each band as a shaded stretch of the plot's height (at least 2 px wide), its label at its foot. */
    private void bandAreas(StringBuilder svg, Scale x) {
        for (Band b : bands) {
            double from = x.at(b.from());
            double width = Math.max(2, x.at(b.to()) - from);
            svg.append(String.format(Locale.ROOT, "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\""
                    + " height=\"%d\" fill=\"#c0392b\" fill-opacity=\"0.12\"><title>%s</title></rect>"
                    + "<text x=\"%.1f\" y=\"%d\" fill=\"#922b21\" font-size=\"10\">%s</text>", from, TOP, width,
                    HEIGHT - BOTTOM - TOP, Html.escape(b.label()), from + 2, HEIGHT - BOTTOM - 4,
                    Html.escape(b.label())));
        }
    }

    /** Each event as a dashed rule across the plot; labels where there is room for them. */
    private void eventRules(StringBuilder svg, Scale x) {
        double lastLabel = Double.NEGATIVE_INFINITY;
        for (Event e : events) {
            double px = x.at(e.x());
            svg.append(String.format(Locale.ROOT, "<line class=\"event\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\""
                    + " stroke=\"#8a5cc2\" stroke-opacity=\"0.6\" stroke-dasharray=\"3 3\"/>", px, px, TOP,
                    HEIGHT - BOTTOM));
            if (px - lastLabel >= LABEL_SPACING) {
                // Above the plot area, clear of the lines, which may run along its top.
                svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\""
                        + " fill=\"#6b3fa0\" font-size=\"11\">%s</text>", px, TOP - 4, Html.escape(e.label())));
                lastLabel = px;
            }
        }
    }

    private static String polyline(Line l, Scale x, Scale y) {
        return "<polyline fill=\"none\" stroke=\"" + l.color() + "\" stroke-width=\"2\" points=\"" + points(l, x, y)
                + "\"/>";
    }

    /** The line and the area under it, down to zero. */
    private static String area(Line l, Scale x, Scale y) {
        List<double[]> p = l.points();
        String closed = String.format(Locale.ROOT, "%.1f,%.1f %s %.1f,%.1f", x.at(p.get(0)[0]), y.at(0),
                points(l, x, y), x.at(p.get(p.size() - 1)[0]), y.at(0));
        return "<polygon fill=\"" + l.color() + "\" fill-opacity=\"0.18\" stroke=\"none\" points=\"" + closed + "\"/>"
                + polyline(l, x, y);
    }

    private static String points(Line l, Scale x, Scale y) {
        StringBuilder sb = new StringBuilder();
        l.points().forEach(p -> sb.append(String.format(Locale.ROOT, "%.1f,%.1f ", x.at(p[0]), y.at(p[1]))));
        return sb.toString().strip();
    }

    private void axisTitles(StringBuilder svg) {
        int midY = (TOP + HEIGHT - BOTTOM) / 2;
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#222\">%s</text>"
                + "<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\" fill=\"#222\">%s</text>",
                (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 10, Html.escape(xTitle), midY, Html.escape(yTitle)));
    }

    /** A row of swatches above the plot: each line's colour, then the events' rule. */
    private void legend(StringBuilder svg) {
        int at = LEFT;
        for (Line l : lines) {
            at = legendEntry(svg, at, "<rect width=\"14\" height=\"4\" y=\"-2\" fill=\"" + l.color() + "\"/>",
                    l.name());
        }
        if (!events.isEmpty()) {
            at = legendEntry(svg, at, "<line x1=\"7\" x2=\"7\" y1=\"-7\" y2=\"7\" stroke=\"#8a5cc2\""
                    + " stroke-dasharray=\"3 3\"/>", eventsName);
        }
        if (!bands.isEmpty()) {
            legendEntry(svg, at, "<rect width=\"14\" height=\"12\" y=\"-6\" fill=\"#c0392b\" fill-opacity=\"0.2\"/>",
                    bandsName);
        }
    }

    /** One legend entry at {@code x}; returns where the next one starts (a rough text width). */
    private static int legendEntry(StringBuilder svg, int x, String swatch, String name) {
        svg.append(String.format(Locale.ROOT, "<g transform=\"translate(%d 14)\">%s<text x=\"20\" y=\"4\""
                + " fill=\"#222\">%s</text></g>", x, swatch, Html.escape(name)));
        return x + 20 + (int) (name.length() * 6.6) + 24;
    }

    /**
     * One axis, from zero to a round value at or above the data's largest: ticks every
     * {@code step} (1, 2 or 5 times a power of ten: the smallest that needs at most eight), mapped
     * onto the pixels {@code from} to {@code to}.
     */
    record Scale(double top, double step, double from, double to, boolean counts) {
        static Scale of(double max, double from, double to, boolean counts) {
            double span = max > 0 ? max : 1;
            double raw = span / 8;
            double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
            double norm = raw / magnitude;
            double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
            if (counts) {
                step = Math.max(1, step); // no tick at half a change
            }
            return new Scale(Math.ceil(span / step - 1e-9) * step, step, from, to, counts);
        }

        /** Zero, then every step up to the top (counted, not summed: no drift of 0.1s adding up). */
        List<Double> ticks() {
            List<Double> out = new ArrayList<>();
            for (long i = 0; i <= Math.round(top / step); i++) {
                out.add(i * step);
            }
            return out;
        }

        double at(double v) {
            return from + (to - from) * v / top;
        }

        /** A tick's value: counts with thousands separators, seconds with the decimals the step needs. */
        String label(double v) {
            if (counts || step >= 1) {
                return String.format(Locale.ROOT, "%,d", Math.round(v));
            }
            int decimals = (int) Math.ceil(-Math.log10(step) - 1e-9);
            return String.format(Locale.ROOT, "%." + decimals + "f", v);
        }
    }
}
