package dev.tierproof.paimon;

import dev.tierproof.run.Steps;
import java.time.Duration;
import java.util.List;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.table.DataTable;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;

/**
 * The lake table maintained as its users maintain it, beside Fluss's tiering, through Paimon's own
 * Java API: a full compaction of every bucket by a writer of its own (as a dedicated compaction job
 * does), a tag on the latest snapshot, or its older snapshots expired. None changes what the table
 * holds at its latest snapshot; each says what it did, or why it did nothing (no snapshot yet, or
 * its commit lost to a concurrent one: Paimon's conflict check, which a compaction job meets and
 * retries, is no finding).
 */
public final class LakeMaintenance {
    private LakeMaintenance() {}

    /** Fully compacts every bucket the latest snapshot has; what it did, in words. */
    public static String compact(LakeLocation warehouse, String database, String table) {
        return withTable(warehouse, database, table, t -> {
            if (!(t instanceof FileStoreTable store)) {
                return "nothing compacted: " + t.name() + " is no table of files";
            }
            List<BucketEntry> buckets = store.newSnapshotReader().bucketEntries();
            if (buckets.isEmpty()) {
                return "nothing to compact: the lake table has no data file yet";
            }
            BatchWriteBuilder builder = t.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (BucketEntry b : buckets) {
                    write.compact(b.partition(), b.bucket(), true);
                }
                commit.commit(write.prepareCommit());
            } catch (Exception e) {
                return "the compaction of " + buckets.size() + " bucket(s) did not commit: " + Steps.rootMessage(e);
            }
            return "compacted " + buckets.size() + " bucket(s) fully, into snapshot " + latest(t);
        });
    }

    /**
     * Tags the latest snapshot {@code tierproof-S}, S its id (so a replay names the same tags); what
     * it did, in words.
     */
    public static String tag(LakeLocation warehouse, String database, String table) {
        return withTable(warehouse, database, table, t -> {
            Long snapshot = latest(t);
            if (snapshot == null) {
                return "nothing to tag: the lake table has no snapshot yet";
            }
            String name = "tierproof-" + snapshot;
            if (t instanceof DataTable data && data.tagManager().tagExists(name)) {
                return "snapshot " + snapshot + " is tagged " + name + " already";
            }
            t.createTag(name, snapshot);
            return "tagged snapshot " + snapshot + " " + name;
        });
    }

    /**
     * Expires every snapshot but the latest, as a user's {@code expire_snapshots} with
     * {@code retain_max => 1} does (tags keep their files); what it did, in words.
     */
    public static String expire(LakeLocation warehouse, String database, String table) {
        return withTable(warehouse, database, table, t -> {
            Long snapshot = latest(t);
            if (snapshot == null) {
                return "nothing to expire: the lake table has no snapshot yet";
            }
            int expired = t.newExpireSnapshots().config(ExpireConfig.builder().snapshotRetainMin(1)
                    .snapshotRetainMax(1).snapshotTimeRetain(Duration.ZERO).build()).expire();
            return "expired " + expired + " snapshot(s), kept snapshot " + snapshot;
        });
    }

    /** The earliest snapshot the lake table still has, or null when it has none. */
    public static Long earliest(LakeLocation warehouse, String database, String table) {
        return withTable(warehouse, database, table, t -> t instanceof DataTable data
                ? data.snapshotManager().earliestSnapshotId() : null);
    }

    private interface Work<T> {
        T on(Table table) throws Exception;
    }

    private static <T> T withTable(LakeLocation warehouse, String database, String table, Work<T> work) {
        try (Catalog catalog = CatalogFactory.createCatalog(PaimonLake.context(warehouse))) {
            return work.on(catalog.getTable(Identifier.create(database, table)));
        } catch (Exception e) {
            throw new dev.tierproof.core.TierproofException("maintaining the lake table " + database + "." + table
                    + " failed: " + Steps.rootMessage(e), e);
        }
    }

    private static Long latest(Table table) {
        return table.latestSnapshot().map(Snapshot::id).orElse(null);
    }
}
