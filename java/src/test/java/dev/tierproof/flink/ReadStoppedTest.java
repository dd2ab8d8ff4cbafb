package dev.tierproof.flink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A read stopped at its deadline says whether it was still receiving changes: slow is not stuck. */
@Tag("quick") // no servers: the words alone
class ReadStoppedTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aRecentChangeIsStillReceivingAndAnOldOneIsNot() {
        assertThat(BoundedRead.receiving(0, 0, 100 * SECOND)).isEqualTo("none came");
        assertThat(BoundedRead.receiving(40, 99 * SECOND, 100 * SECOND))
                .isEqualTo("the last 1.0 s before it was stopped: it was still receiving changes");
        assertThat(BoundedRead.receiving(1, 42 * SECOND, 100 * SECOND))
                .isEqualTo("the last 58.0 s before it was stopped: nothing new came after it");
    }
}
