package dev.tierproof.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search draws schedules of several faults and shrinks a failing one: a fault fewer, shorter,
 * earlier, while the trial still fails; what the failure needs stays.
 */
@Tag("quick") // no servers: the prover here judges the schedule alone
class ScheduleShrinkTest {
    @TempDir
    Path warehouse;

    @Test
    void aFailingScheduleShrinksToTheFaultItNeeds() {
        List<Fault.Kind> kinds = List.of(Fault.Kind.RESTART_TABLET, Fault.Kind.KILL_FOLLOWER,
                Fault.Kind.PAUSE_LEADER, Fault.Kind.RESTART_TIERING);
        // The servers "fail" whenever a follower is killed: the minimal schedule is that fault alone, at operation 1.
        CounterexampleSearch.Config cfg = new CounterexampleSearch.Config(Workload.Target.FLUSS, Ddl.tierTableDdl("t"),
                null, 20, 11, 16, 4, 1, kinds, false, warehouse, Duration.ofSeconds(10), Workload.PARTITION_VALUES, 1,
                4);
        CounterexampleSearch.Result result = CounterexampleSearch.run((w, c, n, config, steps) -> {
            if (c.faults().stream().anyMatch(f -> f.kind() == Fault.Kind.KILL_FOLLOWER)) {
                throw new TierproofException("acknowledged writes vanished");
            }
            // Any other schedule does not fail (an error of the run is no failure either: it keeps the test serverless).
            throw new dev.tierproof.run.RunError("no servers here");
        }, cfg, Steps.silent());
        assertThat(result.found()).isTrue();
        assertThat(Fault.text(result.minimalConditions().faults())).isEqualTo("kill-follower@1");
        assertThat(result.minimalConditions().producerOptions()).isEqualTo(Map.of());
    }
}
