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

    /**
     * A campaign goes on past what it finds: trials with one signature are one finding, shrunk and
     * written once, its later hits counted; stopped, it goes on from its state, and a campaign of
     * other settings is refused.
     */
    @Test
    void aCampaignCountsHitsOfOneFindingAndGoesOnFromItsState(@TempDir Path out) throws Exception {
        CounterexampleSearch.Config cfg = new CounterexampleSearch.Config(Ddl.appendOnlyTableDdl("plain", Map.of()),
                Ddl.tierTableDdl("plain"), 3, 42, 4, 2, warehouse, Duration.ofSeconds(60));
        java.util.List<String> written = new java.util.ArrayList<>();
        Campaign.Reproducers reproducers = (number, signature, shrunk) -> {
            written.add(number + ": " + shrunk.minimalOperations() + " operations");
            return "finding-" + number;
        };
        Campaign.State first = Campaign.run(CounterexampleSearch.paimon(FLINK.engine()), cfg, Steps.silent(),
                Campaign.resume(out, "append judged as keyed"), Duration.ofMinutes(10), out, reproducers);
        assertEquals(3, first.nextTrial());
        assertEquals(1, first.findings().size(), first.findings().toString());
        Campaign.Finding finding = first.findings().get(0);
        assertEquals(1, finding.firstTrial());
        assertTrue(finding.signature().startsWith("INCONSISTENT; "), finding.signature());
        int failing = (int) first.trials().stream().filter(Campaign.TrialRecord::failed).count();
        assertEquals(failing, finding.hits(), first.trials().toString());
        assertEquals(java.util.List.of("1: 2 operations"), written, "shrunk and written once");

        // Stopped here; run again with the same settings and one more trial: it goes on from trial 4.
        Campaign.State resumed = Campaign.resume(out, "append judged as keyed");
        assertEquals(first, resumed);
        CounterexampleSearch.Config more = new CounterexampleSearch.Config(cfg.ddl(), cfg.promiseDdl(), 4, 42, 4, 2,
                warehouse, Duration.ofSeconds(60));
        Campaign.State second = Campaign.run(CounterexampleSearch.paimon(FLINK.engine()), more, Steps.silent(),
                resumed, Duration.ofMinutes(10), out, reproducers);
        assertEquals(4, second.nextTrial());
        assertEquals(4, second.trials().size());
        assertEquals(1, written.size(), "a known finding is not shrunk again");
        IllegalArgumentException other = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Campaign.resume(out, "another table"));
        assertTrue(other.getMessage().contains("holds a campaign of other settings (append judged as keyed)"),
                other.getMessage());
    }

    /** One finding's shrinking gets a sixth of the campaign's time, two minutes at least. */
    @Test
    void aFindingsShrinkingGetsASixthOfTheCampaign() {
        assertEquals(Duration.ofMinutes(10), Campaign.shrinkShare(Duration.ofMinutes(60)));
        assertEquals(Duration.ofMinutes(2), Campaign.shrinkShare(Duration.ofMinutes(10)));
        assertEquals(Duration.ofMinutes(2), Campaign.shrinkShare(Duration.ofMillis(1)));
    }

    /**
     * A campaign whose time runs out while it shrinks stops shrinking there: its finding's
     * reproducer is the case found so far, said to be cut short, and the campaign ends when asked.
     */
    @Test
    void aCampaignsTimeBoundsItsShrinking(@TempDir Path out) {
        CounterexampleSearch.Config cfg = new CounterexampleSearch.Config(Ddl.appendOnlyTableDdl("plain", Map.of()),
                Ddl.tierTableDdl("plain"), 3, 42, 4, 2, warehouse, Duration.ofSeconds(60));
        java.util.List<String> written = new java.util.ArrayList<>();
        Campaign.Reproducers reproducers = (number, signature, shrunk) -> {
            written.add(number + ": " + shrunk.minimalOperations() + " operations, cut short " + shrunk.cutShort());
            return "finding-" + number;
        };
        // 1 ms: the first trial starts (no time has passed yet), and the time is out before shrinking.
        Campaign.State state = Campaign.run(CounterexampleSearch.paimon(FLINK.engine()), cfg, Steps.silent(),
                Campaign.resume(out, "cut short"), Duration.ofMillis(1), out, reproducers);
        assertEquals(1, state.nextTrial(), state.trials().toString());
        assertEquals(java.util.List.of("1: 4 operations, cut short true"), written);
        assertTrue(state.findings().get(0).cutShort(), state.findings().toString());
        assertEquals(1, state.proofs(), "the trial's proof and no shrinking proof");
    }
}
