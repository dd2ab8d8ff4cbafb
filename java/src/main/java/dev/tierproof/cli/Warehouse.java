package dev.tierproof.cli;

import dev.tierproof.util.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
            Directories.deleteRecursively(path);
        }
    }
}
