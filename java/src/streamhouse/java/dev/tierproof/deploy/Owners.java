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

    /** Notes that this JVM makes {@code token}'s things for the cluster in {@code dir}. */
    void note(String token, Path dir) throws IOException {
        Files.createDirectories(folder);
        Files.writeString(file(token), dir.toAbsolutePath() + "\n" + ProcessHandle.current().pid() + "\n");
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
        try (var notes = Files.list(folder)) {
            for (Path note : notes.toList()) {
                String[] lines = Files.readString(note).trim().split("\n");
                Path dir = Path.of(lines[0].trim());
                boolean making = lines.length > 1 && ProcessHandle.of(Long.parseLong(lines[1].trim()))
                        .map(ProcessHandle::isAlive).orElse(false);
                if (!making && !live.test(dir)) {
                    remove.accept(note.getFileName().toString(), dir);
                    Files.deleteIfExists(note);
                }
            }
        } catch (IOException | RuntimeException e) {
            // best effort: the next sweep tries again
        }
    }
}
