package dev.tierproof.util;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The flags a JVM this one starts (a cluster's server, the command line in a test) takes from it:
 * the module openings Flink, Paimon and Fluss need, and this JVM's choice of JIT, collector and
 * class verification. So servers started from the test suite's JVMs compile with C1 alone, collect
 * serially and load Maven Central's classes unverified, as those JVMs do (short-lived, on two
 * cores: C2's compiles and G1's threads cost more CPU than they save; verifying costs a tenth of a
 * short run's CPU), while servers of a user's own {@code cluster up} run with the JVM's defaults.
 */
public final class ChildJvm {
    private ChildJvm() {}

    /** This JVM's flags that a child JVM should share, in the order given. */
    public static List<String> inheritedFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(ChildJvm::inherited)
                .toList();
    }

    static boolean inherited(String flag) {
        return flag.startsWith("--add-opens") || flag.startsWith("--add-exports")
                || flag.startsWith("-XX:TieredStopAtLevel=")
                || flag.equals("-XX:+UnlockDiagnosticVMOptions") || flag.equals("-XX:-BytecodeVerificationRemote")
                || flag.matches("-XX:\\+Use[A-Za-z0-9]*GC");
    }
}
