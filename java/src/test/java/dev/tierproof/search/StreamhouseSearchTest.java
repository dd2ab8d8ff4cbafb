package dev.tierproof.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workload;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.run.Steps;
import dev.tierproof.support.FlinkEngineExtension;
import dev.tierproof.support.FlussClusterExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The streamhouse search on one real Fluss cluster with its lake tiering: a STRING-partitioned
 * table with deletes in two rounds keeps the promise; an INT-partitioned one does not (the finding
 * docs/findings/fluss-0.9-int-partition-union-read-duplicates.md), and the search shrinks it to
 * one operation. Small and deterministic: it is the search CI runs.
 */
class StreamhouseSearchTest {
    @RegisterExtension
    static final FlussClusterExtension FLUSS = new FlussClusterExtension(1);

    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(8);

    static CounterexampleSearch.Result search(String spec, int operations, int rounds) {
        return search(spec, operations, rounds, List.of());
    }

    static CounterexampleSearch.Result search(String spec, int operations, int rounds, List<Fault.Kind> faults) {
        return search(spec, operations, rounds, faults, false, 1);
    }

    static CounterexampleSearch.Result search(String spec, int operations, int rounds, List<Fault.Kind> faults,
            boolean varyProducer, int trials) {
        return search(CounterexampleSearch.streamhouse(FLUSS.cluster(), FLINK.engine()), spec, operations, rounds,
                faults, varyProducer, trials);
    }

    static CounterexampleSearch.Result search(CounterexampleSearch.Prover prover, String spec, int operations,
            int rounds, List<Fault.Kind> faults, boolean varyProducer, int trials) {
        String ddl = Ddl.fromSpec(spec, "t", Workload.Target.FLUSS);
        return CounterexampleSearch.run(prover,
                new CounterexampleSearch.Config(Workload.Target.FLUSS, ddl, null, trials, 3, operations, 3, rounds,
                        faults, varyProducer, FLUSS.warehouse(), Duration.ofSeconds(90)), Steps.silent());
    }

    /**
     * Conditions drawn by the search: a fault (the tiering job cancelled and started again
     * mid-write) and the client writer's settings, trial by trial: still consistent. The trials
     * share one tiering job, as a deployment's tiering service, and each trial's table is dropped
     * as it ends.
     */
    @Test
    void trialsWithARestartedTieringJobAndVariedProducersKeepThePromise() throws Exception {
        OneTieringJob prover = (OneTieringJob) CounterexampleSearch.streamhouse(FLUSS.cluster(), FLINK.engine());
        CounterexampleSearch.Result r = search(prover, "k: INT, v: STRING; key = k; buckets = 2", 10, 2,
                List.of(Fault.Kind.RESTART_TIERING), true, 2);
        assertThat(r.found()).as(r.toString()).isFalse();
        assertThat(r.proofsRun()).isEqualTo(2);
        assertThat(prover.jobs()).as("one tiering job for both trials (restart-tiering restarts it in place)")
                .isEqualTo(1);
        try (org.apache.fluss.client.Connection c = dev.tierproof.fluss.Clients.open(FLUSS.cluster().clientConfig())) {
            assertThat(c.getAdmin().listTables("fluss").get()).as("each trial's table dropped as it ended")
                    .noneMatch(t -> t.startsWith("search_"));
        }
    }

    /**
     * Wide rows on the real cluster: a random table of 10 to 40 value columns, a quarter of its
     * text values a kilobyte to a few hundred long, written through the client, tiered and read
     * every way.
     */
    @Test
    void aWideRandomTableWithLongTextsKeepsThePromise() {
        CounterexampleSearch.Config cfg = new CounterexampleSearch.Config(Workload.Target.FLUSS, null, null, 1, 11, 12,
                4, 1, List.of(), false, FLUSS.warehouse(), Duration.ofSeconds(90)).withWideRows(true);
        try (Workload w = new CounterexampleSearch(CounterexampleSearch.paimon(null), cfg, Steps.silent())
                .workload(CounterexampleSearch.tableOf(cfg, 11), 11)) {
            assertThat(dev.tierproof.core.WorkloadCoverage.of(w)).contains("operations with long texts")
                    .containsAnyOf("columns 10-24", "columns 25+");
        }
        CounterexampleSearch.Result r = CounterexampleSearch.run(CounterexampleSearch.streamhouse(FLUSS.cluster(),
                FLINK.engine()), cfg, Steps.silent());
        assertThat(r.found()).as(r.toString()).isFalse();
        assertThat(r.proofsRun()).isEqualTo(1);
    }

    @Test
    void aStringPartitionedTableWithDeletesInTwoRoundsKeepsThePromise() {
        CounterexampleSearch.Result r = search("k: BIGINT, p: STRING, v: DECIMAL(10, 2); key = k, p; partition = p;"
                + " buckets = 2", 12, 2);
        assertThat(r.found()).as(r.toString()).isFalse();
        assertThat(r.proofsRun()).isEqualTo(1);
    }

    @Test
    void anIntPartitionedTableFailsAndShrinksToOneOperation() {
        CounterexampleSearch.Result r = search("k: BIGINT, p: INT, v: INT; key = k, p; partition = p", 4, 1);
        assertThat(r.found()).isTrue();
        assertThat(r.minimalOperations()).as(r.minimalCsv()).isEqualTo(1);
        assertThat(r.minimal().fails()).isTrue();
        // Doubled rows (an inconsistent verdict), or a read that fails on the garbage partition name:
        // the faces of one bug, depending on the partition value.
        assertThat(r.minimal().describe()).containsAnyOf("INCONSISTENT", "IndexOutOfBoundsException",
                "Requested array size exceeds VM limit");
        // The table shrank too: the value column v is not needed, the INT partition is.
        assertThat(r.ddl()).contains("PARTITIONED BY (`p`)").doesNotContain("`v`");
        assertThat(r.proofsRun()).isLessThanOrEqualTo(12);
    }
}
