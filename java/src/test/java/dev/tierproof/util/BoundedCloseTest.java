package dev.tierproof.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("quick")
class BoundedCloseTest {
    @Test
    void aCloseThatNeverEndsIsAbandonedAtItsBound() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        List<String> heard = new ArrayList<>();
        long start = System.nanoTime();
        try (BoundedClose<AutoCloseable> c = BoundedClose.of("the client", never::await, Duration.ofMillis(200),
                heard::add)) {
            assertThat(c.get()).isNotNull();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(heard).singleElement().asString().startsWith("the client did not close within 0 s");
        never.countDown();
    }

    @Test
    void aCloseThatEndsIsWaitedForAndItsFailureThrown() throws Exception {
        List<String> heard = new ArrayList<>();
        boolean[] closed = {false};
        try (BoundedClose<AutoCloseable> c = BoundedClose.of("quick", () -> closed[0] = true, Duration.ofSeconds(30),
                heard::add)) {
            assertThat(closed[0]).isFalse();
        }
        assertThat(closed[0]).isTrue();
        assertThat(heard).isEmpty();
        AutoCloseable failing = () -> {
            throw new IOException("broken");
        };
        assertThatThrownBy(() -> BoundedClose.of("failing", failing, Duration.ofSeconds(30), heard::add).close())
                .isInstanceOf(IOException.class).hasMessage("broken");
    }
}
