package dev.tierproof.core.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The verdict's schema, field by field: the core's sample (every field set, written by the Rust
 * test in rust/src/model/proof/schema.rs, which fails when the struct changes) binds into these
 * records and writes back as the same fields with the same kinds of value. A field renamed, added,
 * dropped or retyped on either side fails here or there, never in a run.
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class VerdictSchemaTest {
    @Test
    void theCoresSampleBindsAndWritesBackFieldByField() throws Exception {
        JsonNode written = Verdict.JSON.readTree(Verdict.sample());
        // Written and read again, so numbers compare by value, not by the width Jackson gave them.
        JsonNode bound = Verdict.JSON.readTree(Verdict.JSON.writeValueAsString(Verdict.fromJson(Verdict.sample())));
        assertThat(fields(bound, "")).as("the records' fields, against the core's").containsExactlyInAnyOrderElementsOf(
                fields(written, ""));
        assertThat(bound).isEqualTo(written);
    }

    @Test
    void theSampleSetsEveryFieldOfEveryRecord() {
        List<String> unset = new ArrayList<>();
        unset(Verdict.fromJson(Verdict.sample()), "verdict", unset);
        assertThat(unset).as("record components the sample leaves null or empty").isEmpty();
    }

    @Test
    void aFieldTheRecordsLackOrARetypedOneIsSeen() {
        assertThat(fields(Verdict.JSON.valueToTree(Map.of("a", List.of(Map.of("b", 1)))), ""))
                .containsExactly("a[].b: NUMBER");
        assertThat(fields(Verdict.JSON.valueToTree(Map.of("a", "1")), "")).containsExactly("a: STRING");
    }

    /** Every leaf of a JSON tree as {@code path: kind}; a list's elements under {@code []}. */
    private static List<String> fields(JsonNode node, String path) {
        List<String> out = new ArrayList<>();
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                out.addAll(fields(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey()));
            }
        } else if (node.isArray()) {
            node.forEach(element -> fields(element, path + "[]").stream().filter(f -> !out.contains(f))
                    .forEach(out::add));
        } else {
            out.add(path + ": " + node.getNodeType());
        }
        return out;
    }

    /**
     * The components of a record (and of the records in its lists) that are null or empty; a null
     * inside a list is a row's NULL cell, not an unset field.
     */
    private static void unset(Object value, String path, List<String> unset) {
        if (value == null || value instanceof List<?> list && list.isEmpty()) {
            unset.add(path);
        } else if (value instanceof List<?> list) {
            list.stream().filter(java.util.Objects::nonNull).forEach(element -> unset(element, path + "[]", unset));
        } else if (value.getClass().isRecord()) {
            for (RecordComponent c : value.getClass().getRecordComponents()) {
                try {
                    unset(c.getAccessor().invoke(value), path + "." + c.getName(), unset);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(path + "." + c.getName() + " does not read", e);
                }
            }
        }
    }
}
