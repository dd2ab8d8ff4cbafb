package dev.tierproof.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Rows;
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

    /** Small workloads (4 upserts over 2 keys) keep the shrinking to a handful of proofs. */
    CounterexampleSearch.Result search(String ddl, int trials) {
        return CounterexampleSearch.run(FLINK.engine(), new CounterexampleSearch.Config(ddl, trials, 42, 4, 2, warehouse,
                Duration.ofSeconds(60)), Steps.silent());
    }

    @Test
    void theTieredTableHasNoCounterexample() {
        CounterexampleSearch.Result r = search(null, 2);
        assertNull(r.minimal());
        assertEquals(2, r.proofsRun());
    }

    @Test
    void appendOnlyShrinksToTwoUpsertsOfOneId() {
        CounterexampleSearch.Result r = search(Ddl.appendOnlyTableDdl("plain", Map.of()), 3);
        Rows min = r.minimal();
        assertEquals(1, r.trialsRun(), "the first random workload already repeats an id");
        assertEquals(2, min.size(), min + " after " + r.proofsRun() + " proofs");
        assertEquals(min.id(0), min.id(1));
        assertEquals("[(0, 0), (0, 0)]", min.toString());
        assertTrue(!r.minimalReport().consistent());
        assertTrue(r.proofsRun() <= 16, r.proofsRun() + " proofs: whole-workload shrinks come first");
    }
}
