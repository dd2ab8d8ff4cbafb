package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.run.Steps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.TableWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;

/**
 * The workload written through Fluss's own Java client, as applications write: an
 * {@code UpsertWriter} (upserts and deletes) for a primary-key table, an {@code AppendWriter} for
 * a log table, in the workload's order. Every write's acknowledgement is checked: a write the
 * server rejects is reported with its position and message, even when {@code flush()} returned
 * normally. One writer keeps the order of a key's writes (they go to one bucket).
 */
public final class ClientWriter {
    /** Operations fetched from the core at a time. */
    static final int BATCH = 10_000;

    /** A write the server did not acknowledge: its position in the workload and why. */
    public record Rejected(int operation, String message) {}

    /**
     * What the producer did.
     *
     * @param written operations handed to the writer
     * @param rejected writes the server refused (the first 20)
     * @param rejectedPositions the positions (0-based, ascending, in the whole workload) of every
     *     write the client reported failed: judged as not applied, unless only their taking effect
     *     explains the reads ({@link dev.tierproof.core.Workload#outcomes})
     * @param unknown writes whose acknowledgement was lost to the network (a disconnect, a
     *     timeout: the first 20, and where each of them is): they may or may not have been
     *     applied, as for any client, and are judged so ({@link dev.tierproof.core.Workload#uncertain})
     * @param unknownPositions the positions (0-based, ascending, in the whole workload) of every
     *     write whose acknowledgement was lost
     */
    public record Outcome(int written, List<Rejected> rejected, int[] rejectedPositions, List<Rejected> unknown,
            int[] unknownPositions) {
        public int unknownCount() {
            return unknownPositions.length;
        }

        public int rejectedCount() {
            return rejectedPositions.length;
        }
    }

    /**
     * Faults injected between writes. Before the operation at a position {@link #acknowledgedBefore}
     * names, every operation handed to the writer is flushed and answered first: the fault comes at
     * a known point of the acknowledged history, not while earlier writes may still sit in the
     * client's buffer.
     */
    public interface Interruptions {
        /** No faults. */
        Interruptions NONE = new Interruptions() {
            @Override
            public boolean acknowledgedBefore(int position) {
                return false;
            }

            @Override
            public void inject(int position) {}
        };

        /**
         * Whether the faults before this 0-based position change the table's schema, so the writers
         * are made again after them (a writer keeps the schema it was made with).
         */
        default boolean reopensWritersBefore(int position) {
            return false;
        }

        /** Whether the writes before this 0-based position are to be answered before its faults. */
        boolean acknowledgedBefore(int position);

        /** Injects the faults that come just before the operation at this position, if any. */
        void inject(int position);
    }

    private ClientWriter() {}

    /** Writes every operation of the workload to the table, as a step bounded by {@code deadline}. */
    public static Outcome write(Steps steps, Connection connection, TablePath path, Workload workload,
            Duration deadline) {
        return write(steps, List.of(connection), path, workload, 0, workload.operations(), deadline,
                Interruptions.NONE, new Acks(workload.operations()));
    }

    /**
     * Writes operations {@code start} to {@code end} (exclusive) of the workload, as a step bounded
     * by {@code deadline}; a rejected write names its position in the whole workload.
     * {@code faults} are injected between writes, once what was written before them is
     * acknowledged; {@code acks} keeps where each acknowledged write landed. With more than one
     * connection, each is a writer of its own at once, and each key is written by one of them
     * only ({@link Writers}), so the order of a key's writes is still the workload's.
     */
    public static Outcome write(Steps steps, List<Connection> connections, TablePath path, Workload workload,
            int start, int end, Duration deadline, Interruptions faults, Acks acks) {
        return steps.run("writing operations " + (start + 1) + " to " + end + " through the Fluss client"
                + (connections.size() > 1 ? " (" + connections.size() + " writers at once)" : ""), deadline,
                control -> writeRange(steps, control, connections, path, workload, start, end, deadline,
                        faults, acks));
    }

