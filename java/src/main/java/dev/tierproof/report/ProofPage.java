package dev.tierproof.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tierproof.core.Versions;
import dev.tierproof.core.verdict.Anomaly;
import dev.tierproof.core.verdict.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A proof's report as a page people read, as Jepsen's analyses are: the verdict in the run's own
 * word and why, then the reads and how they differ, the checkpoints, the tier lag plotted, and
 * what the command line printed, folded away, last. It shows what the core judged and the report
 * says; it decides nothing of its own.
 */
final class ProofPage {
    /** Rows of a difference listed on the page, of each kind; the JSON report has them all. */
    private static final int MAX_ROWS = 20;
    /** A detail line for people: {@code written by       : the Fluss client, ...}. */
    private static final Pattern DETAIL = Pattern.compile("([^:]{1,24}?)\\s*: (.*)", Pattern.DOTALL);

    private final ProofReport report;
    private final Verdict verdict;
    private final String ddlLabel;
    private final JsonNode bounds;

    ProofPage(ProofReport report, String ddlLabel) {
        this.report = report;
        this.verdict = report.verdict();
        this.ddlLabel = ddlLabel;
        this.bounds = report.json().path("bounds");
    }

    String html() {
        return new HtmlPage("tierproof " + subject() + ": " + report.verdictWord())
                .add(banner())
                .section("why", "Why", why())
                .section("reads", "Reads", reads())
                .section("differences", "Differences", differences())
                .section("checkpoints", "Checkpoints and cuts", checkpoints())
                .section("tier-lag", "Tier lag while the proof ran", plots())
                .section("availability", "Leaders and in-sync replicas", availability())
                .section("run", "The run", run())
                .collapsed("What the command line printed", report.text(ddlLabel))
                .add(footer())
                .render();
    }

