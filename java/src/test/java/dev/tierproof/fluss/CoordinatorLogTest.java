package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * tierproof's log settings keep the one ERROR of Fluss's coordinator state machines that shows a
 * dropped state change (how the lost create-table event of apache/fluss#1018 shows) and drop the
 * ones a server stopping before the coordinator makes. Once this logger was off altogether, and a
 * hang's cause was invisible in the suite's log.
 */
class CoordinatorLogTest {
    private static final String STATE_MACHINE =
            "org.apache.fluss.server.coordinator.statemachine.TableBucketStateMachine";

    @Test
    void aDroppedStateChangeIsLoggedAndAServerLeavingIsNot() {
        List<String> seen = new ArrayList<>();
        AbstractAppender recorder = new AbstractAppender("recorder", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                seen.add(event.getMessage().getFormattedMessage());
            }
        };
        recorder.start();
        // On the logger configuration that tierproof's settings filter, as the console appender is.
        LoggerConfig filtered = ((LoggerContext) LogManager.getContext(false)).getConfiguration()
                .getLoggerConfig(STATE_MACHINE);
        assertThat(filtered.getName()).isEqualTo("org.apache.fluss.server.coordinator.statemachine");
        filtered.addAppender(recorder, null, null);
        try {
            org.slf4j.Logger fluss = LoggerFactory.getLogger(STATE_MACHINE);
            fluss.error("Failed to move table buckets {} to state {}.", "[TableBucket{tableId=3, bucket=0}]",
                    "OnlineBucket", new NullPointerException());
            fluss.error("Failed to elect leader for bucket {} as No assigned replica is alive.", "3-0");
            fluss.warn("No any live replica for table bucket {}.", "3-0");
        } finally {
            filtered.removeAppender("recorder");
            recorder.stop();
        }
        assertThat(seen).containsExactly(
                "Failed to move table buckets [TableBucket{tableId=3, bucket=0}] to state OnlineBucket.");
    }
}
