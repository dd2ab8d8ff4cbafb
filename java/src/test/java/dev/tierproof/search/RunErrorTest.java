package dev.tierproof.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.run.RunError;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool's own failure is never a finding: a proof that fails because tierproof's part of the run
 * failed (however a step wrapped it) is an error of the run, counted apart and never shrunk; a
 * proof that fails for the servers' reasons still is a counterexample.
 */
@Tag("quick") // no servers: the provers here fail before any
class RunErrorTest {
    @TempDir
    Path warehouse;

    private CounterexampleSearch.Config config() {
        return new CounterexampleSearch.Config(Ddl.tierTableDdl("t"), null, 3, 7, 4, 2, warehouse,
                Duration.ofSeconds(10));
    }

    @Test
    void aRunThatFailedForTierproofsOwnReasonIsAnErrorNotAFinding() {
        AtomicInteger proofs = new AtomicInteger();
        CounterexampleSearch.Result result = CounterexampleSearch.run((w, c, n, cfg, steps) -> {
            proofs.incrementAndGet();
            throw new TierproofException("the step 'writing' failed", new RunError("lake-outage could not be made:"
                    + " the manifest directory is gone", null));
        }, config(), Steps.silent());
        assertThat(result.found()).as("no counterexample").isFalse();
        assertThat(result.errors()).isEqualTo(3);
        assertThat(proofs).as("each trial once, none shrunk").hasValue(3);
    }

    @Test
    void aRunThatFailedForTheServersReasonIsStillACounterexample() {
        CounterexampleSearch.Result result = CounterexampleSearch.run((w, c, n, cfg, steps) -> {
            throw new TierproofException("the union read never ended");
        }, config(), Steps.silent());
        assertThat(result.found()).isTrue();
        assertThat(result.errors()).isZero();
        assertThat(result.minimal().describe()).isEqualTo("FAILED: the union read never ended");
    }

    @Test
    void anErrorSaysItIsTheRunsOwn() {
        CounterexampleSearch.Outcome error = new CounterexampleSearch.Outcome(null, null, null, "x could not be made");
        assertThat(error.fails()).isFalse();
        assertThat(error.describe()).startsWith("ERROR of the run (tierproof's own, no finding): x could not be made");
    }

    @Test
    void aFaultThatLeftTheClusterBrokenStopsTheSearch() {
        AtomicInteger proofs = new AtomicInteger();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CounterexampleSearch.run((w, c, n, cfg, steps) -> {
            proofs.incrementAndGet();
            throw new TierproofException("the step 'writing' failed", new dev.tierproof.fluss.ClusterBroken(
                    "restarting tablet server 0 failed: Failed to start the TabletServer.", null));
        }, config(), Steps.silent())).isInstanceOf(TierproofException.class)
                .hasMessageContaining("left the cluster broken")
                .hasMessageContaining("restarting tablet server 0 failed")
                .hasMessageContaining("the search stops");
        assertThat(proofs).as("no later trial, no shrinking on the broken cluster").hasValue(1);
    }
}
