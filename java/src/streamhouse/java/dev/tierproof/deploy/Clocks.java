package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Clocks of their own for {@code cluster up --clocks}: each tablet server runs under libfaketime
 * (the Debian package {@code libfaketime}), which reads the server's offset from a file in the
 * cluster's directory about once a second. A clock fault writes an offset there and writes {@code +0}
 * back to heal it; the machine's own clock is never touched. Only the wall clock moves: the
 * monotonic clock the JVM times its waits with stays true.
 */
final class Clocks {
    /** The cluster's folder of offsets, a file per server. */
    static final String DIR = "clocks";
    private static final String TRUE = "+0";
    private static final List<Path> LIBRARIES = List.of(
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/local/lib/faketime/libfaketime.so.1"));

    private Clocks() {}

    /** libfaketime, where this machine has it. */
    static Optional<Path> library() {
        return LIBRARIES.stream().filter(Files::isRegularFile).findFirst();
    }

    /** Refuses {@code --clocks} before anything starts on a machine without libfaketime. */
    static void checkAvailable() {
        if (library().isEmpty()) {
            throw new IllegalArgumentException("--clocks runs each tablet server under libfaketime, which this"
                    + " machine lacks (none of " + LIBRARIES + "): install the Debian package libfaketime"
                    + " (./build.sh does when a test needs it)");
        }
    }

    /** Gives part {@code name} a clock of its own, true for now. */
    static void give(Path dir, String name) throws IOException {
        write(Files.createDirectories(dir.resolve(DIR)).resolve(name), TRUE);
    }

    static boolean has(Path dir, String name) {
        return Files.isRegularFile(dir.resolve(DIR).resolve(name));
    }

    /** What part {@code name}'s process needs to run on its own clock: nothing if it has none. */
    static Map<String, String> environment(Path dir, String name) {
        if (!has(dir, name)) {
            return Map.of();
        }
        return Map.of("LD_PRELOAD", library().orElseThrow(() -> new TierproofException(name + " has a clock of its"
                        + " own, and libfaketime is gone from this machine")).toString(),
                "FAKETIME_TIMESTAMP_FILE", dir.resolve(DIR).resolve(name).toAbsolutePath().toString(),
                "FAKETIME_DONT_FAKE_MONOTONIC", "1",
                "FAKETIME_CACHE_DURATION", "1");
    }

    /** What sets part {@code name}'s clock true again (safe to run twice); refused for a part with no clock of its own. */
    static Runnable trueAgain(Path dir, String name) {
        Path file = clockOf(dir, name);
        return () -> write(file, TRUE);
    }

    /**
     * Moves part {@code name}'s wall clock by {@code offset} (ahead when positive); the server sees
     * it within about a second. {@link #trueAgain} undoes it.
     */
    static void move(Path dir, String name, Duration offset) {
        write(clockOf(dir, name), (offset.isNegative() ? "-" : "+") + offset.abs().toSeconds());
    }

    private static Path clockOf(Path dir, String name) {
        if (!has(dir, name)) {
            throw new IllegalArgumentException(name + " has no clock of its own; bring the cluster up with --clocks");
        }
        return dir.resolve(DIR).resolve(name);
    }

    /** Sets every clock true again (a run killed while one was skewed); what it set, for the report. */
    static List<String> reset(Path dir) {
        List<String> reset = new ArrayList<>();
        Path clocks = dir.resolve(DIR);
        if (!Files.isDirectory(clocks)) {
            return reset;
        }
        try (Stream<Path> files = Files.list(clocks)) {
            for (Path file : files.filter(f -> !f.getFileName().toString().startsWith(".")).toList()) {
                if (!Files.readString(file).strip().equals(TRUE)) {
                    write(file, TRUE);
                    reset.add(file.getFileName().toString());
                }
            }
        } catch (IOException e) {
            throw new TierproofException("could not read the cluster's clocks in " + clocks + ": " + e.getMessage(), e);
        }
        return reset;
    }

    /** Replaces the file at once: libfaketime never reads half an offset. */
    private static void write(Path file, String offset) {
        try {
            Path next = file.resolveSibling("." + file.getFileName() + ".next");
            Files.writeString(next, offset + "\n");
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new TierproofException("could not set the clock in " + file + ": " + e.getMessage(), e);
        }
    }
}
