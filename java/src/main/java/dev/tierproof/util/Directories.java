package dev.tierproof.util;

import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing the temporary directories tierproof makes (warehouses, cluster data). */
public final class Directories {
    private Directories() {}

    /** Deletes {@code root} and everything below it; a missing directory is fine. */
    public static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new TierproofException("could not remove " + root + ": " + e.getMessage(), e);
        }
    }
}
