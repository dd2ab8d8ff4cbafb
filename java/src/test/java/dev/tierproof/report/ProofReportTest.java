package dev.tierproof.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The triage of an inconsistent verdict, over reads the core judged: readers that disagree point
 * at the reader that differs; readers that all differ point at tierproof's own expected state.
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class ProofReportTest {
    static final String DDL = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)";

    /** Two reads of the workload {@code k=1: 1 then 2}, filled by {@code lake} and {@code union}. */
    static ProofReport judged(Consumer<Workload.ReadBuffer> lake, Consumer<Workload.ReadBuffer> union) {
        try (Workload w = Workload.open(Workload.Target.PAIMON, DDL, "k,v\n1,1\n1,2\n".getBytes(
                StandardCharsets.UTF_8)); Workload.Reads reads = w.reads()) {
            lake.accept(reads.open("lake", Workload.Source.SNAPSHOT));
            union.accept(reads.open("union", Workload.Source.SNAPSHOT));
            Verdict v = reads.judge();
            return new ProofReport(Report.newObject(), v, DDL, List.of(), Map.of());
        }
    }

    @Test
    void readersThatDisagreePointAtTheOneThatDiffers() {
        ProofReport r = judged(lake -> lake.add((byte) 0, new String[] {"1", "2"}), union -> {
            union.add((byte) 0, new String[] {"1", "2"});
            union.add((byte) 0, new String[] {"1", "2"}); // the key twice
        });
        assertThat(r.consistent()).isFalse();
        assertThat(r.triage()).isEqualTo("the readers disagree: the expected state is held by lake, not by union: a"
                + " finding in the reader(s) that differ");
        assertThat(r.summary()).contains("triage           : the readers disagree");
    }

    @Test
    void readersThatAllDifferPointAtTheExpectedState() {
        ProofReport r = judged(lake -> lake.add((byte) 0, new String[] {"1", "1"}),
                union -> union.add((byte) 0, new String[] {"1", "1"}));
        assertThat(r.triage()).startsWith("no read holds the expected state (lake, union)")
                .contains("a finding in tierproof until a reader agrees");
        assertThat(r.withFailedReads(List.of("fluss_union")).triage()).contains("; failed: fluss_union");
    }

    @Test
    void aReadThatFailedWhileTheOthersAgreeIsTheFinding() {
        ProofReport r = judged(lake -> lake.add((byte) 0, new String[] {"1", "2"}),
                union -> union.add((byte) 0, new String[] {"1", "2"})).withFailedReads(List.of("fluss_union"));
        assertThat(r.triage()).isEqualTo("every read that ended holds the expected state; failed: fluss_union: a"
                + " finding in the reader(s) that failed");
    }

    @Test
    void aConsistentVerdictHasNoTriageLine() {
        ProofReport r = judged(lake -> lake.add((byte) 0, new String[] {"1", "2"}),
                union -> union.add((byte) 0, new String[] {"1", "2"}));
        assertThat(r.consistent()).isTrue();
        assertThat(r.summary()).doesNotContain("triage");
    }

    @Test
    void aTableNotServedAgainAfterItsFaultsIsUnavailableWhateverItsReadsHeld() {
        ProofReport r = judged(lake -> lake.add((byte) 0, new String[] {"1", "2"}),
                union -> union.add((byte) 0, new String[] {"1", "2"}));
        assertThat(r.verdictWord()).isEqualTo("CONSISTENT");
        r.withAvailability(new Availability(false, 120_000, -1, "120 s after the faults healed, b0: no leader",
                List.of("0 ms: b0: leader 1 (epoch 0), isr [1] of [1]", "900 ms: b0: no leader (epoch 1), isr [] of [1]")));
        assertThat(r.consistent()).isFalse();
        assertThat(r.verdictWord()).isEqualTo("UNAVAILABLE");
        assertThat(r.summary()).contains("availability     : UNAVAILABLE: 120 s after the faults healed, b0: no leader")
                .endsWith("verdict          : UNAVAILABLE: 120 s after the faults healed, b0: no leader\n");
        assertThat(r.json().get("availability").get("timeline")).hasSize(2);
        // A read that broke the promise outranks a missing replica: a lost write is not hidden behind it.
        ProofReport lost = judged(lake -> lake.add((byte) 0, new String[] {"1", "1"}),
                union -> union.add((byte) 0, new String[] {"1", "2"}));
        lost.withAvailability(new Availability(false, 120_000, -1, "b0: no leader", List.of()));
        assertThat(lost.verdictWord()).isEqualTo("INCONSISTENT");
        assertThat(lost.summary()).contains("availability     : UNAVAILABLE: b0: no leader");
        ProofReport served = judged(lake -> lake.add((byte) 0, new String[] {"1", "2"}),
                union -> union.add((byte) 0, new String[] {"1", "2"}));
        served.withAvailability(new Availability(true, 120_000, 40, "in sync 40 ms after", List.of()));
        assertThat(served.verdictWord()).isEqualTo("CONSISTENT");
        // The faults' bands: in the JSON, and shaded over the tier-lag plots of the page.
        served.withFaultBands(List.of(new FaultBand("restart-tablet@700", 500, 4700)));
        served.withTierLag(List.of(new TierLag(0, 0, 0, -1), new TierLag(6000, 10, 10, 1)));
        assertThat(served.json().get("fault_bands").get(0).get("to_ms").asLong()).isEqualTo(4700);
        assertThat(served.html("DDL")).contains("class=\"band\"", "restart-tablet@700", "Leaders and in-sync replicas",
                "in sync 40 ms after");
    }
}