    private static Outcome writeRange(Steps steps, Steps.Control control, List<Connection> connections,
            TablePath path, Workload workload, int start, int end, Duration deadline, Interruptions faults,
            Acks acks) {
        int total = end - start;
        List<CompletableFuture<?>> futures = new ArrayList<>(total);
        int[] written = {0};
        control.detail(() -> "it had written " + written[0] + " of " + total + " operations");
        try (Writers writers = Writers.open(connections, path)) {
            for (int from = start; from < end && !control.cancelled(); from += BATCH) {
                for (Workload.Operation op : workload.operations(from, Math.min(BATCH, end - from))) {
                    int position = start + written[0];
                    if (faults.acknowledgedBefore(position)) {
                        writers.flush(); // blocks until every write handed over is answered
                    }
                    faults.inject(position);
                    if (faults.reopensWritersBefore(position)) {
                        writers.reopen(); // answers every write handed over first, then takes the new schema
                    }
                    futures.add(writers.write(op));
                    written[0]++;
                    steps.progress().count("operations written", written[0], total);
                }
            }
            writers.flush();
            return outcome(futures, start, deadline, acks);
        } catch (TierproofException | SettingsRefused e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException("writing through the Fluss client failed after " + written[0]
                    + " operations: " + Steps.rootMessage(e), e);
        }
    }

    /** The producer's settings, refused by the Fluss client itself when it makes its writer: bad input, no finding. */
    static final class SettingsRefused extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        SettingsRefused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A writer of the table. A setting the client refuses (its own check, e.g. a buffer smaller
     * than two batches) is bad input, named as the client names it, as a table Fluss refuses at
     * CREATE is: a search counts it as refused, never as a finding.
     */
    static TableWriter writerOf(Table table, boolean keyed) {
        try {
            return keyed ? table.newUpsert().createWriter() : table.newAppend().createWriter();
        } catch (RuntimeException e) {
            java.util.Optional<IllegalArgumentException> refused = dev.tierproof.util.Causes.find(e,
                    IllegalArgumentException.class);
            if (refused.isPresent()) {
                throw new SettingsRefused("the Fluss client refuses the producer's settings: "
                        + refused.get().getMessage(), e);
            }
            throw e;
        }
    }

    /** Waits for every acknowledgement, keeps where each write landed and which failed. */
    private static Outcome outcome(List<CompletableFuture<?>> futures, int start, Duration deadline, Acks acks)
            throws InterruptedException {
        List<Rejected> rejected = new ArrayList<>();
        List<Rejected> unknown = new ArrayList<>();
        java.util.stream.IntStream.Builder rejectedPositions = java.util.stream.IntStream.builder();
        java.util.stream.IntStream.Builder unknownPositions = java.util.stream.IntStream.builder();
        long until = System.nanoTime() + deadline.toNanos();
        for (int i = 0; i < futures.size(); i++) {
            try {
                acks.record(start + i, futures.get(i).get(Math.max(1, until - System.nanoTime()),
                        TimeUnit.NANOSECONDS));
            } catch (ExecutionException e) {
                if (outcomeUnknown(e)) {
                    unknownPositions.add(start + i);
                    if (unknown.size() < 20) {
                        unknown.add(new Rejected(start + i + 1, Steps.rootMessage(e)));
                    }
                    continue;
                }
                rejectedPositions.add(start + i);
                if (rejected.size() < 20) {
                    rejected.add(new Rejected(start + i + 1, Steps.rootMessage(e)));
                }
            } catch (TimeoutException e) {
                throw new TierproofException("operation " + (start + i + 1) + "'s write was not acknowledged within the"
                        + " deadline of " + deadline.toSeconds() + " s", e);
            }
        }
        return new Outcome(futures.size(), rejected, rejectedPositions.build().toArray(), unknown,
                unknownPositions.build().toArray());
    }

    /** A failure that says nothing of whether the server applied the write: the network's, not the server's answer. */
    private static boolean outcomeUnknown(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.apache.fluss.exception.NetworkException
                    || t instanceof org.apache.fluss.exception.TimeoutException
                    || t instanceof java.net.ConnectException) {
                return true;
            }
        }
        return false;
    }
}
