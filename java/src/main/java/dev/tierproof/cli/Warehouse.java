package dev.tierproof.cli;

import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.paimon.PaimonLake;
import dev.tierproof.paimon.PaimonTables;
import dev.tierproof.run.IoMessages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The warehouse: the user's (kept, checked writable first) or a temporary one in the run directory. */
final class Warehouse {
    private final LakeLocation lake;
    private final boolean temporary;

    private Warehouse(LakeLocation lake, boolean temporary) {
        this.lake = lake;
        this.temporary = temporary;
    }

    /**
     * A user's warehouse, checked.
     *
     * @param made the outermost directory the check had to create (null when it existed): a run
     *     that does not complete removes what it made, if it is still empty
     * @param madeFrom an object store's topmost directory of the warehouse's path that was not
     *     there (null: its root was there): removed again, with those below it, while empty
     */
    record Checked(LakeLocation lake, Path made, String madeFrom) {}

    /**
     * Checks a user's warehouse before anything runs: a directory as below; an object store's by
     * writing and removing a probe there (the bucket exists, the credentials may write).
     */
    static Checked checkUsers(LakeLocation given) {
        if (given == null || given.isLocal()) {
            return given == null ? null : checkUsers(given.directory());
        }
        return new Checked(given, null, PaimonLake.probeWritable(given));
    }

    /**
     * Checks a user's {@code --warehouse} before anything runs: not a file, creatable, writable.
     * Returns null when none was given.
     */
    static Checked checkUsers(Path given) {
        if (given == null) {
            return null;
        }
        Path p = given.toAbsolutePath().normalize();
        if (Files.exists(p) && !Files.isDirectory(p)) {
            throw new IllegalArgumentException("--warehouse " + given + " is a file, not a directory");
        }
        Path made = null;
        for (Path a = p; a != null && !Files.exists(a); a = a.getParent()) {
            made = a;
        }
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new IllegalArgumentException("--warehouse " + given + " cannot be created: " + IoMessages.of(e), e);
        }
        try {
            Files.delete(Files.createTempFile(p, ".tierproof-probe-", ""));
        } catch (IOException e) {
            removeEmpty(p, made);
            throw new IllegalArgumentException("--warehouse " + given + " cannot be written: " + IoMessages.of(e), e);
        }
        return new Checked(LakeLocation.local(p), made, null);
    }

    /** Removes {@code dir} and its parents up to {@code made}, as long as they are empty. */
    private static void removeEmpty(Path dir, Path made) {
        if (made == null) {
            return;
        }
        for (Path d = dir; d != null && d.startsWith(made); d = d.getParent()) {
            try {
                Files.deleteIfExists(d);
            } catch (IOException notEmpty) {
                return;
            }
        }
    }

    /**
     * The checked user warehouse, or a temporary one inside the run directory. Paimon's catalog
     * makes a {@code default} database in a warehouse that has none: a run that does not
     * complete removes it again (when still empty).
     */
    static Warehouse of(Checked checked, RunSession session) {
        if (checked == null) {
            return new Warehouse(LakeLocation.local(session.directory().directory("warehouse")), true);
        }
        LakeLocation users = checked.lake();
        if (checked.made() != null) {
            session.steps().undo().created("directory " + checked.made() + " (made for --warehouse)",
                    () -> removeEmpty(users.directory(), checked.made()));
        }
        if (checked.madeFrom() != null) {
            session.steps().undo().created("warehouse " + users + " (new, so removed when left empty, with the"
                    + " directories above it from " + checked.madeFrom() + ")",
                    () -> PaimonLake.removeRootIfEmpty(users, checked.madeFrom()));
        }
        if (!PaimonLake.databaseExists(users, PaimonTables.DEFAULT_DATABASE)) {
            session.steps().undo().created("database " + PaimonTables.DEFAULT_DATABASE + " in the warehouse "
                    + users, () -> PaimonLake.dropDatabaseIfEmpty(users, PaimonTables.DEFAULT_DATABASE));
        }
        return new Warehouse(users, false);
    }

    /** The warehouse's directory, for the commands that keep their tables in a local one. */
    Path path() {
        return lake.directory();
    }

    LakeLocation lake() {
        return lake;
    }

    boolean temporary() {
        return temporary;
    }

    String describe() {
        return lake + (temporary ? " (temporary)" : "");
    }
}
