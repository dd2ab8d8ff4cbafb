package dev.tierproof.fluss;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.fluss.client.table.writer.DeleteResult;
import org.apache.fluss.client.table.writer.UpsertResult;
import org.apache.fluss.metadata.TableBucket;

/**
 * Where each acknowledged write of a primary-key table landed, as the Fluss client reports it:
 * its bucket and the bucket's log end offset after the write's batch. With these a lake snapshot's
 * per-bucket offsets name exactly the writes it must hold (a consistent cut). An append's
 * acknowledgement carries neither in Fluss 0.9.1, so a log table has no cuts.
 */
public final class Acks {
    private final TableBucket[] buckets;
    private final long[] logEnds;

    /** For a workload of {@code operations} operations, none acknowledged yet. */
    public Acks(int operations) {
        buckets = new TableBucket[operations];
        logEnds = new long[operations];
        Arrays.fill(logEnds, -1);
    }

    /** Keeps where operation {@code position} (0-based) landed, if its result says. */
    void record(int position, Object result) {
        if (result instanceof UpsertResult u && u.getBucket() != null) {
            buckets[position] = u.getBucket();
            logEnds[position] = u.getLogEndOffset();
        } else if (result instanceof DeleteResult d && d.getBucket() != null) {
            buckets[position] = d.getBucket();
            logEnds[position] = d.getLogEndOffset();
        }
    }

    /** True when at least one write's place is known (a primary-key table written by the client). */
    public boolean any() {
        return Arrays.stream(logEnds).anyMatch(o -> o >= 0);
    }

    /**
     * The positions (0-based, ascending) of the writes a snapshot at {@code offsets} holds: those
     * acknowledged whose batch ended at or before their bucket's offset there (a bucket the
     * snapshot does not name is at offset 0). Rejected writes are in no cut.
     */
    public int[] within(Map<TableBucket, Long> offsets) {
        return IntStream.range(0, logEnds.length)
                .filter(i -> logEnds[i] >= 0 && logEnds[i] <= offsets.getOrDefault(buckets[i], 0L))
                .toArray();
    }
}
