package dev.tierproof.util;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

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

    /**
     * This JVM's class path for a child that runs in another directory: each entry made absolute.
     * (build.sh gives a relative jar; a server started in its cluster's directory found neither
     * tierproof's classes nor its log4j settings there, and logged nothing at INFO.)
     */
    public static String classPath() {
        return absolute(System.getProperty("java.class.path"), Path.of("").toAbsolutePath());
    }

    static String absolute(String classPath, Path base) {
        return Arrays.stream(classPath.split(File.pathSeparator))
                .filter(e -> !e.isEmpty())
                .map(e -> base.resolve(e).normalize().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    static boolean inherited(String flag) {
        return flag.startsWith("--add-opens") || flag.startsWith("--add-exports")
                || flag.startsWith("-XX:TieredStopAtLevel=")
                || flag.equals("-XX:+UnlockDiagnosticVMOptions") || flag.equals("-XX:-BytecodeVerificationRemote")
                || flag.matches("-XX:\\+Use[A-Za-z0-9]*GC");
    }
}
