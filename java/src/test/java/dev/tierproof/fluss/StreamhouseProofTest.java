package dev.tierproof.fluss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tierproof.core.Rows;
import dev.tierproof.paimon.FlinkEngine;
import dev.tierproof.paimon.ProofReport;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The full streamhouse path on a real Fluss cluster with real tiering into Paimon. */
class StreamhouseProofTest {
    static final List<String> READS = List.of(
            "paimon_batch", "paimon_streaming", "paimon_replay", "fluss_changelog", "fluss_full", "fluss_union");

    @TempDir
    Path warehouse;

    @Test
    void everyReadOfTheTieredTableHoldsTheLastValuePerId() {
        // Repeated keys, NULL balances, negative ids and INT's extremes, in two batched INSERTs
        // and then a single-row INSERT per upsert for the tail.
        Rows upserts = new Rows.Builder()
                .add(1, 100).add(-7, null).add(Integer.MIN_VALUE, Integer.MAX_VALUE).add(1, 150)
                .add(2, 20).add(-7, -70).add(Integer.MAX_VALUE, Integer.MIN_VALUE).add(2, null)
                .add(1, 175).add(-7, null).build();
        ProofReport r;
        try (LocalFlussCluster cluster = LocalFlussCluster.start(1, Tiering.clusterOptions(warehouse));
                FlinkEngine engine = FlinkEngine.start(8)) {
            r = StreamhouseProof.run(cluster, engine,
                    new StreamhouseProof.Config("ledger", upserts, warehouse, Duration.ofSeconds(120), 4),
                    Steps.silent());
        }
        JsonNode j = r.json();
        assertTrue(r.consistent(), r.toJson());
        assertEquals("[[-2147483648,2147483647],[-7,null],[1,175],[2,null],[2147483647,-2147483648]]",
                j.path("expected_rows").toString());
        assertEquals(3, j.path("statements").asInt());
        // 5 ids first written (+I), 5 overwrites (-U and +U each): the log holds 15 records.
        assertEquals(15, j.path("fluss").path("log_end_offset").asLong());
        for (String read : READS) {
            JsonNode o = j.path("reads").path(read);
            assertTrue(o.path("equals_expected").asBoolean(), read + ": " + o);
            assertEquals(j.path("expected_rows"), o.path("rows"), read);
        }
        assertEquals(15, j.path("reads").path("fluss_changelog").path("changes").asLong());
        assertEquals(15, j.path("reads").path("paimon_replay").path("changes").asLong());
        assertEquals("[\"id\",\"bal\",\"__bucket\",\"__offset\",\"__timestamp\"]",
                j.path("paimon").path("columns").toString());
        assertEquals("fluss", j.path("paimon").path("database").asText());
        assertTrue(warehouse.resolve("fluss.db/ledger").toFile().isDirectory());
    }
}
