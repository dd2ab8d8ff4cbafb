package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Whether a new table's buckets have leaders. Fluss 0.9.1's coordinator can miss a table created
 * under load and never elect them (apache/fluss#1018); writes to it then wait for ever with nothing
 * logged. Checked once the table is made, so such a run fails at once, saying why, instead of
 * at the write step's deadline.
 */
public final class BucketLeaders {
    /** How long a question to the cluster about a table may take. */
    private static final Duration ASK = Duration.ofSeconds(30);

    private BucketLeaders() {}

    /**
     * Waits, within {@code deadline}, until every bucket of a table without partitions has a
     * leader (a partitioned table's buckets are its partitions', made as they are written).
     */
    public static void await(Connection connection, TableInfo info, Duration deadline) {
        if (info.isPartitioned()) {
            return;
        }
        TablePath path = info.getTablePath();
        try {
            MetadataUpdater metadata = Clients.fluss(connection).getMetadataUpdater();
            long end = System.nanoTime() + deadline.toNanos();
            List<Integer> leaderless = leaderless(metadata, path, info);
            while (!leaderless.isEmpty() && System.nanoTime() < end) {
                Thread.sleep(200);
                leaderless = leaderless(metadata, path, info);
            }
            if (!leaderless.isEmpty()) {
                throw new TierproofException("Fluss elected no leader for bucket(s) " + leaderless + " of " + path
                        + " within " + deadline.toSeconds() + " s of creating it, so writes to them would wait for ever."
                        + " Fluss 0.9.1's coordinator can miss a table created under load (apache/fluss#1018: "
                        + MissedTable.FINDING + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while waiting for the leaders of " + path, e);
        }
    }

    /**
     * The tablet server that leads a bucket the run writes, as Fluss's metadata says now: bucket 0
     * of the table, or of its first partition. A fault aimed at "the leader" strikes it.
     */
    public static int leaderOfWritten(Connection connection, TablePath path) {
        try {
            TableInfo info = connection.getAdmin().getTableInfo(path).get(ASK.toMillis(),
                    java.util.concurrent.TimeUnit.MILLISECONDS);
            Long partition = null;
            String partitionName = null;
            if (info.isPartitioned()) {
                var partitions = connection.getAdmin().listPartitionInfos(path).get(ASK.toMillis(),
                        java.util.concurrent.TimeUnit.MILLISECONDS);
                if (partitions.isEmpty()) {
                    throw new TierproofException(path + " has no partition yet, so no bucket has a leader to strike");
                }
                partition = partitions.get(0).getPartitionId();
                partitionName = partitions.get(0).getPartitionName();
            }
            MetadataUpdater metadata = Clients.fluss(connection).getMetadataUpdater();
            metadata.updateTableOrPartitionMetadata(path, partition);
            TableBucket bucket = new TableBucket(info.getTableId(), partition, 0);
            Integer leader = metadata.getCluster().leaderFor(bucket);
            if (leader == null) {
                throw new TierproofException("bucket 0 of " + path + (partitionName == null ? ""
                        : " partition " + partitionName) + " has no leader now, so there is none to strike");
            }
            return leader;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while finding the leader of " + path, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new TierproofException("finding the leader of " + path + " failed: " + e.getCause().getMessage(), e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TierproofException("finding the leader of " + path + ": the cluster did not answer within "
                    + ASK.toSeconds() + " s", e);
        }
    }

    /** The buckets without a leader, as a tablet server answers now (from ZooKeeper for a table it has not cached). */
    private static List<Integer> leaderless(MetadataUpdater metadata, TablePath path, TableInfo info) {
        metadata.updateTableOrPartitionMetadata(path, null);
        var cluster = metadata.getCluster();
        return IntStream.range(0, info.getNumBuckets())
                .filter(b -> cluster.leaderFor(new TableBucket(info.getTableId(), b)) == null).boxed().toList();
    }
}
