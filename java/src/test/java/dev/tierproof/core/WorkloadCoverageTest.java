package dev.tierproof.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a workload's proof exercises, through JNI: the words a campaign counts. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class WorkloadCoverageTest {
    @Test
    void aPartitionedFlussTableSaysWhatItExercises() {
        String ddl = "CREATE TABLE orders (day DATE, id BIGINT, amount DECIMAL(12, 2), PRIMARY KEY (day, id) NOT"
                + " ENFORCED) PARTITIONED BY (day) WITH ('bucket.num' = '3', 'table.merge-engine' = 'first_row')";
        try (Workload w = Workload.generate(Workload.Target.FLUSS, ddl, 300, 50, 9, true)) {
            assertThat(WorkloadCoverage.of(w)).contains("table keyed", "key columns 2", "engine first-row",
                    "partition column DATE", "partitions 2-4", "buckets 3", "option table.merge-engine",
                    "type BIGINT", "type DATE", "type DECIMAL").isSorted().doesNotHaveDuplicates();
        }
        try (Workload w = Workload.generate(Workload.Target.FLUSS, ddl, 300, 50, 9, true, 0)) {
            assertThat(WorkloadCoverage.of(w)).contains("partitions 17+");
        }
    }

    @Test
    void aClosedWorkloadIsRefused() {
        Workload w = Workload.generate(Workload.Target.PAIMON, "CREATE TABLE l (v INT)", 3, 3, 1, true);
        assertThat(WorkloadCoverage.of(w)).contains("table log", "partitions none", "type INT");
        w.close();
        assertThatThrownBy(() -> WorkloadCoverage.of(w)).isInstanceOf(RuntimeException.class);
    }
}