    /** The versions the proof ran on: {@code tierproof · flink 1.20.3 · paimon 1.3.1 · fluss ...}. */
    private static String footer() {
        return Html.text("footer", "", "tierproof · " + String.join(" · ", Versions.all().entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue()).toList()));
    }

    /** The command and the table: {@code streamhouse fluss.orders}. */
    private String subject() {
        return (report.json().path("command").asText("proof") + " " + report.json().path("table").asText("")).strip();
    }

    /** The verdict's word, big, and the sentence the run gives with it (or the triage, when it gives none). */
    private String banner() {
        String word = report.verdictWord();
        String lead = report.verdictReason();
        if (lead.isEmpty() && !verdict.consistent()) {
            lead = "Triage: " + report.triage();
        }
        return "<header class=\"verdict " + word.toLowerCase(Locale.ROOT) + "\">"
                + Html.text("p", "kicker", "tierproof " + subject()) + Html.text("h1", "", word)
                + (lead.isEmpty() ? "" : Html.text("p", "lead", lead)) + "</header>";
    }

    /** What the run says went wrong: its failures, the reads that differ, the checkpoints that failed. */
    private String why() {
        List<String> items = new ArrayList<>();
        verdict.failures().forEach(f -> items.add("<strong>failure:</strong> " + Html.escape(f)));
        verdict.reads().stream().filter(r -> !r.consistent()).forEach(r -> items.add(
                Html.text("code", "", r.name()) + ": " + Html.escape(r.reason())));
        report.checkpoints().stream().filter(c -> !c.consistent()).forEach(c -> items.add(
                "<strong>checkpoint</strong> " + Html.escape(c.label()) + ": " + Html.escape(c.status())));
        if (items.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("<ul class=\"why\">");
        items.forEach(i -> sb.append(Html.element("li", "", i)));
        return sb.append("</ul>").toString();
    }

    /**
     * Every read in the order judged, then those that failed or did not run; each with how the run
     * bounded it, when the run recorded that (the streamhouse proof and the audit do).
     */
    private String reads() {
        HtmlTable table = bounds.isEmpty() ? new HtmlTable("read", "changes", "rows", "status").numeric(1, 2)
                : new HtmlTable("read", "bounded by", "changes", "rows", "status").numeric(2, 3);
        for (Verdict.Read r : verdict.reads()) {
            table.row(readRow(r.name(), Html.count(r.changes()), Html.count(r.rowCount()), readStatus(r)));
        }
        for (String name : unjudged()) {
            String state = report.failedReads().contains(name) ? "failed" : "not run";
            table.row(readRow(name, "—", "—", badge(state, state.toUpperCase(Locale.ROOT))));
        }
        return expectedState() + (table.isEmpty() ? "" : table.html());
    }

    /** A row of the reads table: the bound follows the name when the run recorded bounds. */
    private String[] readRow(String name, String changes, String rows, String status) {
        String read = Html.text("code", "", name);
        return bounds.isEmpty() ? new String[] {read, changes, rows, status}
                : new String[] {read, bound(name), changes, rows, status};
    }

    private String expectedState() {
        return "<p>Expected state: <strong>" + Html.count(verdict.expectedRowCount()) + " rows</strong>, "
                + Html.escape(verdict.promise()) + ". Columns " + Html.text("code", "", Verdict.show(verdict.columns()))
                + (verdict.allRows() ? "" : "; judged partition by partition (counted, not held)") + ".</p>";
    }

    /** Reads the report names (their bounds, or as failed) that the verdict does not hold. */
    private Set<String> unjudged() {
        Set<String> names = new LinkedHashSet<>();
        bounds.fieldNames().forEachRemaining(names::add);
        names.addAll(new java.util.TreeSet<>(report.failedReads()));
        verdict.reads().forEach(r -> names.remove(r.name()));
        return names;
    }

    /** How the run bounded a read, as it recorded it; a dash when it recorded none for this one. */
    private String bound(String read) {
        JsonNode b = bounds.path(read);
        return b.isTextual() ? Html.escape(b.asText()) : "<span class=\"muted\">—</span>";
    }

    private static String readStatus(Verdict.Read r) {
        StringBuilder sb = new StringBuilder(r.consistent() ? badge("consistent", "CONSISTENT")
                : badge("inconsistent", "INCONSISTENT") + " " + Html.escape(r.reason()));
        r.notes().forEach(n -> sb.append(Html.text("span", "note", "note: " + n)));
        return sb.toString();
    }

    /** Each comparison that found rows apart, as a table of them; then each read's anomalies. */
    private String differences() {
        StringBuilder sb = new StringBuilder();
        verdict.checks().stream().filter(c -> !c.equal()).forEach(c -> sb.append(check(c)));
        verdict.reads().stream().filter(r -> !r.anomalies().isEmpty()).forEach(r -> sb.append(anomalies(r)));
        return sb.toString();
    }

    private String check(Verdict.Check c) {
        String left = c.left().equals("expected") ? "the expected state" : c.left();
        List<String> header = new ArrayList<>(List.of(""));
        header.addAll(verdict.columns());
        HtmlTable table = new HtmlTable(header.toArray(String[]::new)).styled("rows");
        diffRows(table, "missing", c.missing());
        diffRows(table, "extra", c.extra());
        return Html.element("h3", "", Html.text("code", "", c.right()) + " vs " + Html.escape(left))
                + Html.text("p", "", "missing " + c.missing().size() + ": rows " + left + " holds that " + c.right()
                        + " lacks; extra " + c.extra().size() + ": rows " + c.right() + " holds beyond them"
                        + (c.leftOut() > 0 ? "; and " + c.leftOut() + " more differences, not listed" : "") + ".")
                + table.html();
    }

    /** The first rows of one kind, each cell as the core canonicalised it; a last row counts the rest. */
    private void diffRows(HtmlTable table, String kind, List<List<String>> rows) {
        rows.stream().limit(MAX_ROWS).forEach(row -> {
            List<String> cells = new ArrayList<>(List.of(badge(kind, kind)));
            row.forEach(cell -> cells.add(cell(cell)));
            table.row(cells.toArray(String[]::new));
        });
        if (rows.size() > MAX_ROWS) {
            table.row(badge(kind, kind), Html.text("span", "muted", "… " + (rows.size() - MAX_ROWS) + " more "
                    + kind + " rows (all in the JSON report)"));
        }
    }

    /** A cell's value; NULL and the empty text marked, so that neither reads as the other. */
    private static String cell(String value) {
        if (value == null) {
            return Html.text("span", "null", "NULL");
        }
        return value.isEmpty() ? Html.text("span", "null", "(empty)") : Html.text("span", "mono", value);
    }

    private static String anomalies(Verdict.Read r) {
        HtmlTable table = new HtmlTable("change #", "change", "why").numeric(0).styled("rows");
        r.anomalies().stream().limit(MAX_ROWS).forEach(a -> table.row(Html.count(a.index()),
                Html.text("code", "", a.change()), Html.escape(a.reason())));
        List<Anomaly> all = r.anomalies();
        return Html.element("h3", "", "Anomalies in " + Html.text("code", "", r.name())) + table.html()
                + (all.size() > MAX_ROWS ? Html.text("p", "muted", "… " + (all.size() - MAX_ROWS) + " more") : "");
    }

    /** The verdicts taken while the proof ran: between rounds and at lake snapshots. */
    private String checkpoints() {
        HtmlTable table = new HtmlTable("kind", "checkpoint", "status");
        for (ProofReport.Checkpoint c : report.checkpoints()) {
            table.row(kind(c.kind()), Html.escape(c.label()), checkpointStatus(c));
        }
        return table.isEmpty() ? "" : table.html();
    }

    private static String kind(ProofReport.Checkpoint.Kind kind) {
        return switch (kind) {
            case AFTER_ROUND -> "after a round";
            case LIVE_UNION -> "live union read";
            case CUT -> "consistent cut";
        };
    }

    /** The word as the summary gives it, what backs it, and the reads and failures that made it so. */
    private static String checkpointStatus(ProofReport.Checkpoint c) {
        StringBuilder sb = new StringBuilder(badge(c.word().toLowerCase(Locale.ROOT), c.word()));
        if (!c.detail().isEmpty()) {
            sb.append(Html.text("span", "note", c.detail()));
        }
        c.verdict().reads().stream().filter(r -> !r.consistent()).forEach(r -> sb.append(Html.element("span",
                "note", Html.text("code", "", r.name()) + ": " + Html.escape(r.reason()))));
        c.verdict().failures().forEach(f -> sb.append(Html.text("span", "note", "failure: " + f)));
        return sb.toString();
    }

    private String plots() {
        List<String> svgs = TierLagPlots.svgs(report.tierLag(), report.faultBands());
        return svgs.isEmpty() ? "" : "<p>The lake watch's polls: the changes in the Fluss log and in the lake,"
                + " and the gap between them. A dashed rule marks each lake snapshot (its id) at the poll that first"
                + " saw it" + (report.faultBands().isEmpty() ? "" : "; a shaded band, each fault while it held")
                + ".</p>\n" + String.join("\n", svgs);
    }

    /** Once faults healed: was every bucket led and in sync again, and each change of leader or ISR seen. */
    private String availability() {
        Availability a = report.availability();
        if (a == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(Html.element("p", "", badge(a.available() ? "consistent" : "inconsistent",
                a.available() ? "AVAILABLE" : "UNAVAILABLE") + " " + Html.escape(a.evidence())));
        if (!a.timeline().isEmpty()) {
            sb.append("<p>Each change seen (ms since the watch started: each bucket's leader, its epoch, and its"
                    + " in-sync replicas of the replicas it should have):</p>");
            StringBuilder list = new StringBuilder();
            a.timeline().forEach(t -> list.append(Html.text("li", "", t)));
            sb.append(Html.element("ul", "timeline", list.toString()));
        }
        return sb.toString();
    }

    /** The run's own lines for people, the table's DDL and where the time went. */
    private String run() {
        return facts() + Html.text("h3", "", ddlLabel) + Html.text("pre", "", report.ddl()) + time();
    }

    /** The detail lines ({@code label : value}) as a list of facts, less the bounds the reads table shows. */
    private String facts() {
        if (report.details().isEmpty()) {
            return "";
        }
        StringBuilder facts = new StringBuilder("<dl class=\"facts\">");
        for (String line : report.details()) {
            Matcher m = DETAIL.matcher(line);
            if (!m.matches()) {
                facts.append("<dt></dt>").append(Html.text("dd", "", line));
            } else if (!shownAsBound(m.group(1), m.group(2))) {
                facts.append(Html.text("dt", "", m.group(1))).append(Html.text("dd", "", m.group(2)));
            }
        }
        return facts.append("</dl>").toString();
    }

    /** Each step's milliseconds, as the run timed them (reads overlap: they do not add up to the total). */
    private String time() {
        if (report.timings().isEmpty()) {
            return "";
        }
        return Html.text("h3", "", "Time") + Html.element("p", "", String.join(" · ", report.timings().entrySet()
                .stream().map(e -> Html.text("span", "muted", e.getKey()) + " " + Html.count(e.getValue()) + " ms")
                .toList()));
    }

    /** A line that says how a read was bounded, which the reads table shows already. */
    private boolean shownAsBound(String label, String value) {
        return !bounds.isEmpty() && (label.startsWith("bound ") || value.startsWith("bound: "));
    }

    private static String badge(String cls, String word) {
        return Html.text("span", "badge " + cls.replace(' ', '-'), word);
    }
}
