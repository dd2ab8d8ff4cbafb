package dev.tierproof.flink;

import dev.tierproof.core.Workload;
import dev.tierproof.core.TierproofException;
import dev.tierproof.run.Steps;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs a query and streams its changes into the core as a step: planning, the job and the
 * collection are bounded by the deadline. A read that has not ended by then is cancelled and fails
 * with the number of changes it had delivered: it can never hang.
 */
public final class BoundedRead {
    /**
     * How long a read bounded by a count keeps draining after it reached its count: whatever
     * arrives then is extra, handed to the core like every other change, and judged.
     */
    public static final Duration GRACE = Duration.ofSeconds(1);

    private BoundedRead() {}

    /** Collects every change with all its fields as text (see {@link FlinkValues}) into {@code sink}. */
    public static Workload.ReadBuffer collect(Steps steps, TableEnvironment tables, String query,
            Workload.ReadBuffer sink, Duration deadline) {
        return collect(steps, tables, query, sink, deadline, -1);
    }

    /**
     * As above, until the query ends or, when {@code stopAfter} is not negative, until that many
     * changes have arrived and then for {@link #GRACE} more (anything arriving then is extra, and
     * judged); then the job is cancelled. The count must come from the source's own bookkeeping
     * (such as a log end offset), never from the expected answer.
     */
    public static Workload.ReadBuffer collect(Steps steps, TableEnvironment tables, String query,
            Workload.ReadBuffer sink, Duration deadline, long stopAfter) {
        collect(steps, tables, query, sink.name(), deadline, stopAfter, sink::size,
                row -> sink.add(row.getKind().toByteValue(), FlinkValues.texts(row)));
        return sink;
    }

    /** How recent a read's last change must be for it to count as still receiving changes. */
    static final Duration RECEIVING = Duration.ofSeconds(5);

    /**
     * For a read stopped at its deadline: whether it was still receiving changes (slow, not stuck)
     * or had had none for a while, from when its last change came ({@code lastNanos}, 0: none came).
     */
    static String receiving(long count, long lastNanos, long nowNanos) {
        if (count == 0 || lastNanos == 0) {
            return "none came";
        }
        double ago = (nowNanos - lastNanos) / 1e9;
        return String.format(java.util.Locale.ROOT, "the last %.1f s before it was stopped: %s", ago,
                ago <= RECEIVING.toSeconds() ? "it was still receiving changes" : "nothing new came after it");
    }

    /** Runs the query as a step, handing each change to {@code add}, whose count {@code size} gives. */
    private static void collect(Steps steps, TableEnvironment tables, String query, String name,
            Duration deadline, long stopAfter, LongSupplier size, Consumer<Row> add) {
        steps.execute("the " + name + " read", deadline, control -> {
            // Where the time went, for a read that misses its deadline: planning and submitting its job
            // (on a session cluster, with shipped connectors, the upload alone) or the job itself.
            long started = System.nanoTime();
            AtomicLong submittedAfterMs = new AtomicLong(-1);
            AtomicLong lastChange = new AtomicLong();
            control.detail(() -> (submittedAfterMs.get() < 0 ? "its job was not yet submitted; "
                    : "its job was submitted after " + submittedAfterMs.get() / 1000.0 + " s; ")
                    + "it had read " + size.getAsLong() + " changes, "
                    + receiving(size.getAsLong(), lastChange.get(), System.nanoTime()));
            AtomicBoolean drained = new AtomicBoolean();
            String counted = name + " changes read";
            try {
                TableResult result = PlannerThread.executeSql(tables, query);
                submittedAfterMs.set((System.nanoTime() - started) / 1_000_000);
                control.onCancel(() -> result.getJobClient().ifPresent(JobClient::cancel));
                CloseableIterator<Row> rows = result.collect();
                try {
                    Runnable drain = () -> CompletableFuture.delayedExecutor(GRACE.toMillis(), TimeUnit.MILLISECONDS)
                            .execute(() -> {
                                drained.set(true);
                                result.getJobClient().ifPresent(JobClient::cancel);
                            });
                    // A count of nothing is reached before the first row: drain, then end the job.
                    boolean draining = stopAfter == 0;
                    if (draining) {
                        drain.run();
                    }
                    while (!control.cancelled() && rows.hasNext()) {
                        add.accept(rows.next());
                        lastChange.set(System.nanoTime());
                        steps.progress().count(counted, size.getAsLong());
                        if (!draining && size.getAsLong() == stopAfter) {
                            // The count is reached: drain for the grace period, then end the job.
                            draining = true;
                            drain.run();
                        }
                    }
                } finally {
                    closeQuietly(rows);
                }
            } catch (RuntimeException e) {
                if (!control.cancelled() && !drained.get()) {
                    throw new TierproofException("the " + name + " read failed after " + size.getAsLong()
                            + " changes: " + Steps.rootMessage(e), e);
                }
            }
        });
    }

    private static void closeQuietly(CloseableIterator<Row> rows) {
        try {
            rows.close();
        } catch (Exception ignored) {
            // closing a cancelled read may fail; the read's outcome is already decided
        }
    }
}
