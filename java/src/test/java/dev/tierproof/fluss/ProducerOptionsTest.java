package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The client writer's settings: checked against Fluss's own option definitions, drawn per seed. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class ProducerOptionsTest {
    @Test
    void settingsAreCheckedByFlussOwnDefinitions() {
        assertThat(ProducerOptions.parse(List.of("client.writer.batch-size=1kb", "client.writer.acks=all")))
                .containsEntry("client.writer.batch-size", "1kb").containsEntry("client.writer.acks", "all");
        assertThatThrownBy(() -> ProducerOptions.parse(List.of("client.writer.batch-size=lots")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--producer-option client.writer.batch-size=lots: ");
        assertThatThrownBy(() -> ProducerOptions.parse(List.of("client.writer.batchsize=1kb")))
                .hasMessageContaining("client.writer.batchsize is not a Fluss client writer option")
                .hasMessageContaining("client.writer.batch-size");
        assertThatThrownBy(() -> ProducerOptions.parse(List.of("bootstrap.servers")))
                .hasMessageContaining("is not KEY=VALUE");
    }

    @Test
    void aSeedDrawsTheSameValidSettingsEveryTime() {
        boolean anyDrawn = false;
        for (long seed = 1; seed <= 20; seed++) {
            Map<String, String> drawn = ProducerOptions.random(seed);
            assertThat(ProducerOptions.random(seed)).isEqualTo(drawn);
            ProducerOptions.check(drawn);
            assertThat(ProducerOptions.fromText(ProducerOptions.text(drawn))).isEqualTo(drawn);
            anyDrawn |= !drawn.isEmpty();
        }
        assertThat(anyDrawn).as("some of 20 seeds vary the producer").isTrue();
        assertThat(ProducerOptions.fromText("")).isEmpty();
    }
}
