package dev.tierproof.cli;

import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The warehouse directory: the user's (kept) or a temporary one (removed on close). */
final class Warehouse implements AutoCloseable {
    private final Path path;
    private final boolean temporary;

    private Warehouse(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    static Warehouse of(Args args) {
        try {
            if (args.has("warehouse")) {
                Path p = Path.of(args.get("warehouse", "")).toAbsolutePath();
                Files.createDirectories(p);
                return new Warehouse(p, false);
            }
            return new Warehouse(Files.createTempDirectory("tierproof-warehouse-"), true);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot create the warehouse directory: " + e.getMessage());
        }
    }

    Path path() {
        return path;
    }

    String describe() {
        return path + (temporary ? " (temporary)" : "");
    }

    @Override
    public void close() {
        if (temporary) {
            deleteRecursively(path);
        }
    }

    static void deleteRecursively(Path root) {
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
