package dev.tierproof.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.util.ChildJvm;
import org.junit.jupiter.api.Test;

/** The flags each part of a cluster runs with (the suite's JVMs run C1 alone, tests.jvm). */
class LauncherTest {
    @Test
    void serversRunAsThisJvmAndLogAtInfoWithStackTraces() {
        assertThat(ChildJvm.inheritedFlags()).as("this JVM, as the suite runs it").contains("-XX:TieredStopAtLevel=1");
        assertThat(Launcher.jvmFlags("org.apache.flink.runtime.taskexecutor.TaskManagerRunner"))
                .contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
                .anyMatch(f -> f.startsWith("--add-opens")).contains("-Dtierproof.log.exceptions=full",
                        "-Dtierproof.log.jobmaster=INFO").doesNotContain("-Dtierproof.log.level=INFO");
        assertThat(Launcher.jvmFlags("org.apache.fluss.server.tablet.TabletServer"))
                .contains("-XX:TieredStopAtLevel=1", "-Dtierproof.log.level=INFO", "-Dtierproof.log.exceptions=full");
        assertThat(Launcher.jvmFlags("org.apache.zookeeper.server.ZooKeeperServerMain"))
                .isEqualTo(ChildJvm.inheritedFlags());
    }
}
