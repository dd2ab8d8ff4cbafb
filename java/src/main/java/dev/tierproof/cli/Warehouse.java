package dev.tierproof.cli;

import dev.tierproof.paimon.PaimonLake;
import dev.tierproof.paimon.PaimonTables;
import dev.tierproof.run.IoMessages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The warehouse: the user's (kept, checked writable first) or a temporary one in the run directory. */
final class Warehouse {
    private final Path path;
    private final boolean temporary;

    private Warehouse(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    /**
     * Checks a user's {@code --warehouse} before anything runs: not a file, creatable, writable.
     * Returns null when none was given.
     */
    static Path checkUsers(Path given) {
        if (given == null) {
            return null;
        }
        Path p = given.toAbsolutePath().normalize();
        if (Files.exists(p) && !Files.isDirectory(p)) {
            throw new IllegalArgumentException("--warehouse " + given + " is a file, not a directory");
        }
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new IllegalArgumentException("--warehouse " + given + " cannot be created: " + IoMessages.of(e), e);
        }
        try {
            Files.delete(Files.createTempFile(p, ".tierproof-probe-", ""));
        } catch (IOException e) {
            throw new IllegalArgumentException("--warehouse " + given + " cannot be written: " + IoMessages.of(e), e);
        }
        return p;
    }

    /**
     * The checked user warehouse, or a temporary one inside the run directory. Paimon's catalog
     * makes a {@code default} database in a warehouse that has none: a run that does not
     * complete removes it again (when still empty).
     */
    static Warehouse of(Path checkedUsers, RunSession session) {
        if (checkedUsers == null) {
            return new Warehouse(session.directory().directory("warehouse"), true);
        }
        if (!Files.exists(checkedUsers.resolve(PaimonTables.DEFAULT_DATABASE + ".db"))) {
            session.steps().undo().created("database " + PaimonTables.DEFAULT_DATABASE + " in the warehouse "
                    + checkedUsers, () -> PaimonLake.dropDatabaseIfEmpty(checkedUsers, PaimonTables.DEFAULT_DATABASE));
        }
        return new Warehouse(checkedUsers, false);
    }

    Path path() {
        return path;
    }

    boolean temporary() {
        return temporary;
    }

    String describe() {
        return path + (temporary ? " (temporary)" : "");
    }
}
