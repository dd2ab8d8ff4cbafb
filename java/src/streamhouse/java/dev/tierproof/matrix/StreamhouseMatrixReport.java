package dev.tierproof.matrix;

import static dev.tierproof.report.Html.escape;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.Versions;
import dev.tierproof.report.Report;
import java.util.List;
import java.util.Map;

/** The streamhouse matrix as JSON, as a Markdown grid and as a self-contained HTML page. */
public final class StreamhouseMatrixReport {
    private static final Map<String, String> SYMBOL = Map.of("consistent", "✅", "inconsistent", "❌",
            "stalled", "⏳", "failed", "💥", "refused", "⛔", "not-run", "⏭");

    private final List<StreamhouseMatrix.Row> rows;
    private final String workload;
    private final long millis;

    public StreamhouseMatrixReport(List<StreamhouseMatrix.Row> rows, String workload, long millis) {
        this.rows = List.copyOf(rows);
        this.workload = workload;
        this.millis = millis;
    }

    public List<StreamhouseMatrix.Row> rows() {
        return rows;
    }

    /** True when every shape kept the promise. */
    public boolean consistent() {
        return rows.stream().allMatch(r -> r.verdict().equals("consistent"));
    }

    public ObjectNode json() {
        ObjectNode r = Report.newObject();
        r.put("command", "matrix");
        r.put("streamhouse", true);
        r.put("workload", workload);
        ObjectNode v = r.putObject("versions");
        Versions.all().forEach(v::put);
        r.put("elapsed_ms", millis);
        ArrayNode a = r.putArray("rows");
        for (StreamhouseMatrix.Row row : rows) {
            ObjectNode o = a.addObject();
            o.put("kind", row.shape().kind());
            o.put("buckets", row.shape().buckets());
            o.put("partition", row.shape().partition());
            o.put("lake_options", row.shape().lakeOptions());
            o.put("spec", row.shape().spec());
            o.put("verdict", row.verdict());
            ObjectNode reads = o.putObject("reads");
            row.reads().forEach(reads::put);
            o.put("cuts", row.cuts());
            o.put("reason", row.reason());
            o.put("time_ms", row.millis());
        }
        return r;
    }

    /** Rows: shapes; columns: the verdict, each read, the consistent cuts. */
    public String markdown() {
        StringBuilder sb = new StringBuilder("| table | verdict |");
        StreamhouseMatrix.READS.forEach(read -> sb.append(' ').append(read).append(" |"));
        sb.append(" cuts |\n|---|---|").append("---|".repeat(StreamhouseMatrix.READS.size())).append("---|\n");
        for (StreamhouseMatrix.Row row : rows) {
            sb.append("| ").append(row.shape().label()).append(" | ").append(SYMBOL.get(row.verdict())).append(' ')
                    .append(row.verdict()).append(" |");
            for (String read : StreamhouseMatrix.READS) {
                sb.append(' ').append(SYMBOL.getOrDefault(row.reads().getOrDefault(read, "not-run"), "")).append(" |");
            }
            sb.append(' ').append(row.cuts().isEmpty() ? "" : row.cuts()).append(" |\n");
        }
        StringBuilder why = new StringBuilder();
        rows.stream().filter(r -> !r.reason().isEmpty()).forEach(r -> why.append("- ").append(r.shape().label())
                .append(": ").append(r.reason()).append('\n'));
        return why.isEmpty() ? sb.toString() : sb.append('\n').append(why).toString();
    }

    public String html() {
        StringBuilder sb = new StringBuilder("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<title>tierproof streamhouse matrix</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}")
                .append("table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.4em .7em;text-align:left}")
                .append(".consistent{background:#c8f0c8}.inconsistent,.failed{background:#f6c6c6}")
                .append(".stalled{background:#f6e3b4}.refused,.not-run{background:#ddd;color:#555}small{color:#555}")
                .append("</style></head><body>\n<h1>Which Fluss table shapes keep the streamhouse promise</h1>\n<p>")
                .append(escape(workload)).append("<br>Versions: ").append(escape(Versions.all().toString()))
                .append("</p>\n<table>\n<tr><th>table</th><th>verdict</th>");
        StreamhouseMatrix.READS.forEach(read -> sb.append("<th>").append(read).append("</th>"));
        sb.append("<th>consistent cuts</th></tr>\n");
        for (StreamhouseMatrix.Row row : rows) {
            sb.append("<tr><th>").append(escape(row.shape().label())).append("</th><td class=\"")
                    .append(row.verdict()).append("\" title=\"").append(escape(row.reason())).append("\">")
                    .append(row.verdict()).append("<br><small>").append(row.millis()).append(" ms</small></td>");
            for (String read : StreamhouseMatrix.READS) {
                String state = row.reads().getOrDefault(read, "not-run");
                sb.append("<td class=\"").append(state).append("\">").append(state).append("</td>");
            }
            sb.append("<td>").append(escape(row.cuts())).append("</td></tr>\n");
        }
        sb.append("</table>\n<h2>What broke</h2>\n<ul>\n");
        rows.stream().filter(r -> !r.reason().isEmpty()).forEach(r -> sb.append("<li><b>")
                .append(escape(r.shape().label())).append("</b>: ").append(escape(r.reason())).append("</li>\n"));
        return sb.append("</ul>\n<p><small>Generated by tierproof in ").append(millis)
                .append(" ms.</small></p>\n</body></html>\n").toString();
    }
}
