package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.run.Steps;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;

/**
 * Fluss's log of a table replayed through Fluss's own client from each bucket's first offset up
 * to a cut (a lake snapshot's offsets): exactly the changes that snapshot must hold, whatever is
 * written after. Bounded by the cut, not by a count of rows, and by the step's deadline.
 */
public final class LogToCut {
    private LogToCut() {}

    /**
     * Reads every bucket of {@code cut} (bucket → the offset the snapshot holds the log up to,
     * exclusive) into {@code sink}, as a step within {@code deadline}. The caller has checked
     * that each bucket's log still starts at offset 0.
     */
    public static Workload.ReadBuffer read(Steps steps, FlussCluster cluster, TablePath path,
            Map<TableBucket, Long> cut, Workload.ReadBuffer sink, Duration deadline) {
        long total = cut.values().stream().mapToLong(Long::longValue).sum();
        return steps.run("replaying the Fluss log of " + path + " up to the cut (" + total + " changes)", deadline,
                control -> {
                    Map<TableBucket, Long> left = new HashMap<>();
                    cut.forEach((bucket, end) -> {
                        if (end > 0) {
                            left.put(bucket, end);
                        }
                    });
                    control.detail(() -> "it had read " + sink.size() + " of " + total + " changes");
                    try (Connection connection = Clients.open(cluster.clientConfig());
                            Table table = connection.getTable(path);
                            LogScanner scanner = table.newScan().createLogScanner()) {
                        control.onCancel(scanner::wakeup);
                        FlussValues values = new FlussValues(table.getTableInfo().getRowType());
                        for (TableBucket b : left.keySet()) {
                            if (b.getPartitionId() == null) {
                                scanner.subscribeFromBeginning(b.getBucket());
                            } else {
                                scanner.subscribeFromBeginning(b.getPartitionId(), b.getBucket());
                            }
                        }
                        while (!left.isEmpty() && !control.cancelled()) {
                            ScanRecords records = scanner.poll(Duration.ofMillis(500));
                            for (TableBucket b : records.buckets()) {
                                Long end = left.get(b);
                                if (end == null) {
                                    continue; // a bucket already read to its cut
                                }
                                long last = -1;
                                for (ScanRecord r : records.records(b)) {
                                    last = r.logOffset();
                                    if (last < end) {
                                        sink.add(FlussValues.rowKind(r.getChangeType()), values.texts(r.getRow()));
                                    }
                                }
                                // Offsets hold one change each: the change just before the cut ends the bucket.
                                if (last >= end - 1) {
                                    left.remove(b);
                                    unsubscribe(scanner, b);
                                }
                            }
                        }
                        return sink;
                    } catch (TierproofException e) {
                        throw e;
                    } catch (Exception e) {
                        throw new TierproofException("replaying the Fluss log of " + path + " failed after "
                                + sink.size() + " changes: " + Steps.rootMessage(e), e);
                    }
                });
    }

    private static void unsubscribe(LogScanner scanner, TableBucket b) {
        if (b.getPartitionId() == null) {
            scanner.unsubscribe(b.getBucket());
        } else {
            scanner.unsubscribe(b.getPartitionId(), b.getBucket());
        }
    }
}
