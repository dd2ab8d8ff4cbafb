package dev.tierproof.paimon;

import dev.tierproof.core.TierproofException;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.table.Table;

/**
 * A warehouse through Paimon's own Java catalog, without Flink: what exists, a table's snapshots,
 * rolling a table back, and removing what this run created.
 */
public final class PaimonLake {
    private PaimonLake() {}

    private interface WithCatalog<T> {
        T apply(Catalog catalog) throws Exception;
    }

    /** Paimon's context for the warehouse: its location and its file system's settings. */
    public static CatalogContext context(LakeLocation lake) {
        return CatalogContext.create(Options.fromMap(lake.catalogOptions()));
    }

    private static <T> T withCatalog(LakeLocation warehouse, String what, WithCatalog<T> body) {
        try (Catalog catalog = CatalogFactory.createCatalog(context(warehouse))) {
            return body.apply(catalog);
        } catch (TierproofException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException(what + " failed in " + warehouse + ": " + Steps.rootMessage(e), e);
        }
    }

    /** Where a table's files are, as a local path. */
    public static Path tableDirectory(LakeLocation warehouse, String database, String table) {
        return withCatalog(warehouse, "finding table " + database + "." + table, catalog -> {
            java.net.URI location = ((org.apache.paimon.table.FileStoreTable) catalog.getTable(
                    Identifier.create(database, table))).location().toUri();
            // A local warehouse is named by its path: its tables' locations then have no scheme.
            return (location.getScheme() == null ? Path.of(location.getPath()) : Path.of(location))
                    .toAbsolutePath().normalize();
        });
    }

    public static boolean databaseExists(LakeLocation warehouse, String database) {
        return withCatalog(warehouse, "looking up database " + database,
                c -> c.listDatabases().contains(database));
    }

    public static boolean tableExists(LakeLocation warehouse, String database, String table) {
        return withCatalog(warehouse, "looking up table " + database + "." + table, c -> {
            try {
                c.getTable(Identifier.create(database, table));
                return true;
            } catch (Catalog.TableNotExistException e) {
                return false;
            }
        });
    }

    /** The id of the table's latest snapshot, if it has one. */
    public static OptionalLong latestSnapshotId(LakeLocation warehouse, String database, String table) {
        return withCatalog(warehouse, "reading the snapshots of " + database + "." + table, c -> {
            Table t = c.getTable(Identifier.create(database, table));
            return t.latestSnapshot().map(Snapshot::id).map(OptionalLong::of).orElse(OptionalLong.empty());
        });
    }

    /**
     * Rolls the table back to {@code snapshotId}: every later snapshot, and the files only it
     * holds, are removed. Checks afterwards that the latest snapshot is {@code snapshotId}.
     */
    public static void rollBackTo(LakeLocation warehouse, String database, String table, long snapshotId) {
        withCatalog(warehouse, "rolling back " + database + "." + table, c -> {
            Table t = c.getTable(Identifier.create(database, table));
            t.rollbackTo(snapshotId);
            long latest = c.getTable(Identifier.create(database, table)).latestSnapshot().map(Snapshot::id)
                    .orElse(-1L);
            if (latest != snapshotId) {
                throw new TierproofException("rolling back " + database + "." + table + " to snapshot " + snapshotId
                        + " left snapshot " + latest + " as the latest");
            }
            return null;
        });
    }

    public static void dropTable(LakeLocation warehouse, String database, String table) {
        withCatalog(warehouse, "dropping " + database + "." + table, c -> {
            c.dropTable(Identifier.create(database, table), true);
            return null;
        });
    }

    /** Drops the database if it is empty (never cascading into tables this run did not make). */
    public static void dropDatabaseIfEmpty(LakeLocation warehouse, String database) {
        withCatalog(warehouse, "dropping database " + database, c -> {
            if (!c.listDatabases().contains(database)) {
                return null;
            }
            if (!c.listTables(database).isEmpty()) {
                throw new TierproofException("database " + database + " holds tables this run did not create: kept");
            }
            c.dropDatabase(database, true, false);
            return null;
        });
    }

