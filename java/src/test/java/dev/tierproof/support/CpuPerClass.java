package dev.tierproof.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Where the suite's time goes: the CPU seconds each test class cost, its own JVM's and those of the
 * processes it started and waited for (servers, command lines), beside its wall seconds. Five
 * forks share two cores, so a class's wall time says little about what it costs; its CPU does.
 * Appends {@code class cpu wall own children} to {@code target/test-cpu.tsv}; {@code ./build.sh test} prints the
 * costliest. Registered through {@code META-INF/services}, so every test class is measured.
 */
public final class CpuPerClass implements TestExecutionListener {
    private static final Path OUT = Path.of("target", "test-cpu.tsv");
    private static final Path STAT = Path.of("/proc/self/stat");
    /** Clock ticks a second: Linux's USER_HZ, 100 on every architecture it runs on. */
    private static final double TICKS = 100.0;

    private record Start(double own, double children, long nanos) {}

    private final Map<String, Start> started = new ConcurrentHashMap<>();

    @Override
    public void executionStarted(TestIdentifier id) {
        className(id).ifPresent(c -> started.put(c, new Start(cpuSeconds(11, 12), cpuSeconds(13, 14), System.nanoTime())));
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        className(id).ifPresent(c -> {
            Start s = started.remove(c);
            if (s != null && Files.isReadable(STAT)) {
                double wall = (System.nanoTime() - s.nanos()) / 1e9;
                double own = cpuSeconds(11, 12) - s.own();
                double children = cpuSeconds(13, 14) - s.children();
                append(String.format(Locale.ROOT, "%s\t%.1f\t%.1f\t%.1f\t%.1f%n", c, own + children, wall, own, children));
            }
        });
    }

    private static java.util.Optional<String> className(TestIdentifier id) {
        return id.getSource().filter(ClassSource.class::isInstance).map(s -> ((ClassSource) s).getClassName());
    }

    /**
     * Fields of {@code /proc/self/stat} after the command, summed: 11-12 are this JVM's user and
     * system time, 13-14 those of the children it has waited for.
     */
    static double cpuSeconds(int first, int last) {
        try {
            String stat = Files.readString(STAT);
            // Fields after the command's closing parenthesis: state is field 3, utime field 14.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = 0;
            for (int i = first; i <= last; i++) {
                ticks += Long.parseLong(f[i]);
            }
            return ticks / TICKS;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static synchronized void append(String line) {
        try {
            Files.writeString(OUT, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
