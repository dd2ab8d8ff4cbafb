package dev.tierproof.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tierproof.core.verdict.Check;
import dev.tierproof.core.verdict.Counted;
import dev.tierproof.core.verdict.TableRow;
import dev.tierproof.core.verdict.Verdict;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The Rust core through JNI: results, and errors thrown as Java exceptions with the core's text. */
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
    void upsertsInOrderAndBatched() {
        Rows ups = new Rows.Builder().add(1, 10).add(1, null).add(Integer.MIN_VALUE, Integer.MAX_VALUE).build();
        assertEquals(List.of(
                        "INSERT INTO `t` VALUES (1, 10)",
                        "INSERT INTO `t` VALUES (1, CAST(NULL AS INT))",
                        "INSERT INTO `t` VALUES (-2147483648, 2147483647)"),
                Upserts.upsertInserts("t", ups));
        List<String> batched = Upserts.batchedUpsertInserts("t", ups, 2);
        assertEquals(2, batched.size());
        assertTrue(batched.get(0).contains("(VALUES (1, 10, FALSE), (1, 0, TRUE))"), batched.get(0));
        assertTrue(batched.get(1).contains("(VALUES (-2147483648, 2147483647, FALSE))"), batched.get(1));
        assertThrows(IllegalArgumentException.class, () -> Upserts.batchedUpsertInserts("t", ups, 0));
    }

    @Test
    void workloads() {
        Rows csv = Workloads.parseCsv("id,bal\n1,5\n2,\n");
        assertEquals(2, csv.size());
        assertEquals(null, csv.bal(1));
        assertEquals("id,bal\n1,5\n2,\n", Workloads.toCsv(csv));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Workloads.parseCsv("id,bal\n1,5\n9999999999,1\n"));
        assertEquals("CSV line 3 id 9999999999 is outside INT [-2147483648, 2147483647]", e.getMessage());
        Rows r = Workloads.random(100, 5, 3);
        assertEquals(100, r.size());
        assertEquals(r.toString(), Workloads.random(100, 5, 3).toString());
        assertThrows(IllegalArgumentException.class, () -> Workloads.random(10, 0, 1));
    }

    @Test
    void queries() {
        assertEquals("SELECT `id`, `bal` FROM `t` WHERE `id` <> 3",
                Queries.selectRows("t", Map.of(), OptionalInt.of(3)));
        assertEquals(Integer.MIN_VALUE + 1, Queries.unusedId(rows(Integer.MIN_VALUE, 0)));
        assertEquals(List.of("db", "a.b"), List.of(Queries.pathParts("db.`a.b`")));
    }

    @Test
    void oracleJudgesAKeyedStreamAndShowsAppendOnlyExtraVersions() {
        Rows ups = new Rows.Builder().add(1, 10).add(1, 20).add(2, null).build();
        Changelog batch = new Changelog("batch");
        batch.add((byte) 0, 1, 20);
        batch.add((byte) 0, 2, null);
        Changelog stream = new Changelog("streaming");
        stream.add((byte) 0, 1, 10);
        stream.add((byte) 0, 1, 20);
        stream.add((byte) 0, 2, null);
        Verdict keyed = Oracle.judge(ups, true, List.of(batch, stream));
        assertTrue(keyed.consistent(), keyed.toString());
        assertEquals(List.of(new TableRow(1, 20), new TableRow(2, null)), keyed.rowsOf("streaming"));
        assertEquals(3, keyed.read("streaming").orElseThrow().changes());
        Verdict multiset = Oracle.judge(ups, false, List.of(stream));
        assertFalse(multiset.consistent());
        Check vsExpected = multiset.check(Verdict.EXPECTED, "streaming").orElseThrow();
        assertEquals(List.of(new Counted(new TableRow(1, 10), 1)), vsExpected.diff().extra());
        assertEquals(1, vsExpected.extraCount());
    }

    /** A field the Rust core renames or drops fails the binding loudly instead of reading as false/0. */
    @Test
    void theVerdictBindsStrictly() {
        String good = "{\"consistent\":true,\"keyed\":true,\"expected_rows\":[[1,null]],\"reads\":[],\"checks\":[]}";
        assertEquals(List.of(new TableRow(1, null)), Verdict.fromJson(good).expectedRows());
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("\"consistent\"", "\"ok\"")));
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("\"keyed\":true,", "")));
        assertThrows(TierproofException.class, () -> Verdict.fromJson(good.replace("true,\"keyed", "null,\"keyed")));
    }

    @Test
    void unknownRowKindIsBadInput() {
        Changelog c = new Changelog("x");
        c.add((byte) 7, 1, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Oracle.judge(rows(1, 1), true, List.of(c)));
        assertTrue(e.getMessage().contains("unknown row kind code 7 at change #0"), e.getMessage());
    }

    static Rows rows(int id, Integer bal) {
        return new Rows.Builder().add(id, bal).build();
    }
}
