package dev.tierproof.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tierproof.core.TierproofException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Parts run side by side, each step still under its own deadline; no engine needed. */
class StepsTogetherTest {
    static final Duration SHORT = Duration.ofMillis(300);

    @Test
    void partsRunSideBySideEachOnAStepThreadOfItsOwn() {
        Steps steps = Steps.silent();
        // Each part waits for the other: run one after another, both would time out.
        CountDownLatch both = new CountDownLatch(2);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Consumer<Steps> part = lane -> lane.execute("meet", Duration.ofSeconds(10), control -> {
            threads.add(Thread.currentThread().getName() + "@" + System.identityHashCode(Thread.currentThread()));
            both.countDown();
            assertThat(both.await(5, TimeUnit.SECONDS)).as("the other part ran meanwhile").isTrue();
        });
        steps.together(List.of(part, part));
        assertThat(threads).hasSize(2).allMatch(t -> t.startsWith("tierproof-step@"));
    }

    @Test
    void aPartPastItsDeadlineFailsAloneAndTheFirstFailureIsThrownOnceAllHaveEnded() {
        Steps steps = Steps.silent();
        CountDownLatch otherEnded = new CountDownLatch(1);
        Consumer<Steps> hangs = lane -> lane.execute("the hanging read", SHORT, control -> {
            Thread.sleep(60_000);
        });
        Consumer<Steps> ends = lane -> lane.execute("the quick read", Duration.ofSeconds(10), control -> {
            Thread.sleep(2 * SHORT.toMillis());
            otherEnded.countDown();
        });
        assertThatThrownBy(() -> steps.together(List.of(hangs, ends)))
                .isInstanceOf(DeadlineExceeded.class)
                .hasMessageContaining("the hanging read did not end within its deadline");
        assertThat(otherEnded.getCount()).as("the other part ran to its end first").isZero();
    }

    @Test
    void morePartsThanLanesAllRunAndKeepTheirOrderOfResults() {
        Steps steps = Steps.silent();
        int n = Steps.LANES * 3;
        int[] done = new int[n];
        List<Consumer<Steps>> parts = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            int at = i;
            parts.add(lane -> done[at] = lane.run("part " + at, Duration.ofSeconds(10), control -> at + 1));
        }
        steps.together(parts);
        for (int i = 0; i < n; i++) {
            assertThat(done[i]).isEqualTo(i + 1);
        }
    }

    @Test
    void aPartThatThrowsLeavesTheOthersToFinish() {
        Steps steps = Steps.silent();
        CountDownLatch finished = new CountDownLatch(1);
        assertThatThrownBy(() -> steps.together(List.of(
                lane -> {
                    throw new TierproofException("the first read failed");
                },
                lane -> lane.execute("slow", Duration.ofSeconds(10), control -> {
                    Thread.sleep(SHORT.toMillis());
                    finished.countDown();
                })))).hasMessage("the first read failed");
        assertThat(finished.getCount()).isZero();
    }
}
