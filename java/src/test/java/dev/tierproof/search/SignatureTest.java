package dev.tierproof.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.report.ProofReport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What tells findings apart: which reads differ and how, what failed, the faults; never the data. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class SignatureTest {
    private static Verdict verdict(String read, List<List<String>> missing, List<List<String>> extra,
            List<String> failures) {
        boolean same = missing.isEmpty() && extra.isEmpty();
        return new Verdict(same && failures.isEmpty(), true, "the last write per key", List.of("id", "bal"),
                List.of(), 0, true, List.of(new Verdict.Read(read, 1, List.of(), 0, List.of(), List.of(), same, "", 0)),
                List.of(new Verdict.Check("expected", read, same, missing, extra, 0)), failures, null);
    }

    private static CounterexampleSearch.Outcome outcome(Verdict finalReads, List<ProofReport.Checkpoint> checkpoints) {
        return new CounterexampleSearch.Outcome(new ProofReport(dev.tierproof.report.Report.newObject(), finalReads,
                checkpoints, null, "CREATE TABLE t (id INT, bal INT)", List.of(), Map.of("total", 1L)), null, null);
    }

    private static final CounterexampleSearch.Conditions KILLED = new CounterexampleSearch.Conditions(2,
            List.of(new Fault(Fault.Kind.RESTART_TABLET, 7)), Map.of("client.writer.batch-size", "1kb"));

    @Test
    void readsThatDifferAndHowAndTheFaultsKindsMakeTheSignature() {
        Verdict extra = verdict("fluss_union", List.of(), List.of(List.of("1", "2")), List.of());
        assertThat(Signature.of(outcome(extra, List.of()), KILLED))
                .isEqualTo("INCONSISTENT; fluss_union extra; under restart-tablet");
        // Other rows, another operation: the same finding.
        Verdict otherRows = verdict("fluss_union", List.of(), List.of(List.of("9", "9"), List.of("8", "8")), List.of());
        CounterexampleSearch.Conditions later = new CounterexampleSearch.Conditions(1,
                List.of(new Fault(Fault.Kind.RESTART_TABLET, 3, true)), Map.of());
        assertThat(Signature.of(outcome(otherRows, List.of()), later)).isEqualTo(Signature.of(outcome(extra, List.of()),
                KILLED));
        Verdict missing = verdict("fluss_union", List.of(List.of("1", "2")), List.of(), List.of());
        assertThat(Signature.of(outcome(missing, List.of()), KILLED)).isNotEqualTo(Signature.of(outcome(extra,
                List.of()), KILLED));
    }

    @Test
    void aCheckpointThatBrokeThePromiseIsInIt() {
        Verdict fine = verdict("paimon_batch", List.of(), List.of(), List.of());
        ProofReport.Checkpoint cut = new ProofReport.Checkpoint(ProofReport.Checkpoint.Kind.CUT, "cut at snapshot 3",
                verdict("lake_snapshot_3", List.of(List.of("1", "2")), List.of(), List.of()), null);
        assertThat(Signature.of(outcome(fine, List.of(cut)), CounterexampleSearch.Conditions.NONE))
                .isEqualTo("INCONSISTENT; checkpoint cut INCONSISTENT lake_snapshot_3 missing");
        // A read that never ended is the checkpoint's failure (the read itself was left out).
        ProofReport.Checkpoint hung = new ProofReport.Checkpoint(ProofReport.Checkpoint.Kind.AFTER_ROUND, "round 1",
                verdict("paimon_batch", List.of(), List.of(), List.of("fluss_union: the fluss_union read did not end"
                        + " within its deadline of 60 s and was cancelled")), null);
        assertThat(Signature.of(outcome(fine, List.of(hung)), CounterexampleSearch.Conditions.NONE)).isEqualTo(
                "INCONSISTENT; checkpoint after_round INCONSISTENT, failure fluss_union: the fluss_union read did not"
                        + " end within its deadline of N");
    }

    @Test
    void aFailuresClassLeavesOutWhatVariesFromRunToRun() {
        assertThat(Signature.failureClass("rejected write 17: timed out after 30000 ms on /tmp/run-8/x 'search_12'"))
                .isEqualTo("rejected write N: timed out after N ms on PATH X");
        // At most twelve words: the class, not the story.
        assertThat(Signature.failureClass("a b c d e f g h i j k l m n")).isEqualTo("a b c d e f g h i j k l");
        assertThat(Signature.failureClass("read search_4.t failed: \"Batch mode can only be supported\" at 12"))
                .isEqualTo("read T.t failed: X at N");
    }
}
