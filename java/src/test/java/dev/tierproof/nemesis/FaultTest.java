package dev.tierproof.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A fault schedule as users write it: when a fault comes, and whether writes before it are answered first. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class FaultTest {
    @Test
    void aFaultWaitsForTheWritesBeforeItUnlessSaidInFlight() {
        List<Fault> faults = Fault.parse("restart-tiering@30:in-flight, restart-tablet@12", 40);
        assertThat(faults).containsExactly(new Fault(Fault.Kind.RESTART_TABLET, 12, false),
                new Fault(Fault.Kind.RESTART_TIERING, 30, true));
        assertThat(Fault.text(faults)).isEqualTo("restart-tablet@12,restart-tiering@30:in-flight");
        assertThat(Fault.parse(Fault.text(faults), 40)).isEqualTo(faults);
    }

    @Test
    void badSchedulesNameTheItem() {
        for (String bad : List.of("restart-tablet@30:inflight", "restart-tablet:in-flight", "restart-tablet@41",
                "restart-tablet@0:in-flight", "explode@3")) {
            assertThatThrownBy(() -> Fault.parse(bad, 40)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("--faults " + bad + " is not KIND@N, KIND@N+LENGTH");
        }
        assertThatThrownBy(() -> Fault.parse("pause-leader@3+8 s", 40)).hasMessageContaining("LENGTH such as 8s");
        assertThatThrownBy(() -> Fault.parse("pause-leader@3", 40))
                .hasMessageContaining("pause-leader holds for a length from 1ms to 10 minutes: say it, as pause-leader@3+8s");
        assertThatThrownBy(() -> Fault.parse("pause-leader@3+11 m", 40)).hasMessageContaining("LENGTH such as 8s");
        assertThatThrownBy(() -> Fault.parse("pause-leader@3+601s", 40)).hasMessageContaining("1ms to 10 minutes");
        assertThatThrownBy(() -> Fault.parse("restart-tablet@3+5s", 40))
                .hasMessageContaining("restart-tablet is over when it has struck, so it takes no length");
    }

    /** A fault that lasts holds for its length: with the writes before it answered or in flight. */
    @Test
    void aLastingFaultSaysHowLongItHolds() {
        List<Fault> faults = Fault.parse("pause-leader@20+8s:in-flight,kill-leader@30,pause-leader@35+500ms", 40);
        assertThat(faults).containsExactly(
                new Fault(Fault.Kind.PAUSE_LEADER, 20, true, java.time.Duration.ofSeconds(8)),
                new Fault(Fault.Kind.KILL_LEADER, 30),
                new Fault(Fault.Kind.PAUSE_LEADER, 35, false, java.time.Duration.ofMillis(500)));
        assertThat(Fault.text(faults)).isEqualTo("pause-leader@20+8s:in-flight,kill-leader@30,pause-leader@35+500ms");
        assertThat(Fault.within(faults, 10)).extracting(Fault::length)
                .containsExactly(java.time.Duration.ofSeconds(8), java.time.Duration.ZERO, java.time.Duration.ofMillis(500));
        Fault drawn = Fault.random(List.of(Fault.Kind.PAUSE_LEADER), 100, 7).get(0);
        assertThat(drawn.length()).isBetween(java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(10));
        assertThat(Fault.parse(Fault.text(List.of(drawn)), 100)).containsExactly(drawn);
    }

    @Test
    void oneMomentHasOneTiming() {
        assertThatThrownBy(() -> Fault.parse("restart-tablet@5,restart-tiering@5:in-flight", 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--faults restart-tablet@5 and restart-tiering@5:in-flight");
        assertThat(Fault.parse("restart-tablet@5:in-flight,restart-tiering@5:in-flight", 10)).hasSize(2);
    }

    @Test
    void aSearchDrawsBothTimingsAndAShorterWorkloadKeepsThem() {
        Set<Boolean> timings = new HashSet<>();
        LongStream.range(0, 40).forEach(seed -> timings.add(
                Fault.random(List.of(Fault.Kind.RESTART_TABLET), 100, seed).get(0).inFlight()));
        assertThat(timings).containsExactlyInAnyOrder(true, false);
        assertThat(Fault.within(List.of(new Fault(Fault.Kind.MOVE_TABLET, 90, true)), 10))
                .containsExactly(new Fault(Fault.Kind.MOVE_TABLET, 10, true));
    }

    @Test
    void aRandomScheduleOfSeveralFaultsStartsWithTheOneFaultScheduleOfItsSeed() {
        List<Fault.Kind> kinds = List.of(Fault.Kind.RESTART_TABLET, Fault.Kind.KILL_FOLLOWER, Fault.Kind.PAUSE_LEADER);
        for (long seed = 0; seed < 50; seed++) {
            List<Fault> one = Fault.random(kinds, 40, seed);
            List<Fault> three = Fault.random(kinds, 40, seed, 3);
            assertThat(one).hasSize(1);
            assertThat(three).hasSize(3).contains(one.get(0)).isSortedAccordingTo(
                    java.util.Comparator.comparingInt(Fault::at));
            // Every schedule drawn is one --faults reads back.
            assertThat(Fault.parse(Fault.text(three), 40)).isEqualTo(three);
        }
    }

    @Test
    void aRandomScheduleAddsTheLastColumnOnceAtMost() {
        List<Fault.Kind> kinds = List.of(Fault.Kind.ADD_COLUMN, Fault.Kind.TAG_LAKE);
        boolean fewer = false;
        for (long seed = 0; seed < 50; seed++) {
            List<Fault> four = Fault.random(kinds, 40, seed, 4);
            assertThat(four.stream().filter(f -> f.kind() == Fault.Kind.ADD_COLUMN).count()).isLessThanOrEqualTo(1);
            fewer |= four.size() < 4;
        }
        assertThat(fewer).as("some seed draws add-column twice and keeps one").isTrue();
    }

    @Test
    void simplerSchedulesDropShortenAndMoveEarlier() {
        List<Fault> schedule = Fault.parse("pause-leader@30+8s,kill-follower@50", 60);
        assertThat(Fault.simpler(schedule).stream().map(Fault::text).toList()).containsExactly(
                "kill-follower@50", "pause-leader@30+8s", "pause-leader@30+4s,kill-follower@50",
                "pause-leader@15+8s,kill-follower@50", "kill-follower@25,pause-leader@30+8s");
        assertThat(Fault.simpler(Fault.parse("restart-tablet@1", 5))).isEmpty();
        // A fault moved onto another's operation takes its timing: one moment, one timing.
        assertThat(Fault.simpler(Fault.parse("restart-tablet@5:in-flight,restart-tiering@10", 20)).stream()
                .map(Fault::text)).contains("restart-tablet@5:in-flight,restart-tiering@5:in-flight");
    }
}
