package dev.tierproof.paimon;

import dev.tierproof.core.TierproofException;
import dev.tierproof.run.IoMessages;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A fault in the lake's file system: for a while, a lake table's {@code manifest} directory is
 * not there (a file holds its name), so every commit to the table fails, as on a warehouse that
 * briefly refuses writes; then it is put back as it was. Before the table's first commit there
 * is no such directory yet: the file then keeps the first commit from making it. Only a table this
 * run created is ever touched, and the directory is put back whatever happens, an interruption
 * included.
 */
public final class LakeOutage {
    private LakeOutage() {}

    /** Makes the table's commits fail for {@code length}, then restores the directory (if there was one). */
    public static void run(LakeLocation warehouse, String database, String table, Duration length) {
        Path manifests = manifestPath(warehouse, database, table);
        Path aside = manifests.resolveSibling("manifest.tierproof-outage");
        // The first commit may make the directory between the look and the file: then look again.
        for (int attempt = 1; ; attempt++) {
            boolean moved = Files.isDirectory(manifests);
            if (moved) {
                move(manifests, aside, "could not take the lake's manifests away");
            }
            try {
                block(manifests, length);
                return;
            } catch (FileAlreadyExistsException e) {
                if (moved || attempt == 3) {
                    throw new TierproofException("could not block the lake's manifests: " + IoMessages.of(e), e);
                }
            } finally {
                if (moved) {
                    move(aside, manifests, "could not put the lake's manifests back from " + aside);
                }
            }
        }
    }

    /** A file where the manifest directory is or would be, for {@code length}; removed again whatever happens. */
    private static void block(Path manifests, Duration length) throws FileAlreadyExistsException {
        try {
            Files.createFile(manifests);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (IOException e) {
            throw new TierproofException("could not block the lake's manifests: " + IoMessages.of(e), e);
        }
        try {
            Thread.sleep(length.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                Files.delete(manifests);
            } catch (IOException e) {
                throw new TierproofException("could not remove the file blocking the lake's manifests, "
                        + manifests + ": " + IoMessages.of(e), e);
            }
        }
    }

    private static void move(Path from, Path to, String failure) {
        try {
            Files.move(from, to);
        } catch (IOException e) {
            throw new TierproofException(failure + ": " + IoMessages.of(e), e);
        }
    }

    /** Where the table's manifest directory is or will be: inside the warehouse, in the table's own directory. */
    private static Path manifestPath(LakeLocation warehouse, String database, String table) {
        Path tableDir = PaimonLake.tableDirectory(warehouse, database, table);
        Path dir = tableDir.resolve("manifest");
        if (!dir.startsWith(warehouse.directory()) || !Files.isDirectory(tableDir)) {
            throw new TierproofException("the lake table " + database + "." + table + " has no directory in the"
                    + " warehouse " + warehouse + " (" + tableDir + ")");
        }
        return dir;
    }
}
