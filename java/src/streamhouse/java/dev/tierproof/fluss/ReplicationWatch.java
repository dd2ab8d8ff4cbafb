package dev.tierproof.fluss;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples a table's {@link Replication} at an interval while a run writes and heals, keeping each
 * change (a new leader, an ISR that shrank or grew back, a bucket without a leader): the evidence
 * of availability, for the report and its plot. A sample that fails (ZooKeeper or a server
 * restarting) is skipped, not fatal.
 */
public final class ReplicationWatch implements AutoCloseable {
    /** The table's buckets at one moment, {@code atMillis} after the watch began. */
    public record Sample(long atMillis, List<Replication.BucketState> buckets) {
        public boolean allInSync() {
            return !buckets.isEmpty() && buckets.stream().allMatch(Replication.BucketState::inSync);
        }

        /** {@code 1200 ms: b0: leader 1 (epoch 2), isr [1] of [0, 1]; b1: …}. */
        public String text() {
            return atMillis + " ms: " + String.join("; ", buckets.stream().map(Replication.BucketState::text)
                    .toList());
        }
    }

    /** How long a closing watch waits for a sample under way. */
    private static final Duration CLOSE = Duration.ofSeconds(15);

    private final Replication replication;
    private final java.util.function.LongSupplier clock;
    private final List<Sample> changes = new ArrayList<>();
    private final ScheduledExecutorService timer;

    private ReplicationWatch(Replication replication, Duration interval, java.util.function.LongSupplier clock) {
        this.replication = replication;
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tierproof-replication-watch");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::sampleQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts sampling {@code replication} every {@code interval}; closing it stops the watch and closes it. */
    public static ReplicationWatch start(Replication replication, Duration interval) {
        long start = System.nanoTime();
        return start(replication, interval, () -> Duration.ofNanos(System.nanoTime() - start).toMillis());
    }

    /** As {@link #start(Replication, Duration)}, its samples timed by {@code clock} (milliseconds), as another watch's. */
    public static ReplicationWatch start(Replication replication, Duration interval,
            java.util.function.LongSupplier clock) {
        return new ReplicationWatch(replication, interval, clock);
    }

    /** The replication being watched (a fault's target by role reads it). */
    public Replication replication() {
        return replication;
    }

    /** Takes a sample now, keeps it if it differs from the last one kept, and returns it. */
    public Sample sampleNow() {
        List<Replication.BucketState> buckets = replication.sample();
        Sample s = new Sample(clock.getAsLong(), buckets);
        synchronized (this) {
            if (changes.isEmpty() || !changes.get(changes.size() - 1).buckets().equals(buckets)) {
                changes.add(s);
            }
        }
        return s;
    }

    private void sampleQuietly() {
        try {
            sampleNow();
        } catch (RuntimeException e) {
            // a server or ZooKeeper restarting: the next sample tries again, and the judge asks anew
        }
    }

    /** Milliseconds on the watch's clock. */
    public long now() {
        return clock.getAsLong();
    }

    /** Each change seen, in order (the first sample, then each that differed from the one before). */
    public synchronized List<Sample> changes() {
        return List.copyOf(changes);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(CLOSE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            replication.close();
        }
    }
}
