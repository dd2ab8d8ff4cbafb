package dev.tierproof.matrix;

import static dev.tierproof.report.Html.escape;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.Versions;
import dev.tierproof.report.Report;
import java.util.List;
import java.util.Map;

/** The matrix as JSON, as a self-contained HTML page, and as a Markdown grid. */
public final class MatrixReport {
    private final List<Cell> cells;
    private final String workload;
    private final long millis;

    public MatrixReport(List<Cell> cells, String workload, long millis) {
        this.cells = List.copyOf(cells);
        this.workload = workload;
        this.millis = millis;
    }

    public List<Cell> cells() {
        return cells;
    }

    public Cell cell(String engine, String producer, String read) {
        return cells.stream()
                .filter(c -> c.engine().equals(engine) && c.producer().equals(producer) && c.read().equals(read))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no cell " + engine + "/" + producer + "/" + read));
    }

    public ObjectNode json() {
        ObjectNode r = Report.newObject();
        r.put("command", "matrix");
        r.put("workload", workload);
        ObjectNode v = r.putObject("versions");
        Versions.all().forEach(v::put);
        r.put("elapsed_ms", millis);
        ArrayNode a = r.putArray("cells");
        for (Cell c : cells) {
            ObjectNode o = a.addObject();
            o.put("engine", c.engine());
            o.put("producer", c.producer());
            o.put("read", c.read());
            o.put("verdict", c.verdict());
            o.put("reason", c.reason());
            o.put("missing", c.missing());
            o.put("extra", c.extra());
            o.put("equals_batch", c.equalsBatch());
            o.put("changes", c.changes());
            o.put("rows", c.rows());
            o.put("diff_sample", c.diffSample());
            o.put("time_ms", c.millis());
        }
        return r;
    }

    private static final Map<String, String> SYMBOL =
            Map.of(Cell.CONSISTENT, "✅ consistent", Cell.INCONSISTENT, "❌ inconsistent", Cell.REFUSED, "⛔ refused",
                    Cell.NOT_RUN, "⏭ not run");

    /** Rows: engine + producer; columns: the three reads. */
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| engine | changelog-producer |");
        for (String read : MatrixRun.READS) {
            sb.append(' ').append(read).append(" |");
        }
        sb.append("\n|---|---|---|---|---|\n");
        for (List<Cell> row : rows()) {
            sb.append("| ").append(row.get(0).engine()).append(" | ").append(row.get(0).producer()).append(" |");
            for (Cell c : row) {
                sb.append(' ').append(SYMBOL.get(c.verdict()));
                if (c.verdict().equals(Cell.INCONSISTENT)) {
                    sb.append(" (missing ").append(c.missing()).append(", extra ").append(c.extra())
                            .append(c.equalsBatch() ? "" : ", ≠ batch").append(')');
                }
                sb.append(" |");
            }
            sb.append('\n');
        }
        // Why each cell that is not consistent is so, once per reason and configuration.
        Map<String, String> why = new java.util.LinkedHashMap<>();
        for (Cell c : cells) {
            if (!c.verdict().equals(Cell.CONSISTENT)) {
                why.merge(c.engine() + " + " + c.producer() + ": " + c.verdict() + ": " + c.reason(), c.read(),
                        (a, b) -> a + ", " + b);
            }
        }
        if (!why.isEmpty()) {
            sb.append('\n');
            why.forEach((reason, reads) -> sb.append("- ").append(reason).append(" (").append(reads).append(")\n"));
        }
        return sb.toString();
    }

    public String html() {
        StringBuilder sb = new StringBuilder();
        sb.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<title>tierproof consistency matrix</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}")
                .append("table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.4em .7em;text-align:left}")
                .append("td.consistent{background:#c8f0c8}td.inconsistent{background:#f6c6c6}")
                .append("td.refused,td.not-run{background:#ddd;color:#555}small{color:#555}")
                .append("</style></head><body>\n<h1>Which table configurations keep the promise</h1>\n<p>Workload: ")
                .append(escape(workload)).append("<br>Versions: ").append(escape(Versions.all().toString()))
                .append("<br>Each cell compares the read with the engine's expected state and with the batch read.")
                .append(" Hover a cell for its diff; every diff is also listed below.</p>\n<table>\n<tr><th>engine</th>")
                .append("<th>changelog-producer</th>");
        for (String read : MatrixRun.READS) {
            sb.append("<th>").append(read).append("</th>");
        }
        sb.append("</tr>\n");
        for (List<Cell> row : rows()) {
            sb.append("<tr><th>").append(escape(row.get(0).engine())).append("</th><th>")
                    .append(escape(row.get(0).producer())).append("</th>");
            for (Cell c : row) {
                sb.append("<td class=\"").append(c.verdict()).append("\" title=\"")
                        .append(escape(c.reason() + (c.diffSample().isEmpty() ? "" : " — " + c.diffSample())))
                        .append("\">").append(c.verdict());
                if (!c.verdict().equals(Cell.REFUSED) && !c.verdict().equals(Cell.NOT_RUN)) {
                    sb.append("<br><small>").append(c.changes()).append(" changes → ").append(c.rows())
                            .append(" rows</small>");
                }
                sb.append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</table>\n<h2>Details</h2>\n<ul>\n");
        for (Cell c : cells) {
            if (!c.verdict().equals(Cell.CONSISTENT)) {
                sb.append("<li><b>").append(escape(c.engine() + " + " + c.producer() + ", " + c.read())).append("</b>: ")
                        .append(c.verdict()).append(" — ").append(escape(c.reason()));
                if (!c.diffSample().isEmpty()) {
                    sb.append("<br><code>").append(escape(c.diffSample())).append("</code>");
                }
                sb.append("</li>\n");
            }
        }
        sb.append("</ul>\n<p><small>Generated by tierproof in ").append(millis).append(" ms.</small></p>\n</body></html>\n");
        return sb.toString();
    }

    private List<List<Cell>> rows() {
        return cells.stream()
                .map(c -> c.engine() + "\u0000" + c.producer())
                .distinct()
                .map(key -> MatrixRun.READS.stream()
                        .map(read -> cell(key.split("\u0000")[0], key.split("\u0000")[1], read))
                        .toList())
                .toList();
    }

}