    /**
     * Whether the warehouse can be written: a probe file made and removed in it (the bucket must
     * exist, the credentials must let it be written). Throws, naming the warehouse, if not.
     * Returns the topmost directory of the warehouse's path that was not there (a file system
     * such as HDFS makes every missing parent for the probe; the probe removes them again, and
     * so must a run that does not complete), or null when the warehouse's root was there.
     */
    public static String probeWritable(LakeLocation warehouse) {
        org.apache.paimon.fs.Path probe = new org.apache.paimon.fs.Path(warehouse.warehouse(),
                ".tierproof-probe-" + java.util.UUID.randomUUID());
        // Bounded: an endpoint that does not answer ends the check, not the run's patience.
        java.util.concurrent.CompletableFuture<String> written = new java.util.concurrent.CompletableFuture<>();
        Thread probing = new Thread(() -> {
            try {
                FileIO io = FileIO.get(probe, context(warehouse));
                org.apache.paimon.fs.Path root = new org.apache.paimon.fs.Path(warehouse.warehouse());
                org.apache.paimon.fs.Path top = null;
                for (org.apache.paimon.fs.Path p = root; p != null && p.getParent() != null && !io.exists(p);
                        p = p.getParent()) {
                    top = p;
                }
                try {
                    io.writeFile(probe, "tierproof", false);
                } finally {
                    io.deleteQuietly(probe);
                    if (top != null) {
                        // Made for the probe (an object store's "directory" marker, HDFS's parents): removed,
                        // whether the write went through or not.
                        removeEmptyUpTo(io, root, top);
                    }
                }
                written.complete(top == null ? null : top.toString());
            } catch (Throwable e) {
                written.completeExceptionally(e);
            }
        }, "tierproof-warehouse-probe");
        probing.setDaemon(true);
        probing.start();
        try {
            return written.get(PROBE_DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            probing.interrupt();
            throw new IllegalArgumentException("--warehouse " + warehouse + " did not answer within "
                    + PROBE_DEADLINE.toSeconds() + " s (is the endpoint right?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("checking the warehouse " + warehouse + " was interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalArgumentException("--warehouse " + warehouse + " cannot be written: "
                    + reason(e.getCause()), e.getCause());
        }
    }

    /**
     * Why the warehouse could not be reached. For a scheme Paimon has no file system of its own
     * for (gs), Paimon tries Hadoop's and says only that none could: Hadoop's own failure (a
     * refused connection, a missing bucket) comes suppressed under that.
     */
    private static String reason(Throwable e) {
        if (e instanceof org.apache.paimon.fs.UnsupportedSchemeException && e.getSuppressed().length > 0) {
            Throwable hadoops = e.getSuppressed()[e.getSuppressed().length - 1];
            return "Hadoop's file system for it failed: " + Steps.rootMessage(hadoops);
        }
        return Steps.rootMessage(e);
    }

    private static final java.time.Duration PROBE_DEADLINE = java.time.Duration.ofSeconds(60);

    /**
     * Removes the warehouse's root if it holds nothing, and each parent up to {@code top} that
     * then holds nothing (a run that made them and did not complete).
     */
    public static void removeRootIfEmpty(LakeLocation warehouse, String top) {
        org.apache.paimon.fs.Path root = new org.apache.paimon.fs.Path(warehouse.warehouse());
        try {
            removeEmptyUpTo(FileIO.get(root, context(warehouse)), root, new org.apache.paimon.fs.Path(top));
        } catch (java.io.IOException e) {
            throw new TierproofException("removing the empty warehouse " + warehouse + " failed: "
                    + Steps.rootMessage(e), e);
        }
    }

    private static void removeIfEmpty(FileIO io, org.apache.paimon.fs.Path dir) throws java.io.IOException {
        if (io.exists(dir) && io.listStatus(dir).length == 0) {
            io.delete(dir, false);
        }
    }

    /** {@code dir} and its parents up to {@code top}, each removed while empty (one that is not stops it). */
    private static void removeEmptyUpTo(FileIO io, org.apache.paimon.fs.Path dir, org.apache.paimon.fs.Path top)
            throws java.io.IOException {
        String last = top.toUri().getPath();
        for (org.apache.paimon.fs.Path p = dir; p != null; p = p.getParent()) {
            if (io.exists(p) && io.listStatus(p).length > 0) {
                return;
            }
            removeIfEmpty(io, p);
            if (p.toUri().getPath().equals(last)) {
                return;
            }
        }
    }

    /** Whether the warehouse's root exists (read only: an audit never makes it). */
    public static boolean warehouseExists(LakeLocation warehouse) {
        if (warehouse.isLocal()) {
            return java.nio.file.Files.isDirectory(warehouse.directory());
        }
        org.apache.paimon.fs.Path root = new org.apache.paimon.fs.Path(warehouse.warehouse());
        try {
            return FileIO.get(root, context(warehouse)).exists(root);
        } catch (Exception e) {
            throw new TierproofException("reaching the warehouse " + warehouse + " failed: " + Steps.rootMessage(e),
                    e);
        }
    }

    // The Paimon-only commands keep their tables in a local directory.
    public static boolean databaseExists(Path warehouse, String database) {
        return databaseExists(LakeLocation.local(warehouse), database);
    }

    public static boolean tableExists(Path warehouse, String database, String table) {
        return tableExists(LakeLocation.local(warehouse), database, table);
    }

    public static OptionalLong latestSnapshotId(Path warehouse, String database, String table) {
        return latestSnapshotId(LakeLocation.local(warehouse), database, table);
    }

    public static void rollBackTo(Path warehouse, String database, String table, long snapshotId) {
        rollBackTo(LakeLocation.local(warehouse), database, table, snapshotId);
    }

    public static void dropTable(Path warehouse, String database, String table) {
        dropTable(LakeLocation.local(warehouse), database, table);
    }

    public static void dropDatabaseIfEmpty(Path warehouse, String database) {
        dropDatabaseIfEmpty(LakeLocation.local(warehouse), database);
    }
}
