package dev.tierproof.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tierproof.core.Ddl;
import dev.tierproof.run.Steps;
import dev.tierproof.support.FlinkEngineExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The search on real Paimon: nothing for the tiered table, a tiny reproducer for append-only. */
class CounterexampleSearchTest {
    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(4);

    @TempDir
    Path warehouse;

    /** Small workloads (4 operations over 2 keys) keep the shrinking to a handful of proofs. */
    CounterexampleSearch.Result search(String ddl, String promiseDdl, int trials) {
        return CounterexampleSearch.run(CounterexampleSearch.paimon(FLINK.engine()),
                new CounterexampleSearch.Config(ddl, promiseDdl, trials, 42, 4, 2, warehouse, Duration.ofSeconds(60)),
                Steps.silent());
    }

    @Test
    void theTieredTableHasNoCounterexample() {
        CounterexampleSearch.Result r = search(Ddl.tierTableDdl("t"), null, 2);
        assertFalse(r.found());
        assertEquals(2, r.proofsRun());
    }

    /** Random tables: composite keys, partitions, buckets, assorted types; none breaks the promise. */
    @Test
    void randomTablesHaveNoCounterexample() {
        CounterexampleSearch.Result r = search(null, null, 3);
        assertFalse(r.found());
        assertEquals(3, r.proofsRun());
    }

    /** The negative control: an append table judged by its keyed twin's promise shrinks to one repeated write. */
    @Test
    void appendOnlyShrinksToTwoWritesOfOneId() {
        CounterexampleSearch.Result r = search(Ddl.appendOnlyTableDdl("plain", Map.of()), Ddl.tierTableDdl("plain"),
                3);
        assertTrue(r.found());
        assertEquals(1, r.trialsRun(), "the first random workload already repeats an id");
        assertEquals(2, r.minimalOperations(), r.minimalCsv() + " after " + r.proofsRun() + " proofs");
        assertEquals("op,\"id\",\"bal\"\nupsert,\"0\",\"0\"\nupsert,\"0\",\"0\"\n", r.minimalCsv());
        assertFalse(r.minimal().report().consistent());
        assertTrue(r.proofsRun() <= 16, r.proofsRun() + " proofs: whole-workload shrinks come first");
    }
}
