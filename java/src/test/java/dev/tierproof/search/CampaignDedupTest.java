package dev.tierproof.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One failure can look different in trials of different workloads, yet shrink to one case: the
 * campaign then keeps one finding, counts the other trials as its hits, writes one reproducer, and
 * does not shrink that other look again.
 */
@Tag("quick") // no servers: the prover here judges the workload's size and content alone
class CampaignDedupTest {
    @TempDir
    Path out;

    @Test
    void twoLooksOfOneShrunkCaseAreOneFinding() {
        CounterexampleSearch.Config cfg = new CounterexampleSearch.Config(Workload.Target.PAIMON,
                Ddl.appendOnlyTableDdl("plain", Map.of()), null, 8, 42, 4, 2, 1, List.of(), false, out,
                Duration.ofSeconds(60), Workload.PARTITION_VALUES, 1, 1);
        List<String> looks = new ArrayList<>();
        CounterexampleSearch.Prover prover = (w, c, n, config, steps) -> {
            if (w.operations() == 1) {
                throw new TierproofException("the lake lost a row");
            }
            // A trial's look depends on its operations; every shrunk case is the one above.
            String look = Math.floorMod(w.workloadCsv().hashCode(), 2) == 0 ? "a read errored: boom"
                    : "the union read returned a row twice";
            looks.add(look);
            throw new TierproofException(look);
        };
        List<String> written = new ArrayList<>();
        Campaign.State state = Campaign.run(prover, cfg, Steps.silent(), Campaign.resume(out, "dedup"),
                Duration.ofMinutes(5), out, (number, signature, shrunk) -> {
                    written.add(signature);
                    return "finding-" + number;
                });
        assertThat(looks).as("both looks came up").contains("a read errored: boom",
                "the union read returned a row twice");
        assertThat(state.findings()).hasSize(1);
        Campaign.Finding finding = state.findings().get(0);
        assertThat(finding.hits()).isEqualTo(8);
        assertThat(finding.shrunkSignature()).isEqualTo("FAILED the lake lost a row");
        assertThat(finding.seenAs()).hasSize(1);
        assertThat(written).hasSize(1);
    }
}
