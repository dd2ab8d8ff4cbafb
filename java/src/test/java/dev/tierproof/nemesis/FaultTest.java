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
                    .hasMessageContaining("--faults " + bad + " is not KIND@N or KIND@N:in-flight");
        }
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
}
