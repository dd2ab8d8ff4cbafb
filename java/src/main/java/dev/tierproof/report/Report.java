package dev.tierproof.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Versions;
import dev.tierproof.core.verdict.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the command line prints and writes of a completed proof, whatever its table's shape: the
 * facts every proof has (the DDL, lines for people, timings, the JSON report) here; the typed
 * verdict and its summary in the subclass.
 */
public abstract class Report {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ObjectNode json;
    private final String ddl;
    private final List<String> details;
    private final Map<String, Long> timings;

    /**
     * @param json the report for tools, without the verdict, timings and versions (added here)
     * @param verdict the oracle's verdict, as its typed records
     * @param details lines for people, printed between the DDL and the reads
     */
    protected Report(ObjectNode json, Object verdict, String ddl, List<String> details, Map<String, Long> timings) {
        this.json = json;
        this.ddl = ddl;
        this.details = List.copyOf(details);
        this.timings = new LinkedHashMap<>(timings);
        json.set("verdict", Verdict.JSON.valueToTree(verdict));
        ObjectNode t = json.putObject("timings_ms");
        timings.forEach(t::put);
        ObjectNode v = json.putObject("versions");
        Versions.all().forEach(v::put);
    }

    public abstract boolean consistent();

    /** The reads, the expected state, any diff and the verdict, for people. */
    public abstract String summary();

    /**
     * What the command line prints of the proof: the DDL under {@code ddlLabel}, the lines for
     * people, the summary and the time it took.
     */
    public String text(String ddlLabel) {
        StringBuilder sb = new StringBuilder(ddlLabel).append(":\n  ").append(ddl.replace("\n", "\n  ")).append('\n');
        details.forEach(line -> sb.append(line).append('\n'));
        return sb.append(summary()).append(String.format("time             : %s ms in all %s%n", timings.get("total"),
                timingsJson())).toString();
    }

    /** Timings as compact JSON: {@code {"create":361,"write":6176,...}}. */
    private String timingsJson() {
        return timings.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                .collect(java.util.stream.Collectors.joining(",", "{", "}"));
    }

    /**
     * The report as one self-contained HTML page ({@code --report FILE.html}): the verdict first,
     * then what backs it, and what the command line prints (its DDL under {@code ddlLabel}) last.
     */
    public abstract String html(String ddlLabel);

    /** As {@link #html(String)}, the DDL labelled plainly. */
    public String html() {
        return html("DDL");
    }

    /** The statement that created the table. */
    public String ddl() {
        return ddl;
    }

    /** Command-specific lines for people, printed between the DDL and the reads. */
    public List<String> details() {
        return details;
    }

    public Map<String, Long> timings() {
        return timings;
    }

    /** The JSON report (what {@code --report} writes). */
    public ObjectNode json() {
        return json;
    }

    /** The JSON report, rendered. */
    public String toJson() {
        return render(json);
    }

    /** The page of a run that did not complete (failed, interrupted): its status, then its report as JSON. */
    public static String statusPage(String status, String json) {
        return new HtmlPage("tierproof: " + status)
                .add("<header class=\"verdict " + Html.escape(status) + "\">" + Html.text("h1", "", status.toUpperCase(
                        java.util.Locale.ROOT)) + "</header>")
                .add(Html.text("pre", "", json)).render();
    }

    public static ObjectNode newObject() {
        return JSON.createObjectNode();
    }

    /** A report object as indented JSON. */
    public static String render(ObjectNode report) {
        try {
            return JSON.writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new TierproofException("could not render the report", e);
        }
    }

    /**
     * The report's {@code paimon} object: where the proved table is.
     *
     * @param warehouse the warehouse's location only ({@code LakeLocation.warehouse()}), never its settings
     */
    public static ObjectNode putPaimon(ObjectNode report, String warehouse, String database, String table) {
        ObjectNode paimon = report.putObject("paimon");
        paimon.put("warehouse", warehouse);
        paimon.put("database", database);
        paimon.put("table", table);
        return paimon;
    }
}
