package dev.tierproof.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tierproof.core.verdict.Verdict;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Rust core through JNI: results, and errors thrown as Java exceptions with the core's text. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class CoreJniTest {
    static final String TIERED_DDL = String.join("\n",
            "CREATE TABLE `accounts` (",
            "  `id` INT,",
            "  `bal` INT,",
            "  PRIMARY KEY (`id`) NOT ENFORCED",
            ") WITH (",
            "  'bucket' = '1',",
            "  'merge-engine' = 'deduplicate',",
            "  'changelog-producer' = 'input'",
            ")");

    @Test
    void tieredDdl() {
        assertEquals(TIERED_DDL, Ddl.tierTableDdl("accounts"));
        assertTrue(Ddl.tierTableDdl("t`x").startsWith("CREATE TABLE `t``x` ("));
    }

    @Test
    void otherSpecs() {
        String agg = Ddl.keyedTableDdl("t", "aggregation", "lookup", 2, Map.of("fields.bal.aggregate-function", "sum"));
        assertTrue(agg.contains("'merge-engine' = 'aggregation'") && agg.contains("'bucket' = '2'"), agg);
        assertTrue(agg.contains("'fields.bal.aggregate-function' = 'sum'"), agg);
        String append = Ddl.appendOnlyTableDdl("t", Map.of());
        assertFalse(append.contains("PRIMARY KEY"), append);
    }

    @Test
    void badInputThrowsIllegalArgumentWithTheCoresMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ddl.tierTableDdl(""));
        assertEquals("invalid name \"\": a name part is empty", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Ddl.tierTableDdl("x".repeat(300)));
        assertTrue(e.getMessage().contains("300 bytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Ddl.keyedTableDdl("t", "dedup", "input", 1, Map.of()));
        assertTrue(e.getMessage().contains("\"dedup\" is not one of"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Ddl.keyedTableDdl("t", "deduplicate", "input", 1, Map.of("bucket", "3")));
        assertTrue(e.getMessage().contains("already set"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Ddl.keyedTableDdl("t", "deduplicate", "input", 0, Map.of()));
        assertThrows(IllegalArgumentException.class, () -> Upserts.upsertInserts("a\u0001", rows(1, 1)));
        assertThrows(NullPointerException.class, () -> Ddl.tierTableDdl(null));
    }

    @Test
    void upsertsInOrder() {
        Rows ups = new Rows.Builder().add(1, 10).add(1, null).add(Integer.MIN_VALUE, Integer.MAX_VALUE).build();
        assertEquals(List.of(
                        "INSERT INTO `t` VALUES (1, 10)",
                        "INSERT INTO `t` VALUES (1, CAST(NULL AS INT))",
                        "INSERT INTO `t` VALUES (-2147483648, 2147483647)"),
                Upserts.upsertInserts("t", ups));
    }

    @Test
    void tablePaths() {
        assertEquals(List.of("db", "a.b"), List.of(TablePaths.pathParts("db.`a.b`")));
        assertEquals("`db`.`a``b`", TablePaths.quotedPath("db", "a`b"));
    }

    /** A field the Rust core renames or drops fails the binding loudly instead of reading as false/0. */
    @Test
    void theVerdictBindsStrictly() {
        String good = "{\"consistent\":true,\"keyed\":true,\"promise\":\"p\",\"columns\":[\"id\",\"bal\"],"
                + "\"expected_rows\":[[\"1\",null]],\"expected_row_count\":1,\"all_rows\":true,\"reads\":[],"
                + "\"checks\":[],\"failures\":[],\"uncertain\":null}";
        assertEquals(List.of(Arrays.asList("1", null)), Verdict.fromJson(good).expectedRows());
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("\"consistent\"", "\"ok\"")));
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("\"keyed\":true,", "")));
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("true,\"keyed", "null,\"keyed")));
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("\"all_rows\":true,", "")));
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("[[\"1\",null]]", "null")));
        // Rows are arrays of text or null cells, nothing else.
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("[[\"1\",null]]", "[[1,null]]")));
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("[[\"1\",null]]", "[\"1\"]")));
        // A verdict written by hand as the core writes one binds (VerdictSchemaTest checks the core's own sample).
        Verdict warm = Verdict.fromJson(HAND_WRITTEN);
        assertEquals(List.of(List.of("1"), Arrays.asList((String) null)), warm.expectedRows());
        assertEquals(List.of(List.of("2")), warm.checks().get(0).extra());
        assertEquals(new Verdict.Uncertain(List.of(2), "r", List.of(), List.of(), List.of()), warm.uncertain());
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace(",\"uncertain\":null", "")));
    }

    static Rows rows(int id, Integer bal) {
        return new Rows.Builder().add(id, bal).build();
    }

    /** A small verdict with a field of every kind, written by hand as the core writes one. */
    private static final String HAND_WRITTEN = "{\"consistent\":true,\"keyed\":true,\"promise\":\"\",\"columns\":[\"a\"],"
            + "\"expected_rows\":[[\"1\"],[null]],\"expected_row_count\":2,\"all_rows\":true,\"reads\":[{\"name\":\"r\","
            + "\"changes\":2,\"rows\":[[\"1\"]],\"row_count\":1,\"anomalies\":[{\"index\":0,\"change\":\"+I\",\"reason\":\"\"}],"
            + "\"notes\":[\"\"],\"consistent\":true,\"reason\":\"\",\"fold_ms\":0}],\"checks\":[{\"left\":\"a\",\"right\":\"b\","
            + "\"equal\":true,\"missing\":[],\"extra\":[[\"2\"]],\"left_out\":0}],\"failures\":[],"
            + "\"uncertain\":{\"operations\":[2],\"explained_by\":\"r\",\"not_applied\":[],\"rejected\":[],\"rejected_applied\":[]}}";
}
