package dev.tierproof.proof;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The availability bound comes from the servers' own settings, Fluss's defaults where they set none. */
@Tag("quick")
class RecoveryTest {
    @Test
    void theBoundIsTheSessionTimeoutPlusTheReplicaLagPlusSlack() {
        assertThat(Recovery.bound(Map.of("zookeeper.client.session-timeout", "20s", "log.replica.max-lag-time",
                "10s"))).isEqualTo(Duration.ofSeconds(60));
        Duration defaults = org.apache.fluss.config.ConfigOptions.ZOOKEEPER_SESSION_TIMEOUT.defaultValue()
                .plus(org.apache.fluss.config.ConfigOptions.LOG_REPLICA_MAX_LAG_TIME.defaultValue());
        assertThat(Recovery.bound(Map.of())).isEqualTo(defaults.plus(Recovery.SLACK));
        assertThat(Recovery.boundText(Duration.ofSeconds(60))).startsWith("60 s: zookeeper.client.session-timeout");
    }
}
