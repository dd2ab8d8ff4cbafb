package dev.tierproof.run;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.Directories;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one directory that holds every temporary file of a run: the temporary warehouse, Flink's
 * and Fluss's working and I/O directories, and (for the command line) the JVM's own temporary
 * files. {@link #close()} removes it. A run killed with {@code kill -9} cannot clean up, so every
 * new run first removes the run directories whose owning process is gone ({@link #sweepStale}).
 */
public final class RunDirectory implements AutoCloseable {
    static final String PREFIX = "tierproof-run-";
    static final String OWNER_FILE = "owner";
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    private final Path root;
    private boolean closed;

    private RunDirectory(Path root) {
        this.root = root;
    }

    /** Removes stale run directories in {@code base}, then makes this run's. */
    public static RunDirectory create(Path base) {
        sweepStale(base);
        try {
            Files.createDirectories(base);
            ProcessHandle self = ProcessHandle.current();
            // Not Files.createTempDirectory: its first use fixes the JVM's temporary directory for
            // good, and the command line moves that into this run directory right after.
            Path root = Files.createDirectory(base.resolve(PREFIX + self.pid() + "-"
                    + Long.toUnsignedString(RANDOM.nextLong())));
            Files.writeString(root.resolve(OWNER_FILE), self.pid() + " " + startOf(self).map(Instant::toString)
                    .orElse("unknown") + "\n", StandardCharsets.UTF_8);
            return new RunDirectory(root);
        } catch (IOException e) {
            throw new TierproofException("could not create a run directory in " + base + ": " + IoMessages.of(e), e);
        }
    }

    /** The directory itself. */
    public Path root() {
        return root;
    }

    /** A subdirectory, created if missing. */
    public Path directory(String name) {
        Path p = root.resolve(name);
        try {
            return Files.createDirectories(p);
        } catch (IOException e) {
            throw new TierproofException("could not create " + p + ": " + IoMessages.of(e), e);
        }
    }

    /**
     * Removes every run directory in {@code base} whose owner process is no longer running (or is
     * another process that reuses its pid), and returns what it removed.
     */
    public static List<Path> sweepStale(Path base) {
        List<Path> removed = new ArrayList<>();
        if (!Files.isDirectory(base)) {
            return removed;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, PREFIX + "*")) {
            for (Path dir : dirs) {
                if (Files.isDirectory(dir) && !ownerAlive(dir)) {
                    try {
                        Directories.deleteRecursively(dir);
                        removed.add(dir);
                    } catch (TierproofException e) {
                        // another sweeper got there first, or it is not ours to remove: leave it
                    }
                }
            }
        } catch (IOException e) {
            // an unreadable base is not this run's problem: it makes its own directory below
        }
        return removed;
    }

    private static boolean ownerAlive(Path dir) {
        String[] owner;
        try {
            owner = Files.readString(dir.resolve(OWNER_FILE), StandardCharsets.UTF_8).trim().split(" ");
        } catch (IOException e) {
            // No owner file: a run that died while creating it; judge by the pid in the name.
            owner = new String[] {pidInName(dir), "unknown"};
        }
        long pid;
        try {
            pid = Long.parseLong(owner[0]);
        } catch (NumberFormatException e) {
            return true; // not ours to judge
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return false;
        }
        String started = startOf(process.get()).map(Instant::toString).orElse("unknown");
        return owner.length < 2 || owner[1].equals("unknown") || started.equals("unknown") || owner[1].equals(started);
    }

    private static String pidInName(Path dir) {
        String rest = dir.getFileName().toString().substring(PREFIX.length());
        int dash = rest.indexOf('-');
        return dash < 0 ? rest : rest.substring(0, dash);
    }

    private static Optional<Instant> startOf(ProcessHandle process) {
        return process.info().startInstant();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Directories.deleteRecursively(root);
    }
}
