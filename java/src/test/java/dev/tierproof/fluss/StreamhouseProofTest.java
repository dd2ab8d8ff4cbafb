package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tierproof.core.Rows;
import dev.tierproof.core.verdict.Check;
import dev.tierproof.core.verdict.TableRow;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import dev.tierproof.support.FlinkEngineExtension;
import dev.tierproof.support.FlussClusterExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The full streamhouse path on a real Fluss cluster with real tiering into Paimon. */
class StreamhouseProofTest {
    static final List<String> READS = List.of(
            "paimon_batch", "paimon_streaming", "paimon_replay", "fluss_changelog", "fluss_full", "fluss_union");

    @RegisterExtension
    static final FlussClusterExtension FLUSS = new FlussClusterExtension(1);

    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(8);

    @Test
    void everyReadOfTheTieredTableHoldsTheLastValuePerId() {
        // Repeated keys, NULL balances, negative ids and INT's extremes, in two batched INSERTs
        // and then a single-row INSERT per upsert for the tail.
        Rows upserts = new Rows.Builder()
                .add(1, 100).add(-7, null).add(Integer.MIN_VALUE, Integer.MAX_VALUE).add(1, 150)
                .add(2, 20).add(-7, -70).add(Integer.MAX_VALUE, Integer.MIN_VALUE).add(2, null)
                .add(1, 175).add(-7, null).build();
        ProofReport r = StreamhouseProof.run(FLUSS.cluster(), FLINK.engine(),
                new StreamhouseProof.Config("ledger", upserts, FLUSS.warehouse(), Duration.ofSeconds(120), 4),
                Steps.silent());
        Verdict v = r.verdict();
        assertThat(v.consistent()).as(r.toJson()).isTrue();
        assertThat(v.expectedRows()).containsExactly(new TableRow(Integer.MIN_VALUE, Integer.MAX_VALUE),
                new TableRow(-7, null), new TableRow(1, 175), new TableRow(2, null),
                new TableRow(Integer.MAX_VALUE, Integer.MIN_VALUE));
        for (String read : READS) {
            assertThat(v.check(Verdict.EXPECTED, read)).as(read).hasValueSatisfying(c -> assertThat(c.equal()).isTrue());
            assertThat(v.rowsOf(read)).as(read).isEqualTo(v.expectedRows());
        }
        assertThat(v.checks()).allMatch(Check::equal);
        // 5 ids first written (+I), 5 overwrites (-U and +U each): the log holds 15 records.
        JsonNode j = r.json();
        assertThat(j.path("statements").asInt()).isEqualTo(3);
        assertThat(j.path("fluss").path("log_end_offset").asLong()).isEqualTo(15);
        assertThat(v.read("fluss_changelog").orElseThrow().changes()).isEqualTo(15);
        assertThat(v.read("paimon_replay").orElseThrow().changes()).isEqualTo(15);
        assertThat(j.path("paimon").path("columns").toString())
                .isEqualTo("[\"id\",\"bal\",\"__bucket\",\"__offset\",\"__timestamp\"]");
        assertThat(j.path("paimon").path("database").asText()).isEqualTo("fluss");
        assertThat(FLUSS.warehouse().resolve("fluss.db/ledger")).isDirectory();
        assertThat(r.details()).anySatisfy(line -> assertThat(line).startsWith("tiering          : log end offset 15"));
    }
}
