package dev.tierproof.paimon;

import dev.tierproof.core.Changelog;
import dev.tierproof.core.TierproofException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs a query and collects its {@code (id, bal)} changes with a deadline. A read that has not
 * ended by then is cancelled and fails with the number of changes it had delivered: it can never
 * hang.
 */
public final class BoundedRead {
    private BoundedRead() {}

    /** Collects every change until the query ends by itself. */
    public static Changelog collect(
            TableEnvironment tables, String query, String name, Duration deadline, Progress progress) {
        return collect(tables, query, name, deadline, progress, -1);
    }

    /**
     * Collects until the query ends or, when {@code stopAfter} is not negative, until that many
     * changes have arrived; then the job is cancelled. The count must come from the source's own
     * bookkeeping (such as a log end offset), never from the expected answer.
     */
    public static Changelog collect(TableEnvironment tables, String query, String name, Duration deadline,
            Progress progress, long stopAfter) {
        Changelog sink = new Changelog(name);
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledExecutorService watchdog =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "tierproof-deadline-" + name);
                            t.setDaemon(true);
                            return t;
                        });
        TableResult result = tables.executeSql(query);
        CloseableIterator<Row> rows = result.collect();
        watchdog.schedule(
                () -> {
                    timedOut.set(true);
                    // Cancelling ends the blocked hasNext(); the reading thread closes the iterator.
                    result.getJobClient().ifPresent(job -> job.cancel());
                },
                deadline.toMillis(),
                TimeUnit.MILLISECONDS);
        try {
            while (sink.size() != stopAfter && rows.hasNext()) {
                Row row = rows.next();
                sink.add(row.getKind().toByteValue(), (Integer) row.getField(0), (Integer) row.getField(1));
                progress.count(name + " changes read", sink.size());
            }
            if (sink.size() == stopAfter) {
                result.getJobClient().ifPresent(job -> job.cancel());
            }
        } catch (RuntimeException e) {
            if (!timedOut.get()) {
                throw new TierproofException(
                        "the " + name + " read failed after " + sink.size() + " changes: " + rootMessage(e), e);
            }
        } finally {
            watchdog.shutdownNow();
            closeQuietly(rows);
        }
        if (timedOut.get()) {
            throw new TierproofException(
                    "the "
                            + name
                            + " read did not end within its deadline of "
                            + deadline.toSeconds()
                            + " s and was cancelled; it had read "
                            + sink.size()
                            + " changes");
        }
        return sink;
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (cause: " + t + ")";
    }

    private static void closeQuietly(CloseableIterator<Row> rows) {
        try {
            rows.close();
        } catch (Exception ignored) {
            // closing a cancelled read may fail; the read's outcome is already decided
        }
    }
}
