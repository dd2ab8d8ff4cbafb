package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tierproof.core.GeneralWorkload;
import dev.tierproof.core.Rows;
import dev.tierproof.core.verdict.GeneralVerdict;
import dev.tierproof.report.GeneralReport;
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

    @Test
    void everyReadOfTheTieredTableHoldsTheLastValuePerId() {
        // Repeated keys, NULL balances, negative ids and INT's extremes.
        Rows upserts = new Rows.Builder()
                .add(1, 100).add(-7, null).add(Integer.MIN_VALUE, Integer.MAX_VALUE).add(1, 150)
                .add(2, 20).add(-7, -70).add(Integer.MAX_VALUE, Integer.MIN_VALUE).add(2, null)
                .add(1, 175).add(-7, null).build();
        GeneralReport r;
        try (GeneralWorkload w = GeneralWorkload.open(GeneralWorkload.Target.FLUSS, StreamhouseProof.ddl("ledger"),
                upserts.csv())) {
            r = GeneralStreamhouseProof.run(FLUSS.cluster(), FLINK.engine(),
                    new GeneralStreamhouseProof.Config(w, FLUSS.warehouse(), Duration.ofSeconds(120), 4),
                    Steps.silent());
        }
        GeneralVerdict v = r.verdict();
        assertThat(v.consistent()).as(r.toJson()).isTrue();
        assertThat(v.expectedRows()).containsExactlyInAnyOrder(
                Arrays.asList("-2147483648", "2147483647"), Arrays.asList("-7", null), Arrays.asList("1", "175"),
                Arrays.asList("2", null), Arrays.asList("2147483647", "-2147483648"));
        for (String read : READS) {
            GeneralVerdict.Read folded = v.read(read).orElseThrow();
            assertThat(folded.consistent()).as(read + ": " + folded.reason()).isTrue();
            assertThat(folded.rows()).as(read).containsExactlyInAnyOrderElementsOf(v.expectedRows());
        }
        assertThat(v.checks()).allMatch(GeneralVerdict.Check::equal);
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
