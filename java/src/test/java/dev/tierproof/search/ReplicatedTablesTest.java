package dev.tierproof.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.core.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A search on several tablet servers draws each random table's replication factor from its seed. */
@Tag("quick") // no servers: the tables' DDL only
class ReplicatedTablesTest {
    private static final Pattern FACTOR = Pattern.compile("'table\\.replication\\.factor' = '(\\d+)'");

    private static CounterexampleSearch.Config config(Workload.Target target, int tabletServers) {
        return new CounterexampleSearch.Config(target, null, null, 20, 1, 8, 3, 1, List.of(), false, null,
                Duration.ofSeconds(10), Workload.PARTITION_VALUES, tabletServers);
    }

    @Test
    void eachRandomFlussTableKeepsOneToTheServersReplicas() {
        Set<Integer> factors = new TreeSet<>();
        for (long seed = 1; seed <= 30; seed++) {
            String ddl = CounterexampleSearch.tableOf(config(Workload.Target.FLUSS, 3), seed);
            Matcher m = FACTOR.matcher(ddl);
            assertThat(m.find()).as(ddl).isTrue();
            factors.add(Integer.parseInt(m.group(1)));
            assertThat(CounterexampleSearch.tableOf(config(Workload.Target.FLUSS, 3), seed)).as("seeded").isEqualTo(ddl);
        }
        assertThat(factors).containsExactly(1, 2, 3);
    }

    @Test
    void oneServerOrAPaimonSearchSetsNone() {
        assertThat(CounterexampleSearch.tableOf(config(Workload.Target.FLUSS, 1), 5)).doesNotContain("replication");
        assertThat(CounterexampleSearch.tableOf(config(Workload.Target.PAIMON, 3), 5)).doesNotContain("replication");
    }
}
