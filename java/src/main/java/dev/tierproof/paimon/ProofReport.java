package dev.tierproof.paimon;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A proof's outcome: the JSON report (the oracle's verdict inside) and a human summary. */
public final class ProofReport {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final ObjectNode json;

    public ProofReport(ObjectNode json) {
        this.json = json;
    }

    public boolean consistent() {
        return json.path("consistent").asBoolean(false);
    }

    public static ObjectNode newObject() {
        return JSON.createObjectNode();
    }

    public ObjectNode json() {
        return json;
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw new TierproofException("could not render the report", e);
        }
    }

    public void write(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, toJson() + "\n");
        } catch (IOException e) {
            throw new TierproofException("could not write the report to " + file + ": " + e.getMessage(), e);
        }
    }

    /** A few readable lines: each read, the expected state, the verdict and any diff. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        JsonNode verdict = json.path("verdict");
        sb.append(String.format("expected state   : %s%n", rowsText(verdict.path("expected_rows"))));
        for (JsonNode read : verdict.path("reads")) {
            sb.append(
                    String.format(
                            "%-17s: %d changes -> %s%n",
                            read.path("name").asText(),
                            read.path("changes").asLong(),
                            rowsText(read.path("rows"))));
            JsonNode bound = json.path("reads").path(read.path("name").asText()).path("bound");
            if (bound.isTextual()) {
                sb.append(String.format("    bounded by: %s%n", bound.asText()));
            }
            for (JsonNode a : read.path("anomalies")) {
                sb.append(String.format("    anomaly at change #%d %s: %s%n",
                        a.path("index").asLong(), a.path("change").asText(), a.path("reason").asText()));
            }
        }
        for (JsonNode c : verdict.path("checks")) {
            if (!c.path("equal").asBoolean()) {
                sb.append(String.format("%s vs %s differ: %s%n", c.path("right").asText(), c.path("left").asText(),
                        diffText(c.path("diff"))));
            }
        }
        sb.append(consistent()
                ? "verdict          : CONSISTENT: every read equals the expected state (last value per id)\n"
                : "verdict          : INCONSISTENT\n");
        return sb.toString();
    }

    static String diffText(JsonNode diff) {
        return "missing " + countedText(diff.path("missing")) + ", extra " + countedText(diff.path("extra"));
    }

    private static String countedText(JsonNode counted) {
        if (counted.isEmpty()) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (JsonNode c : counted) {
            if (shown++ == 8) {
                sb.append(", ... (").append(counted.size()).append(" rows in all)");
                break;
            }
            sb.append(shown > 1 ? ", " : "").append(rowText(c.path("row")));
            if (c.path("count").asLong() > 1) {
                sb.append(" x").append(c.path("count").asLong());
            }
        }
        return sb.toString();
    }

    static String rowsText(JsonNode rows) {
        StringBuilder sb = new StringBuilder().append(rows.size()).append(" rows");
        if (rows.isEmpty()) {
            return sb.toString();
        }
        sb.append(" ");
        int shown = 0;
        for (JsonNode r : rows) {
            if (shown++ == 10) {
                sb.append(" ...");
                break;
            }
            sb.append(shown > 1 ? " " : "").append(rowText(r));
        }
        return sb.toString();
    }

    private static String rowText(JsonNode r) {
        JsonNode bal = r.get(1);
        return "(" + r.get(0).asText() + ", " + (bal == null || bal.isNull() ? "NULL" : bal.asText()) + ")";
    }

    public static ObjectNode parseVerdict(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new TierproofException("the oracle's verdict is not JSON: " + e.getMessage(), e);
        }
    }

    /** The rows a named read folded to. */
    public static JsonNode readRows(ObjectNode verdict, String name) {
        for (JsonNode r : verdict.path("reads")) {
            if (r.path("name").asText().equals(name)) {
                return r.path("rows");
            }
        }
        return JSON.createArrayNode();
    }

    /** The first failing check's diff, with its sides named; empty when all agree. */
    public static ObjectNode firstDiff(ObjectNode verdict) {
        for (JsonNode c : verdict.path("checks")) {
            if (!c.path("equal").asBoolean()) {
                ObjectNode d = ((ObjectNode) c.path("diff")).deepCopy();
                d.put("expected_side", c.path("left").asText());
                d.put("actual_side", c.path("right").asText());
                return d;
            }
        }
        ObjectNode empty = JSON.createObjectNode();
        empty.set("missing", JSON.createArrayNode());
        empty.set("extra", JSON.createArrayNode());
        return empty;
    }



    public static void putTimingsAndVersions(ObjectNode report, java.util.Map<String, Long> timings) {
        ObjectNode t = report.putObject("timings_ms");
        timings.forEach(t::put);
        ObjectNode v = report.putObject("versions");
        dev.tierproof.core.Versions.all().forEach(v::put);
    }
}
