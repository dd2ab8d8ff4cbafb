package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import dev.tierproof.support.FlinkEngineExtension;
import dev.tierproof.support.FlussClusterExtension;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The full streamhouse path on a real Fluss cluster with real tiering into Paimon, for (id, bal). */
class StreamhouseProofTest {
    static final List<String> READS = List.of(
            "paimon_batch", "paimon_streaming", "paimon_replay", "fluss_changelog", "fluss_full", "fluss_union");

    @RegisterExtension
    static final FlussClusterExtension FLUSS = new FlussClusterExtension(1);

    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(8);

    /** Repeated keys, NULL balances, negative ids and INT's extremes. */
    static final String UPSERTS = "id,bal\n1,100\n-7,\n-2147483648,2147483647\n1,150\n2,20\n-7,-70\n"
            + "2147483647,-2147483648\n2,\n1,175\n-7,\n";

    static ProofReport prove(String table, StreamhouseProof.Producer producer) {
        try (Workload w = Workload.open(Workload.Target.FLUSS, FlussCatalog.tieredTableDdl(table),
                UPSERTS.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
            return StreamhouseProof.run(FLUSS.cluster(), FLINK.engine(),
                    new StreamhouseProof.Config(w, FLUSS.warehouse(), Duration.ofSeconds(120), 10, producer, 1),
                    Steps.silent());
        }
    }

    /**
     * Faults mid-write: the tablet server restarts (same id, data and port) and the tiering job is
     * cancelled and started again while the client writes; every acknowledged write is in every
     * read, each changelog strict, and the lake catches up.
     */
    @Test
    void aTabletRestartAndATieringRestartMidWriteKeepThePromise() {
        ProofReport r;
        try (Workload w = Workload.generate(Workload.Target.FLUSS, FlussCatalog.tieredTableDdl("faulty"), 2000, 200,
                3, true)) {
            r = StreamhouseProof.run(FLUSS.cluster(), FLINK.engine(), new StreamhouseProof.Config(w,
                    FLUSS.warehouse(), Duration.ofSeconds(120), 10, StreamhouseProof.Producer.CLIENT, 1,
                    Fault.parse("restart-tablet@700,restart-tiering@1400", 2000)), Steps.silent());
        }
        assertThat(r.consistent()).as(r.summary()).isTrue();
        assertThat(r.details()).anySatisfy(line -> assertThat(line).startsWith("faults           : restart-tablet@700"
                + " (").contains("restart-tiering@1400"));
        assertThat(r.verdict().failures()).isEmpty();
    }

    /** The second producer, Flink SQL: one ordered INSERT of the ten upserts, the same answer. */
    @Test
    void flinkSqlWritesTheSameAnswer() {
        ProofReport r = prove("by_sql", StreamhouseProof.Producer.SQL);
        assertThat(r.consistent()).as(r.toJson()).isTrue();
        assertThat(r.json().path("statements").asInt()).isEqualTo(1);
        assertThat(r.verdict().expectedRows()).hasSize(5);
    }

    @Test
    void everyReadOfTheTieredTableHoldsTheLastValuePerId() {
        ProofReport r = prove("ledger", StreamhouseProof.Producer.CLIENT);
        assertThat(r.json().path("producer").asText()).isEqualTo("client");
        Verdict v = r.verdict();
        assertThat(v.consistent()).as(r.toJson()).isTrue();
        assertThat(v.expectedRows()).containsExactlyInAnyOrder(
                Arrays.asList("-2147483648", "2147483647"), Arrays.asList("-7", null), Arrays.asList("1", "175"),
                Arrays.asList("2", null), Arrays.asList("2147483647", "-2147483648"));
        for (String read : READS) {
            Verdict.Read folded = v.read(read).orElseThrow();
            assertThat(folded.consistent()).as(read + ": " + folded.reason()).isTrue();
            assertThat(folded.rows()).as(read).containsExactlyInAnyOrderElementsOf(v.expectedRows());
        }
        assertThat(v.checks()).allMatch(Verdict.Check::equal);
        // 5 ids first written (+I), 5 overwrites (-U and +U each): the log holds 15 records.
        JsonNode j = r.json();
        assertThat(j.path("fluss").path("log_changes").asLong()).isEqualTo(15);
        assertThat(v.read("fluss_changelog").orElseThrow().changes()).isEqualTo(15);
        assertThat(v.read("paimon_replay").orElseThrow().changes()).isEqualTo(15);
        assertThat(j.path("paimon").path("database").asText()).isEqualTo("fluss");
        assertThat(FLUSS.warehouse().resolve("fluss.db/ledger")).isDirectory();
        assertThat(r.details()).anySatisfy(line -> assertThat(line).startsWith("tiering          : 15 changes in"));
    }
}
