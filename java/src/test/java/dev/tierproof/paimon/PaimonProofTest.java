package dev.tierproof.paimon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tierproof.core.Changelog;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.Rows;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workloads;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import dev.tierproof.support.FlinkEngineExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The core proof on a real Flink MiniCluster and a real Paimon warehouse. */
class PaimonProofTest {
    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(4);

    static final Duration DEADLINE = Duration.ofSeconds(90);
    @TempDir
    Path warehouse;

    static Rows example() {
        return Workloads.parseCsv("id,bal\n1,100\n2,200\n3,300\n1,150\n2,\n4,400\n3,-50\n1,175\n5,500\n4,410\n2,250\n5,\n");
    }

    ProofReport prove(String table, Rows upserts, String ddl, int rowsPerInsert) {
        return PaimonProof.run(FLINK.engine(), new PaimonProof.Config(table, upserts, ddl, warehouse, DEADLINE, rowsPerInsert),
                Steps.silent());
    }

    @Test
    void tieredTableOneInsertPerUpsertIsConsistent() {
        ProofReport r = prove("accounts", example(), null, 1);
        JsonNode j = r.json();
        assertTrue(r.consistent(), r.toJson());
        assertEquals(12, j.path("statements").asInt());
        assertEquals("[[1,175],[2,250],[3,-50],[4,410],[5,null]]", j.path("expected_rows").toString());
        assertEquals(j.path("expected_rows"), j.path("batch_rows"));
        assertEquals(j.path("expected_rows"), j.path("streaming_rows"));
        // The streaming read replayed the changelog: every write, not just the merged state.
        assertEquals(12, j.path("verdict").path("reads").get(1).path("changes").asInt());
        // So did Paimon's own stream scan, the cross-check without Flink.
        JsonNode replay = j.path("verdict").path("reads").get(2);
        assertEquals("paimon_replay", replay.path("name").asText());
        assertEquals(12, replay.path("changes").asInt());
        assertEquals(j.path("expected_rows"), replay.path("rows"));
        for (String field : List.of("table", "ddl", "statements", "expected_rows", "batch_rows", "streaming_rows",
                "consistent", "diff", "timings_ms")) {
            assertTrue(j.has(field), field);
        }
        assertTrue(warehouse.resolve("default.db/accounts").toFile().isDirectory());
    }

    /** The negative control: a table without a key keeps every version, so the proof must fail. */
    @Test
    void appendOnlyTableIsInconsistentAndTheDiffShowsTheExtraVersions() {
        ProofReport r = prove("appendonly", example(), Ddl.appendOnlyTableDdl("appendonly", Map.of()), 1);
        assertFalse(r.consistent());
        JsonNode diff = r.json().path("diff");
        assertEquals("expected", diff.path("expected_side").asText());
        assertEquals(0, diff.path("missing").size());
        // 12 writes over 5 ids: 7 superseded versions show up as extra rows.
        long extra = 0;
        for (JsonNode c : diff.path("extra")) {
            extra += c.path("count").asLong();
        }
        assertEquals(7, extra);
        assertEquals(12, r.json().path("batch_rows").size());
        assertEquals(12, r.json().path("streaming_rows").size());
    }

    /** The fast path relies on this: one INSERT with many writes to one id keeps their order. */
    @Test
    void oneMultiRowInsertKeepsTheOrderOfWritesToOneId() {
        Rows.Builder b = new Rows.Builder();
        for (int i = 1; i <= 500; i++) {
            b.add(i % 3, i); // ids 0, 1, 2 written over and over; the last write to each wins
        }
        ProofReport r = prove("ordered", b.build(), null, 1000);
        assertEquals(1, r.json().path("statements").asInt());
        assertEquals("[[0,498],[1,499],[2,500]]", r.json().path("batch_rows").toString());
        assertTrue(r.consistent(), r.toJson());
    }

    @Test
    void randomWorkloadWithNullsAndExtremesBatched() {
        Rows ups = Workloads.random(3000, 40, 11);
        ProofReport r = prove("random", ups, null, 700);
        assertEquals(5, r.json().path("statements").asInt());
        assertTrue(r.consistent(), r.toJson());
        boolean hasNull = false;
        boolean hasMin = false;
        for (int i = 0; i < ups.size(); i++) {
            hasNull |= ups.bal(i) == null;
            hasMin |= ups.bal(i) != null && ups.bal(i) == Integer.MIN_VALUE;
        }
        assertTrue(hasNull && hasMin, "the workload exercises NULL and INT's minimum");
    }

    @Test
    void aUsersOwnDdlInAnotherDatabaseIsProved() {
        String ddl = Ddl.keyedTableDdl("mine", "deduplicate", "input", 2, Map.of("file.format", "avro"));
        ProofReport r = prove("ledger.mine", example(), ddl, 1);
        assertTrue(r.consistent(), r.toJson());
        assertEquals("ledger", r.json().path("paimon").path("database").asText());
    }

    @Test
    void anExistingTableIsNeverOverwritten() {
        prove("once", example(), null, 100);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> prove("once", example(), null, 100));
        assertTrue(e.getMessage().contains("already exists"), e.getMessage());
    }

    @Test
    void aDdlWithoutTheColumnsIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> prove("odd", example(), "CREATE TABLE odd (k INT, v STRING)", 1));
        assertTrue(e.getMessage().contains("it declares k INT, v STRING"), e.getMessage());
    }

    /** A streaming read with no bound must end at its deadline with a clear error, never hang. */
    @Test
    void anUnboundedReadEndsAtItsDeadline() {
        prove("unbounded", example(), null, 100);
        TableEnvironment streaming = FLINK.engine().streamingTables();
        PaimonTables.register(streaming, warehouse);
        String query = dev.tierproof.core.Queries.selectRows("unbounded",
                Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1", "continuous.discovery-interval", "100ms"),
                OptionalInt.empty());
        long start = System.nanoTime();
        TierproofException e = assertThrows(TierproofException.class,
                () -> BoundedRead.collect(Steps.silent(), streaming, query, "streaming", Duration.ofSeconds(5)));
        assertTrue(e.getMessage().contains("did not end within its deadline of 5 s"), e.getMessage());
        // 12 upserts in one commit (the sentinel was rolled back): every change before the deadline counts.
        assertTrue(e.getMessage().contains("it had read 12 changes"), e.getMessage());
        assertTrue((System.nanoTime() - start) / 1e9 < 30);
    }

    @Test
    void changelogCountsWhatItHolds() {
        Changelog c = new Changelog("x");
        c.add((byte) 0, 1, null);
        assertEquals(1, c.size());
    }
}
