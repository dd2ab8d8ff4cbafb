package dev.tierproof.paimon;

import dev.tierproof.core.TierproofException;
import dev.tierproof.run.IoMessages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A fault in the lake's file system: for a while, a lake table's {@code manifest} directory is
 * not there (a file holds its name), so every commit to the table fails, as on a warehouse that
 * briefly refuses writes; then it is put back as it was. Only a table this run created is ever
 * touched, and the directory is put back whatever happens, an interruption included.
 */
public final class LakeOutage {
    private LakeOutage() {}

    /** Makes the table's commits fail for {@code length}, then restores the directory. */
    public static void run(LakeLocation warehouse, String database, String table, Duration length) {
        Path manifests = manifestDirectory(warehouse, database, table);
        Path aside = manifests.resolveSibling("manifest.tierproof-outage");
        try {
            Files.move(manifests, aside);
        } catch (IOException e) {
            throw new TierproofException("could not take the lake's manifests away: " + IoMessages.of(e), e);
        }
        try {
            Files.createFile(manifests);
            Thread.sleep(length.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new TierproofException("could not block the lake's manifests: " + IoMessages.of(e), e);
        } finally {
            try {
                Files.deleteIfExists(manifests);
                Files.move(aside, manifests);
            } catch (IOException e) {
                throw new TierproofException("could not put the lake's manifests back from " + aside + ": "
                        + IoMessages.of(e), e);
            }
        }
    }

    private static Path manifestDirectory(LakeLocation warehouse, String database, String table) {
        Path dir = PaimonLake.tableDirectory(warehouse, database, table).resolve("manifest");
        if (!dir.startsWith(warehouse.directory()) || !Files.isDirectory(dir)) {
            throw new TierproofException("the lake table's manifest directory " + dir + " is not a directory in the"
                    + " warehouse " + warehouse);
        }
        return dir;
    }
}
