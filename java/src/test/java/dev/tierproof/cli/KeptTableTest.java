package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tierproof.cli.MainTest.Outcome;
import dev.tierproof.support.PyPaimon;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table a run leaves in the user's warehouse holds exactly the workload's rows, as a reader
 * that is neither Flink nor tierproof sees it (Apache Paimon's Python reader).
 */
class KeptTableTest {
    static final String EXPECTED = "[[1,175],[2,250],[3,-50],[4,410],[5,null]]";

    @TempDir
    Path dir;

    @Test
    void proveLeavesNoSentinelBehind() throws Exception {
        Path wh = dir.resolve("wh");
        Path report = dir.resolve("r.json");
        Outcome o = run("prove", "--warehouse", wh.toString(), "--report", report.toString());
        assertEquals(Main.CONSISTENT, o.status(), o.out() + o.err());
        JsonNode read = PyPaimon.read(wh, "default.accounts");
        assertEquals("[\"id\",\"bal\"]", read.path("columns").toString());
        assertEquals(EXPECTED, read.path("rows").toString());
        // The report says how the streaming read was bounded and that the sentinel left the table.
        JsonNode sentinel = new ObjectMapper().readTree(report.toFile()).path("sentinel");
        assertEquals(sentinel.path("snapshot").asLong() - 1, sentinel.path("rolled_back_to").asLong());
        assertTrue(sentinel.path("note").asText().contains("rolled back"), sentinel.toString());
    }

    @Test
    void theTieredTableOfStreamhouseHoldsExactlyTheRows() throws Exception {
        Path wh = dir.resolve("wh");
        Outcome o = run("streamhouse", "--warehouse", wh.toString(), "--table", "kept", "--rows-per-insert", "4");
        assertEquals(Main.CONSISTENT, o.status(), o.out() + o.err());
        JsonNode read = PyPaimon.read(wh, "fluss.kept");
        assertEquals("[\"id\",\"bal\",\"__bucket\",\"__offset\",\"__timestamp\"]", read.path("columns").toString());
        assertEquals(EXPECTED, read.path("rows").toString());
    }
}
