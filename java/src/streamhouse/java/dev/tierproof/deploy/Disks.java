package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code cluster up --tablet-disk MIB}: each tablet server's data directory on a filesystem of its
 * own, a size-limited {@code tmpfs} the cluster mounts, so that a fault can fill it without
 * touching the machine's disks. Each mount is written to the cluster's {@code disks} file,
 * unmounted by {@code cluster down}, and swept by the next {@code cluster up} when its cluster is
 * gone (the JVM that was bringing it up killed before its state file), as {@link Network} is.
 */
final class Disks {
    /** The file in a cluster's directory that lists its mounts. */
    static final String FILE = "disks";
    /** Where each cluster's mounts are noted with their owner, for the sweep. */
    static final Owners OWNERS = new Owners(Path.of("/run/tierproof-disks"));
    /** The file a disk fault fills a tablet server's filesystem with. */
    static final String FILLER = "tierproof-filler";

    private Disks() {}

    /**
     * Refuses up front when the disks would take more than half the memory this machine has free:
     * a tmpfs is memory, and a fault fills it to the last byte.
     */
    static void checkMemory(int tablets, int mib) {
        long availableMiB = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    availableMiB = Long.parseLong(line.replaceAll("\\D+", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            availableMiB = -1;
        }
        if (availableMiB < 0 || (long) tablets * mib > availableMiB / 2) {
            throw new IllegalArgumentException("--tablet-disk " + mib + " for " + tablets + " tablet servers takes "
                    + (long) tablets * mib + " MiB of memory when full (a tmpfs each), more than half of the "
                    + (availableMiB < 0 ? "unknown" : availableMiB + " MiB") + " this machine has available");
        }
    }

    /** Refuses up front, naming what is missing, when this machine cannot mount a tmpfs (not root). */
    static void checkPrivileges(Path dir) {
        Path probe = dir.getParent().resolve(".tierproof-mount-probe-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(probe);
            Launcher.exec("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tierproof-probe", probe.toString());
            Launcher.exec("umount", probe.toString());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("--tablet-disk mounts a tmpfs of its own for each tablet server's data,"
                    + " which needs root (CAP_SYS_ADMIN); here: " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException e) {
                // an empty directory beside the cluster's, named as ours
            }
        }
    }

    /** Mounts a tmpfs of {@code mib} MiB at {@code at} (made here), noted in {@code dir}'s list. */
    static void mount(Path dir, Path at, int mib) {
        try {
            Files.createDirectories(at);
            note(dir, at);
            Launcher.exec("mount", "-t", "tmpfs", "-o", "size=" + mib + "m,mode=0700", "tierproof-tablet",
                    at.toString());
        } catch (IOException e) {
            throw new TierproofException("could not mount a tmpfs at " + at + ": " + e.getMessage(), e);
        }
    }

    private static void note(Path dir, Path at) throws IOException {
        Files.writeString(dir.resolve(FILE), at + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        OWNERS.note(token(dir), dir);
    }

    private static String token(Path dir) {
        return Integer.toHexString(dir.toAbsolutePath().toString().hashCode());
    }

    /** Whether the cluster in {@code dir} has disks of its own. */
    static boolean has(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE));
    }

    /** Unmounts every disk of the cluster in {@code dir} (lazily: a process still holding one cannot stop it). */
    static List<String> unmount(Path dir) {
        List<String> done = new ArrayList<>();
        try {
            if (Files.isRegularFile(dir.resolve(FILE))) {
                for (String at : Files.readAllLines(dir.resolve(FILE))) {
                    if (!at.isBlank() && mounted(at.trim())) {
                        Launcher.exec("umount", "-l", at.trim());
                        done.add(at.trim());
                    }
                }
                Files.delete(dir.resolve(FILE));
            }
            OWNERS.forget(token(dir));
        } catch (IOException e) {
            throw new TierproofException("could not unmount the disks of " + dir + ": " + e.getMessage(), e);
        }
        return done;
    }

    /** Removes a filler a run left on the cluster's disks (one killed while its fault held); what it freed. */
    static List<String> clearFillers(Path dir) {
        List<String> freed = new ArrayList<>();
        try {
            if (Files.isRegularFile(dir.resolve(FILE))) {
                for (String at : Files.readAllLines(dir.resolve(FILE))) {
                    if (!at.isBlank() && Files.deleteIfExists(Path.of(at.trim()).resolve(FILLER))) {
                        freed.add(at.trim());
                    }
                }
            }
        } catch (IOException e) {
            throw new TierproofException("could not free the disks of " + dir + ": " + e.getMessage(), e);
        }
        return freed;
    }

    /** Whether {@code at} is a mount point now ({@code /proc/mounts}). */
    static boolean mounted(String at) {
        try {
            return Files.readAllLines(Path.of("/proc/mounts")).stream().anyMatch(l -> l.split(" ")[1].equals(at));
        } catch (IOException e) {
            return false;
        }
    }

    /** Unmounts the disks of clusters that are gone: no state file, and the JVM that made them has ended. */
    static void sweep() {
        OWNERS.sweep(dir -> Files.isRegularFile(dir.resolve(ProcessCluster.STATE)), (token, dir) -> unmount(dir));
    }

    /**
     * Fills the filesystem at {@code at} to the last byte with {@link #FILLER}, and returns what
     * frees it again (safe to run twice). Should this JVM end first, it frees it on its way out.
     */
    static Runnable fill(Path at) {
        if (!mounted(at.toString())) {
            throw new IllegalArgumentException(at + " is no filesystem of the cluster's own: bring the cluster up"
                    + " with --tablet-disk MIB to fill a tablet server's disk");
        }
        Path filler = at.resolve(FILLER);
        Runnable free = () -> {
            try {
                Files.deleteIfExists(filler);
            } catch (IOException e) {
                throw new TierproofException("could not free " + at + ": " + e.getMessage(), e);
            }
        };
        Runnable heal = HealOnExit.arm("disk-" + at.getFileName(), free);
        byte[] chunk = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException full) {
            // No space left on device: the disk is full, as the fault wants.
        }
        return heal;
    }
}
