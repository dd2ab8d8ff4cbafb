package dev.tierproof.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search with --table-options sets options drawn from the engines' own definitions on each random
 * table, and shrinks a failing table's options to those the failure needs.
 */
@Tag("quick") // no servers: the prover here judges the table's DDL alone
class TableOptionShrinkTest {
    @TempDir
    Path warehouse;

    private CounterexampleSearch.Config config(int trials, long seed) {
        return new CounterexampleSearch.Config(Workload.Target.FLUSS, null, null, trials, seed, 6, 3, 1, List.of(),
                false, warehouse, Duration.ofSeconds(10), Workload.PARTITION_VALUES, 1, 1, 3);
    }

    @Test
    void aFailingTableKeepsOnlyTheOptionItNeeds() {
        // The first seed whose random table draws two options or more.
        long seed = LongStream.range(1, 200).filter(s -> CounterexampleSearch.tableOptionsOf(config(1, s), s).size() >= 2)
                .findFirst().orElseThrow();
        CounterexampleSearch.Config cfg = config(1, seed);
        Map<String, String> drawn = CounterexampleSearch.tableOptionsOf(cfg, seed);
        String needed = drawn.keySet().iterator().next();
        assertThat(CounterexampleSearch.tableOf(cfg, seed)).contains("'" + needed + "'");
        CounterexampleSearch.Result result = CounterexampleSearch.run((w, c, n, config, steps) -> {
            if (w.table().sql().contains("'" + needed + "'")) {
                throw new TierproofException("the lake lost a row");
            }
            throw new dev.tierproof.run.RunError("no servers here");
        }, cfg, Steps.silent());
        assertThat(result.found()).isTrue();
        String minimal = result.ddl();
        assertThat(minimal).contains("'" + needed + "'");
        drawn.keySet().stream().filter(k -> !k.equals(needed))
                .forEach(k -> assertThat(minimal).as("left out: %s", k).doesNotContain("'" + k + "'"));
    }

    @Test
    void withoutTheFlagOrOnAGivenTableNoOptionIsDrawn() {
        CounterexampleSearch.Config none = new CounterexampleSearch.Config(Workload.Target.FLUSS, null, null, 1, 5, 6,
                3, 1, List.of(), false, warehouse, Duration.ofSeconds(10), Workload.PARTITION_VALUES, 1, 1);
        assertThat(LongStream.range(0, 20).mapToObj(s -> CounterexampleSearch.tableOptionsOf(none, s)))
                .allMatch(Map::isEmpty);
        assertThat(LongStream.range(0, 20).mapToObj(s -> CounterexampleSearch.tableOptionsOf(config(1, s), s)))
                .anyMatch(m -> !m.isEmpty());
    }
}
