package dev.tierproof.proof;

import dev.tierproof.fluss.ReplicationWatch;
import dev.tierproof.report.Availability;
import dev.tierproof.run.Steps;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;

/**
 * The proof's availability stage, once its faults have healed: every bucket of the table must have
 * a leader again and every replica must be back in its in-sync set, within a bound the cluster's
 * own settings give: its ZooKeeper session timeout (how long a dead server may still hold its
 * buckets) plus {@code log.replica.max-lag-time} (how long a follower may lag before it leaves the
 * ISR, and so roughly how long one back needs to rejoin), plus {@link #SLACK} for a restarted
 * server to load its buckets. Past the bound the verdict is UNAVAILABLE, with what each bucket
 * lacked; the leaders and ISRs seen over the run are the evidence either way.
 */
final class Recovery {
    /** Beyond Fluss's own timeouts: a restarted server loading its buckets, an election, a fetch round. */
    static final Duration SLACK = Duration.ofSeconds(30);
    /** How often the stage asks while it waits. */
    private static final Duration POLL = Duration.ofMillis(250);
    /** The most changes the report keeps (a flapping ISR should not bloat it). */
    static final int TIMELINE = 200;

    private Recovery() {}

    /** The bound from the servers' settings (Fluss's defaults for those they do not set). */
    static Duration bound(Map<String, String> serverSettings) {
        Configuration conf = Configuration.fromMap(serverSettings);
        return conf.get(ConfigOptions.ZOOKEEPER_SESSION_TIMEOUT).plus(conf.get(ConfigOptions.LOG_REPLICA_MAX_LAG_TIME))
                .plus(SLACK);
    }

    /** What {@link #bound} adds up, for the report. */
    static String boundText(Duration bound) {
        return bound.toSeconds() + " s: zookeeper.client.session-timeout + log.replica.max-lag-time + "
                + SLACK.toSeconds() + " s";
    }

    /**
     * Waits, as a step within {@code deadline}, until every bucket {@code watch} sees is led and in
     * sync, at most {@code bound} from now (the faults have healed), and judges it.
     */
    static Availability await(ReplicationWatch watch, Duration bound, Steps steps, Duration deadline, long healedAt) {
        steps.progress().step("waiting for every bucket to be led and in sync again (within " + boundText(bound)
                + ")");
        // The bound runs from the last heal, not from now: the writes may have gone on after it.
        Duration left = bound.minusMillis(Math.max(0, watch.now() - healedAt));
        Duration within = left.compareTo(deadline.minusSeconds(5)) < 0 ? left : deadline.minusSeconds(5);
        return steps.run("waiting for every bucket to be led and in sync", deadline, control -> judge(watch,
                within.isNegative() ? Duration.ZERO : within, bound, healedAt));
    }

    /** Polls until every bucket is led and in sync or {@code within} passes; {@code bound} is what the report names. */
    static Availability judge(ReplicationWatch watch, Duration within, Duration bound) throws InterruptedException {
        return judge(watch, within, bound, watch.now());
    }

    /** As {@link #judge(ReplicationWatch, Duration, Duration)}, timed from the last heal at {@code healed}. */
    static Availability judge(ReplicationWatch watch, Duration within, Duration bound, long healed)
            throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        ReplicationWatch.Sample last = null;
        String failure = "no answer yet";
        while (true) {
            try {
                last = watch.sampleNow();
                if (last.allInSync()) {
                    long took = last.atMillis() - healed;
                    return new Availability(true, bound.toMillis(), took, "every bucket led and every replica in"
                            + " sync " + took + " ms after the faults healed (bound " + boundText(bound) + ")",
                            timeline(watch));
                }
            } catch (RuntimeException e) {
                failure = Steps.rootMessage(e);
            }
            if (System.nanoTime() >= end) {
                break;
            }
            Thread.sleep(POLL.toMillis());
        }
        String lacking = last == null ? "the cluster never answered (" + failure + ")"
                : String.join("; ", last.buckets().stream().filter(b -> !b.inSync())
                        .map(dev.tierproof.fluss.Replication.BucketState::text).toList());
        return new Availability(false, bound.toMillis(), -1, (watch.now() - healed) / 1000 + " s after the faults healed,"
                + " not every bucket was led with every replica in sync (bound " + boundText(bound) + "): "
                + lacking, timeline(watch));
    }

    private static List<String> timeline(ReplicationWatch watch) {
        List<ReplicationWatch.Sample> changes = watch.changes();
        return changes.subList(Math.max(0, changes.size() - TIMELINE), changes.size()).stream()
                .map(ReplicationWatch.Sample::text).toList();
    }
}
