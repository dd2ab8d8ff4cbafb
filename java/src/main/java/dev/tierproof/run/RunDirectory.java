package dev.tierproof.run;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.Directories;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one directory that holds every temporary file of a run: the temporary warehouse, Flink's
 * and Fluss's working and I/O directories, and (for the command line) the JVM's own temporary
 * files. {@link #close()} removes it. A run killed with {@code kill -9} cannot clean up, so every
 * new run first removes the run directories whose owner is gone ({@link #sweepStale}): a run holds
 * a lock on its {@code owner} file for its whole life, and the kernel drops the lock when the
 * process dies, whatever its pid namespace.
 */
public final class RunDirectory implements AutoCloseable {
    static final String PREFIX = "tierproof-run-";
    static final String OWNER_FILE = "owner";
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    /**
     * The owner files this JVM holds locked. A sweep never opens one: the lock is the kernel's
     * (fcntl), held per process, and closing <em>any</em> descriptor of the file in this process
     * drops it, so a sweep in the same JVM as a live run (a second run directory made during a
     * run) would leave that run's directory to the next sweeper of another process, to remove
     * while the run still writes there.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();
    private final Path root;
    private final FileChannel ownerChannel;
    private boolean closed;

    private RunDirectory(Path root, FileChannel ownerChannel) {
        this.root = root;
        this.ownerChannel = ownerChannel;
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
            FileChannel owner = FileChannel.open(root.resolve(OWNER_FILE), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            owner.lock(); // held until close() or the process's death
            owner.write(StandardCharsets.UTF_8.encode(self.pid() + "\n")); // for people; the lock decides
            HELD.add(root.toAbsolutePath().normalize());
            return new RunDirectory(root, owner);
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

    /**
     * Whether the run that made {@code dir} is still running: its owner file is locked. A directory
     * without one is a run still being created, unless it is older than a minute. Only directories
     * of this user are considered.
     */
    private static boolean ownerAlive(Path dir) {
        try {
            if (!Files.getOwner(dir).getName().equals(System.getProperty("user.name"))) {
                return true; // not ours to judge
            }
            if (HELD.contains(dir.toAbsolutePath().normalize())) {
                return true; // a run of this very process: never open its owner file (see HELD)
            }
            Path owner = dir.resolve(OWNER_FILE);
            if (!Files.exists(owner)) {
                return Files.getLastModifiedTime(dir).toInstant().isAfter(Instant.now().minusSeconds(60));
            }
            try (FileChannel channel = FileChannel.open(owner, StandardOpenOption.WRITE)) {
                FileLock lock = channel.tryLock();
                if (lock == null) {
                    return true;
                }
                lock.release();
                return false;
            } catch (OverlappingFileLockException heldHere) {
                return true; // a run of this very process
            }
        } catch (IOException e) {
            return true; // when in doubt, keep it
        }
    }


    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            ownerChannel.close(); // releases the lock
        } catch (IOException ignored) {
            // the directory goes either way
        }
        try {
            Directories.deleteRecursively(root);
        } finally {
            HELD.remove(root.toAbsolutePath().normalize());
        }
    }
}
