package dev.tierproof.fluss;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
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
     * Whether every one of {@code offsets} is 0 or the end of an acknowledged write batch of its
     * bucket: only then do the acknowledgements name exactly the writes below it. Tiering may
     * commit a snapshot inside a batch (seen with a million writes), and a write's
     * acknowledgement gives only its batch's end: which of that batch's writes lie below such an
     * offset is unknown, so no exact cut can be judged there.
     */
    public boolean endsBatches(Map<TableBucket, Long> offsets) {
        Map<TableBucket, Set<Long>> ends = new HashMap<>();
        for (int i = 0; i < logEnds.length; i++) {
            if (logEnds[i] >= 0 && offsets.containsKey(buckets[i])) {
                ends.computeIfAbsent(buckets[i], b -> new HashSet<>()).add(logEnds[i]);
            }
        }
        return offsets.entrySet().stream().allMatch(e -> e.getValue() == 0
                || ends.getOrDefault(e.getKey(), Set.of()).contains(e.getValue()));
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
