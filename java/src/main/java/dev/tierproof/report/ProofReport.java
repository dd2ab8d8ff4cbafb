package dev.tierproof.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.verdict.Check;
import dev.tierproof.core.verdict.Counted;
import dev.tierproof.core.verdict.Diff;
import dev.tierproof.core.verdict.ReadResult;
import dev.tierproof.core.verdict.TableRow;
import dev.tierproof.core.verdict.Verdict;
import java.util.List;
import java.util.Map;

/**
 * A proof's outcome: the oracle's {@link Verdict} and the facts a person reads (the DDL, how each
 * read was bounded, command-specific lines, timings), typed; and the JSON report written for
 * tools, built from the same values. Nothing here reads the JSON back.
 */
public final class ProofReport extends Report {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Verdict verdict;
    private final Map<String, String> bounds;

    /**
     * @param json the report for tools, without the verdict, timings and versions (added here)
     * @param bounds how each read was bounded, by read name (none for a read that ends by itself)
     * @param details lines for people, printed between the DDL and the reads
     */
    public ProofReport(ObjectNode json, Verdict verdict, String ddl, Map<String, String> bounds,
            List<String> details, Map<String, Long> timings) {
        super(json, verdict, ddl, details, timings);
        this.verdict = verdict;
        this.bounds = Map.copyOf(bounds);
    }

    @Override
    public boolean consistent() {
        return verdict.consistent();
    }

    public Verdict verdict() {
        return verdict;
    }

    /** The report's {@code paimon} object: where the proved table is. */
    public static ObjectNode putPaimon(ObjectNode report, java.nio.file.Path warehouse, String database,
            String table) {
        ObjectNode paimon = report.putObject("paimon");
        paimon.put("warehouse", warehouse.toAbsolutePath().toString());
        paimon.put("database", database);
        paimon.put("table", table);
        return paimon;
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

    /** The first failing check's diff with its sides named, for the report's {@code diff}. */
    public static ObjectNode firstDiff(Verdict verdict) {
        ObjectNode d = JSON.createObjectNode();
        Check failed = verdict.firstFailure().orElse(null);
        Diff diff = failed == null ? Diff.NONE : failed.diff();
        d.set("missing", Verdict.JSON.valueToTree(diff.missing()));
        d.set("extra", Verdict.JSON.valueToTree(diff.extra()));
        if (failed != null) {
            d.put("expected_side", failed.left());
            d.put("actual_side", failed.right());
        }
        return d;
    }

    /** A few readable lines: each read, the expected state, the verdict and any diff. */
    @Override
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("expected state   : %s%n", rowsText(verdict.expectedRows())));
        for (ReadResult read : verdict.reads()) {
            sb.append(String.format("%-17s: %d changes -> %s%n", read.name(), read.changes(), rowsText(read.rows())));
            if (bounds.containsKey(read.name())) {
                sb.append(String.format("    bounded by: %s%n", bounds.get(read.name())));
            }
            read.anomalies().forEach(a -> sb.append(String.format("    anomaly at change #%d %s: %s%n", a.index(),
                    a.change(), a.reason())));
        }
        for (Check c : verdict.checks()) {
            if (!c.equal()) {
                sb.append(String.format("%s vs %s differ: %s%n", c.right(), c.left(), diffText(c.diff())));
            }
        }
        sb.append(consistent()
                ? "verdict          : CONSISTENT: every read equals the expected state (last value per id)\n"
                : "verdict          : INCONSISTENT\n");
        return sb.toString();
    }

    static String diffText(Diff diff) {
        return "missing " + countedText(diff.missing()) + ", extra " + countedText(diff.extra());
    }

    private static String countedText(List<Counted> counted) {
        if (counted.isEmpty()) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (Counted c : counted) {
            if (shown++ == 8) {
                sb.append(", ... (").append(counted.size()).append(" rows in all)");
                break;
            }
            sb.append(shown > 1 ? ", " : "").append(c.row());
            if (c.count() > 1) {
                sb.append(" x").append(c.count());
            }
        }
        return sb.toString();
    }

    static String rowsText(List<TableRow> rows) {
        StringBuilder sb = new StringBuilder().append(rows.size()).append(" rows");
        for (int i = 0; i < rows.size(); i++) {
            if (i == 10) {
                sb.append(" ...");
                break;
            }
            sb.append(' ').append(rows.get(i));
        }
        return sb.toString();
    }
}
