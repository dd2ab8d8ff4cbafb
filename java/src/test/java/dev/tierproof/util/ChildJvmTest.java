package dev.tierproof.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ChildJvmTest {
    @Test
    void childrenShareModuleOpeningsJitAndCollector() {
        assertThat(ChildJvm.inherited("--add-opens=java.base/java.lang=ALL-UNNAMED")).isTrue();
        assertThat(ChildJvm.inherited("--add-exports=java.base/sun.nio.ch=ALL-UNNAMED")).isTrue();
        assertThat(ChildJvm.inherited("-XX:TieredStopAtLevel=1")).isTrue();
        assertThat(ChildJvm.inherited("-XX:+UseSerialGC")).isTrue();
        assertThat(ChildJvm.inherited("-XX:+UseG1GC")).isTrue();
        assertThat(ChildJvm.inherited("-XX:+UnlockDiagnosticVMOptions")).isTrue();
        assertThat(ChildJvm.inherited("-XX:-BytecodeVerificationRemote")).isTrue();
    }

    @Test
    void childrenKeepTheirOwnHeapPathsAndAgents() {
        assertThat(ChildJvm.inherited("-Xmx4g")).isFalse();
        assertThat(ChildJvm.inherited("-Djava.io.tmpdir=/tmp/x")).isFalse();
        assertThat(ChildJvm.inherited("-javaagent:/tmp/agent.jar")).isFalse();
        assertThat(ChildJvm.inherited("-XX:SharedArchiveFile=/tmp/a.jsa")).isFalse();
        assertThat(ChildJvm.inherited("-XX:-UseSerialGC")).isFalse();
    }

    @Test
    void theSuiteRunsChildrenWithItsOwnFlags() {
        // The test JVM's own flags (pom.xml's tests.jvm) are what its servers get.
        assertThat(ChildJvm.inheritedFlags()).containsSubsequence("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:-BytecodeVerificationRemote");
    }

    @Test
    void aChildInAnotherDirectoryGetsTheClassPathAbsolute() {
        // As build.sh runs tierproof: a relative jar, which a server started in its cluster's directory missed.
        assertThat(ChildJvm.absolute("java/target/tierproof.jar:/root/.m2/a.jar::lib/../b.jar", Path.of("/work/repo")))
                .isEqualTo("/work/repo/java/target/tierproof.jar:/root/.m2/a.jar:/work/repo/b.jar");
        assertThat(ChildJvm.classPath().split(java.io.File.pathSeparator)).allMatch(e -> Path.of(e).isAbsolute());
    }
}
