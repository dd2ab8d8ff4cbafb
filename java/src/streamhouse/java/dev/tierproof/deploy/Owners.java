package dev.tierproof.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Notes of what clusters made outside their own directory (network namespaces, mounts): a file per
 * cluster in a folder under {@code /run}, naming its directory and the JVM that made it, so that
 * the next {@code cluster up} can sweep what a killed JVM left behind, and nothing else.
 */
final class Owners {
    private final Path folder;

    Owners(Path folder) {
        this.folder = folder;
    }

    /** The note of {@code token}. */
    Path file(String token) {
        return folder.resolve(token);
    }

    /** Whether {@code token} is noted (by any cluster). */
    boolean noted(String token) {
        return Files.exists(file(token));
    }

    /** Holds the folder's lock (a file lock, across JVMs) until closed: one chooser at a time. */
    java.io.Closeable lock() throws IOException {
        Files.createDirectories(folder);
        var channel = java.nio.channels.FileChannel.open(folder.resolve(".lock"),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
        try {
            channel.lock(); // released when the channel closes
            return channel::close;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Notes that this JVM makes {@code token}'s things for the cluster in {@code dir}: written
     * whole to a file of its own, then moved into place, so that a sweep never reads half a note.
     */
    void note(String token, Path dir) throws IOException {
        Files.createDirectories(folder);
        Path part = Files.createTempFile(folder, ".note-", ".tmp");
        Files.writeString(part, dir.toAbsolutePath() + "\n" + ProcessHandle.current().pid() + "\n");
        Files.move(part, file(token), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Forgets {@code token} (its things are gone). */
    void forget(String token) throws IOException {
        Files.deleteIfExists(file(token));
    }

    /**
     * Hands each noted token whose cluster is gone to {@code remove} (with the cluster's directory),
     * then forgets it: gone means the JVM that noted it has ended and {@code live} says its
     * directory holds no cluster. A cluster another JVM is making right now is left alone. Best
     * effort: what fails now, the next sweep tries again.
     */
    void sweep(Predicate<Path> live, BiConsumer<String, Path> remove) {
        if (!Files.isDirectory(folder)) {
            return;
        }
        java.util.List<Path> notes;
        try (var listed = Files.list(folder)) {
            notes = listed.filter(n -> !n.getFileName().toString().startsWith(".")).toList();
        } catch (IOException e) {
            return; // best effort: the next sweep tries again
        }
        for (Path note : notes) {
            try {
                String[] lines = Files.readString(note).trim().split("\n");
                if (lines.length < 2 || lines[0].isBlank()) {
                    continue; // a note it cannot read is taken for a live one: never remove what it cannot name
                }
                Path dir = Path.of(lines[0].trim());
                boolean making = ProcessHandle.of(Long.parseLong(lines[1].trim())).map(ProcessHandle::isAlive)
                        .orElse(false);
                if (!making && !live.test(dir)) {
                    remove.accept(note.getFileName().toString(), dir);
                    Files.deleteIfExists(note);
                }
            } catch (IOException | RuntimeException e) {
                // this note waits for the next sweep; the others are still looked at
            }
        }
    }
}
