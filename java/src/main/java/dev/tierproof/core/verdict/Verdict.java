package dev.tierproof.core.verdict;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.tierproof.core.TierproofException;
import java.util.List;
import java.util.Optional;

/**
 * The Rust oracle's verdict, bound once into records: every read folded, every check against the
 * expected state and the first read. Binding is strict (an unknown, missing or null field fails):
 * a field renamed in Rust cannot silently read as false or 0 here. Java reads it, never re-judges.
 */
public record Verdict(boolean consistent, boolean keyed, List<TableRow> expectedRows, List<ReadResult> reads,
        List<Check> checks) {
    /** The expected side's name in checks. */
    public static final String EXPECTED = "expected";

    /** Snake-case JSON, as the Rust core writes it; strict on the way in. */
    public static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    public Verdict {
        expectedRows = List.copyOf(expectedRows);
        reads = List.copyOf(reads);
        checks = List.copyOf(checks);
    }

    /** Binds the oracle's JSON. */
    public static Verdict fromJson(String json) {
        try {
            return JSON.readValue(json, Verdict.class);
        } catch (JsonProcessingException e) {
            throw new TierproofException("the oracle's verdict does not bind: " + e.getOriginalMessage(), e);
        }
    }

    /** The read named {@code name}. */
    public Optional<ReadResult> read(String name) {
        return reads.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /** The rows a named read folded to (empty when there is no such read). */
    public List<TableRow> rowsOf(String name) {
        return read(name).map(ReadResult::rows).orElse(List.of());
    }

    /** The check of {@code right} against {@code left}. */
    public Optional<Check> check(String left, String right) {
        return checks.stream().filter(c -> c.left().equals(left) && c.right().equals(right)).findFirst();
    }

    /** The first check that failed, if any. */
    public Optional<Check> firstFailure() {
        return checks.stream().filter(c -> !c.equal()).findFirst();
    }
}
