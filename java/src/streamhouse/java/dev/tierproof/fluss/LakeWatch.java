package dev.tierproof.fluss;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;

/**
 * Watches tiering while the proof writes and waits (issue 9, live checks): at an interval it asks
 * Fluss for every bucket's log end offset, the latest lake snapshot and the latest readable one.
 * It keeps the tier lag over time, each distinct readable snapshot with its per-bucket offsets (a
 * cut the proof then judges against exactly the writes below those offsets), and anything that
 * goes backwards: a snapshot id, a bucket's tiered offset, a bucket's log end offset (acknowledged
 * writes lost). A poll that fails (a server restarting) is counted, not fatal.
 */
public final class LakeWatch implements AutoCloseable {
    /** How long one poll's requests may take. */
    static final Duration POLL_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Where tiering stood at one moment.
     *
     * @param atMillis since the watch began
     * @param logEnd the sum of every bucket's log end offset
     * @param tiered the sum of the latest lake snapshot's offsets (0 before the first)
     * @param lakeSnapshot the latest lake snapshot's id, -1 before the first
     */
    public record Sample(long atMillis, long logEnd, long tiered, long lakeSnapshot) {
        public long lag() {
            return logEnd - tiered;
        }
    }

    /** A readable lake snapshot and the log offset of every bucket it holds, first seen at {@code atMillis}. */
    public record Cut(long snapshotId, Map<TableBucket, Long> offsets, long atMillis) {}

    private final Admin admin;
    private final TablePath path;
    private final Duration interval;
    private final long start = System.nanoTime();

    /** Milliseconds since the watch started: the clock of a run's plots, faults and replication samples. */
    public long now() {
        return java.time.Duration.ofNanos(System.nanoTime() - start).toMillis();
    }
    private final List<Sample> samples = new ArrayList<>();
    private final Map<Long, Cut> cuts = new LinkedHashMap<>();
    private final List<String> backwards = new ArrayList<>();
    private final Map<TableBucket, Long> lastLogEnds = new HashMap<>();
    private final Map<TableBucket, Long> highestLogEnds = new HashMap<>();
    private int logEndDips;
    private final Map<TableBucket, Long> lastTiered = new HashMap<>();
    private long lastSnapshot = -1;
    private int failedPolls;
    private String firstFailure;
    private final Thread thread;
    private volatile boolean stopping;

    private LakeWatch(Admin admin, TablePath path, Duration interval) {
        this.admin = admin;
        this.path = path;
        this.interval = interval;
        this.thread = new Thread(this::loop, "tierproof-lake-watch");
        thread.setDaemon(true);
    }

    /** Starts watching {@code path} every {@code interval}, in a thread of its own. */
    public static LakeWatch start(Admin admin, TablePath path, Duration interval) {
        LakeWatch watch = new LakeWatch(admin, path, interval);
        watch.thread.start();
        return watch;
    }

    private void loop() {
        while (!stopping) {
            poll();
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One look at the log and the lake; public so a caller can take a last one after it stops. */
    public void poll() {
        try {
            Map<TableBucket, Long> logEnds = Tiering.logEndOffsets(admin, path, POLL_TIMEOUT);
            LakeSnapshot latest = snapshot(() -> admin.getLatestLakeSnapshot(path));
            LakeSnapshot readable = snapshot(() -> admin.getReadableLakeSnapshot(path));
            record(logEnds, latest, readable);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            synchronized (this) {
                failedPolls++;
                if (firstFailure == null) {
                    firstFailure = e instanceof TimeoutException ? "no answer within " + POLL_TIMEOUT.toSeconds()
                            + " s" : String.valueOf(e.getCause() != null ? e.getCause() : e);
                }
            }
        }
    }

    private static LakeSnapshot snapshot(java.util.function.Supplier<CompletableFuture<LakeSnapshot>> ask)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return LakeSnapshotRace.ask(ask, POLL_TIMEOUT.toMillis());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return null; // nothing tiered (or readable) yet
            }
            throw e;
        }
    }

    private synchronized void record(Map<TableBucket, Long> logEnds, LakeSnapshot latest, LakeSnapshot readable) {
        long at = (System.nanoTime() - start) / 1_000_000;
        long logEnd = logEnds.values().stream().mapToLong(Long::longValue).sum();
        long tiered = latest == null ? 0 : latest.getTableBucketsOffset().values().stream()
                .mapToLong(Long::longValue).sum();
        samples.add(new Sample(at, logEnd, tiered, latest == null ? -1 : latest.getSnapshotId()));
        logEnds.forEach((bucket, end) -> {
            Long before = lastLogEnds.put(bucket, end);
            if (before != null && end < before) {
                logEndDips++; // lost writes only if it never comes back: see backwards()
            }
            highestLogEnds.merge(bucket, end, Math::max);
        });
        if (latest != null) {
            if (latest.getSnapshotId() < lastSnapshot) {
                backwards.add("at " + at + " ms the latest lake snapshot went back from " + lastSnapshot + " to "
                        + latest.getSnapshotId());
            }
            lastSnapshot = Math.max(lastSnapshot, latest.getSnapshotId());
            latest.getTableBucketsOffset().forEach((bucket, offset) -> {
                Long before = lastTiered.put(bucket, offset);
                if (before != null && offset < before) {
                    backwards.add("at " + at + " ms the lake offset of " + bucket + " went back from " + before
                            + " to " + offset);
                }
            });
        }
        if (readable != null && !cuts.containsKey(readable.getSnapshotId())) {
            cuts.put(readable.getSnapshotId(), new Cut(readable.getSnapshotId(),
                    Map.copyOf(readable.getTableBucketsOffset()), at));
        }
    }

    public synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /**
     * The longest the lake went without a new snapshot while watched, up to each new one (the
     * first counted from the watch's start, so it holds the tiering job's start): how long one
     * round of tiering took here at its slowest.
     */
    public synchronized Duration slowestRound() {
        long longest = 0;
        long since = 0;
        long id = -1;
        for (Sample s : samples) {
            if (s.lakeSnapshot() != id) {
                longest = Math.max(longest, s.atMillis() - since);
                since = s.atMillis();
                id = s.lakeSnapshot();
            }
        }
        return Duration.ofMillis(longest);
    }

    /** Every distinct readable snapshot seen, in the order they were first seen. */
    public synchronized List<Cut> cuts() {
        return List.copyOf(cuts.values());
    }

    /**
     * What went backwards between polls (empty when nothing did): a snapshot id or a lake offset
     * that decreased, or a bucket whose log end offset is now below one it had (writes it had
     * taken are gone).
     */
    public synchronized List<String> backwards() {
        List<String> all = new ArrayList<>(backwards);
        highestLogEnds.forEach((bucket, highest) -> {
            long now = lastLogEnds.get(bucket);
            if (now < highest) {
                all.add("the log end offset of " + bucket + " is " + now + ", below the " + highest
                        + " it had: writes it took are gone");
            }
        });
        return all;
    }

    /** How often a bucket's log end offset read lower than at the poll before (then came back, or not). */
    public synchronized int logEndDips() {
        return logEndDips;
    }

    /** How many polls failed, and the first one's reason; null when none did. */
    public synchronized String failedPolls() {
        return failedPolls == 0 ? null : failedPolls + " of " + (failedPolls + samples.size()) + " polls failed"
                + " (the first: " + firstFailure + ")";
    }

    /** Stops the thread (bounded: it is interrupted and waited for at most 10 s). */
    @Override
    public void close() {
        stopping = true;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
