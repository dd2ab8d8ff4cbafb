package dev.tierproof.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A fault the streamhouse proof injects while it writes: just before operation {@code at} (1 is
 * the first) is handed to the writer. By default the writes before it are acknowledged first
 * ({@code restart-tablet@30}), so the fault falls at a known point of the acknowledged history
 * and a run is reproducible; {@code restart-tablet@30:in-flight} leaves them as the client has
 * them, some perhaps still buffered or unanswered (what a crash under load meets). A fault that
 * lasts holds for its length while the writes go on ({@code pause-leader@30+8s}), then heals.
 *
 * @param kind what fails
 * @param at the operation it comes before
 * @param inFlight whether the writes before it may still be in flight
 * @param length how long a lasting fault holds; zero for one that does not last
 */
public record Fault(Kind kind, int at, boolean inFlight, Duration length) {
    private static final String IN_FLIGHT = ":in-flight";
    /** The longest a fault may hold: every step of a run is bounded. */
    static final Duration LONGEST = Duration.ofMinutes(10);

    /** A fault once the writes before it are acknowledged. */
    public Fault(Kind kind, int at) {
        this(kind, at, false);
    }

    /** A fault that does not last. */
    public Fault(Kind kind, int at, boolean inFlight) {
        this(kind, at, inFlight, Duration.ZERO);
    }

    /** The same fault before operation {@code at}. */
    public Fault at(int at) {
        return new Fault(kind, at, inFlight, length);
    }

    /** What can fail, each with the nemesis that makes it fail. */
    public enum Kind {
        /** Tablet server 0 stops and starts again with the same id, data and port (its buckets go away meanwhile). */
        RESTART_TABLET("restart-tablet", RestartTablet.first(true)),
        /** As {@link #RESTART_TABLET}, but the server comes back on a new port (a pod at a new address). */
        MOVE_TABLET("move-tablet", RestartTablet.first(false)),
        /** As {@link #RESTART_TABLET}, to the tablet server that leads a bucket the run writes when it strikes. */
        KILL_LEADER("kill-leader", RestartTablet.leader()),
        /** As {@link #KILL_LEADER}, to an in-sync follower of that bucket (a table of two replicas or more). */
        KILL_FOLLOWER("kill-follower", RestartTablet.follower()),
        /** The leader of a bucket the run writes stopped for the fault's length, then continued (a GC pause). */
        PAUSE_LEADER("pause-leader", PauseTablet.leader()),
        /** As {@link #PAUSE_LEADER}, to an in-sync follower of that bucket: it falls out of the ISR and catches up. */
        PAUSE_FOLLOWER("pause-follower", PauseTablet.follower()),
        /**
         * Every tablet server in turn stopped as an upgrade does (controlled shutdown) and started
         * again, the next once every bucket written is led and in sync again.
         */
        ROLLING_RESTART("rolling-restart", new RollingRestart()),
        /** The leader of a bucket the run writes cut off from everyone for the fault's length (a partition). */
        PARTITION_LEADER("partition-leader", PartitionServer.leader("partition-leader", Cut.ISOLATE)),
        /** That leader cut off from ZooKeeper only: its session expires while it still serves the clients. */
        PARTITION_LEADER_ZOOKEEPER("partition-leader-zookeeper", PartitionServer.leader("partition-leader-zookeeper",
                Cut.FROM_ZOOKEEPER)),
        /** That leader cut off from the clients only (and Flink, and the lake's store): the servers still see it. */
        PARTITION_LEADER_CLIENTS("partition-leader-clients", PartitionServer.leader("partition-leader-clients",
                Cut.FROM_CLIENTS)),
        /**
         * A majority/minority split: that leader, with ZooKeeper, cut off from the other tablet
         * servers and the coordinator (its followers cannot fetch; its session holds).
         */
        PARTITION_LEADER_SERVERS("partition-leader-servers", PartitionServer.leader("partition-leader-servers",
                Cut.FROM_SERVERS)),
        /** ZooKeeper cut off from every server: every session is at stake. */
        PARTITION_ZOOKEEPER("partition-zookeeper", PartitionServer.zookeeper("partition-zookeeper", Cut.ISOLATE)),
        /** That leader's link slow and lossy ({@code tc netem}) for the fault's length. */
        SLOW_LEADER("slow-leader", PartitionServer.leader("slow-leader", Cut.SLOW)),
        /** That leader's disk full to the last byte for the fault's length ({@code cluster up --tablet-disk}). */
        FILL_LEADER_DISK("fill-leader-disk", FillDisk.leader()),
        /** As {@link #FILL_LEADER_DISK}, to an in-sync follower of that bucket. */
        FILL_FOLLOWER_DISK("fill-follower-disk", FillDisk.follower()),
        /** That leader's wall clock 10 minutes ahead for the fault's length ({@code cluster up --clocks}). */
        CLOCK_AHEAD_LEADER("clock-ahead-leader", SkewClock.ahead()),
        /** That leader's wall clock 10 minutes behind for the fault's length ({@code cluster up --clocks}). */
        CLOCK_BEHIND_LEADER("clock-behind-leader", SkewClock.behind()),
        /** The lake tiering job is cancelled and a new one started, as an operator would. */
        RESTART_TIERING("restart-tiering", new RestartTiering()),
        /**
         * The lake tiering job stopped and started again with other settings: Flink checkpoints every
         * 2 s where it had none (none where it had them), Fluss polled for tables every 2 s instead of
         * 500 ms (or back).
         */
        RETUNE_TIERING("retune-tiering", new RetuneTiering()),
        /** The coordinator server stops and starts again on the same port. */
        RESTART_COORDINATOR("restart-coordinator", new RestartServer(Servers::restartCoordinator)),
        /** ZooKeeper stops and starts again on the same port with the same data. */
        RESTART_ZOOKEEPER("restart-zookeeper", new RestartServer(Servers::restartZooKeeper)),
        /** For 10 s the lake table's manifest directory is not there: every commit to the lake fails. */
        LAKE_OUTAGE("lake-outage", new LakeOutageNemesis()),
        /** The lake table compacted in full by a writer of its own while tiering commits to it (a dedicated compaction job). */
        COMPACT_LAKE("compact-lake", new CompactLake()),
        /** The lake table's latest snapshot S tagged ({@code tierproof-S}), as users keep a snapshot. */
        TAG_LAKE("tag-lake", new TagLake()),
        /** Every lake snapshot but the latest expired ({@code expire_snapshots} keeping one) while tiering commits. */
        EXPIRE_LAKE("expire-lake", new ExpireLake()),
        /**
         * The workload's last column added ({@code ALTER TABLE … ADD}, nullable, last) while the table
         * is written and tiered: the table is created without it, rows written before read NULL there.
         */
        ADD_COLUMN("add-column", new AddColumn()),
        /** The table's {@code table.datalake.freshness} altered while it tiers (2 s, or 1 s from 2 s). */
        RETUNE_FRESHNESS("retune-freshness", new RetuneFreshness()),
        /**
         * The lake's store ({@code cluster up}'s SeaweedFS, or HDFS's NameNode and DataNode) killed
         * ({@code kill -9}) and started again with its data: only on that cluster.
         */
        RESTART_LAKE("restart-lake", new RestartLake());

        final String text;
        private final Nemesis nemesis;

        Kind(String text, Nemesis nemesis) {
            this.text = text;
            this.nemesis = nemesis;
        }

        /** Its name in a schedule: {@code restart-tablet}. */
        public String text() {
            return text;
        }

        /** How this kind strikes, and where it cannot. */
        public Nemesis nemesis() {
            return nemesis;
        }
    }

    /** The first reason one of {@code faults} cannot strike a cluster deployed so, or empty. */
    public static java.util.Optional<String> refusal(List<Fault> faults, Deployment deployment) {
        return faults.stream().map(f -> f.kind().nemesis().refusal(deployment)).flatMap(java.util.Optional::stream)
                .findFirst();
    }

    /** The first reason one of {@code faults} cannot strike a run set up so, or empty. */
    public static java.util.Optional<String> refusal(List<Fault> faults, RunSetup run) {
        return faults.stream().map(f -> f.kind().nemesis().refusal(run)).flatMap(java.util.Optional::stream)
                .findFirst();
    }

    /** The kinds a comma-separated list names ({@code restart-tablet,restart-tiering}); bad input names the item. */
    public static List<Kind> kinds(String list) {
        List<Kind> kinds = new ArrayList<>();
        for (String item : list.split(",")) {
            Kind kind = kind(item.trim());
            if (kind == null) {
                throw new IllegalArgumentException("fault kind " + item.trim() + " is not one of " + names());
            }
            if (!kinds.contains(kind)) {
                kinds.add(kind);
            }
        }
        return kinds;
    }

    /**
     * A trial's schedule: one fault of a kind from {@code kinds}, before an operation from 1 to
     * {@code operations}, the writes before it acknowledged or in flight, all drawn from
     * {@code seed}; none when {@code kinds} is empty.
     */
    public static List<Fault> random(List<Kind> kinds, int operations, long seed) {
        return random(kinds, operations, seed, 1);
    }

    /**
     * As {@link #random(List, int, long)}, with {@code count} faults, each drawn as the first is
     * (so the first is the one-fault schedule of that seed), in order of the operation they come
     * before; faults before one operation share its timing (acknowledged or in flight).
     */
    public static List<Fault> random(List<Kind> kinds, int operations, long seed, int count) {
        if (kinds.isEmpty() || operations < 1) {
            return List.of();
        }
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed * 0x9E3779B97F4A7C15L + 17);
        List<Fault> faults = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Kind kind = kinds.get(random.nextInt(kinds.size()));
            int at = 1 + random.nextInt(operations);
            boolean inFlight = random.nextBoolean();
            Duration length = kind.nemesis().lasts() ? Duration.ofSeconds(1 + random.nextInt(10)) : Duration.ZERO;
            boolean again = false;
            for (Fault earlier : faults) {
                inFlight = earlier.at() == at ? earlier.inFlight() : inFlight;
                again |= earlier.kind() == kind && kind.nemesis().changesSchema();
            }
            if (!again) { // the last column is added once: a second draw of add-column is left out
                faults.add(new Fault(kind, at, inFlight, length));
            }
        }
        faults.sort(java.util.Comparator.comparingInt(Fault::at));
        return List.copyOf(faults);
    }

    /**
     * Simpler schedules than {@code faults}, simplest first, for shrinking a failing trial: each
     * fault left out, each lasting fault held half as long (not under a second), each fault moved
     * to half its operation. A schedule a candidate leaves failing is simpler than the one before.
     */
    public static List<List<Fault>> simpler(List<Fault> faults) {
        List<List<Fault>> out = new ArrayList<>();
        for (int i = 0; faults.size() > 1 && i < faults.size(); i++) {
            List<Fault> without = new ArrayList<>(faults);
            without.remove(i);
            out.add(List.copyOf(without));
        }
        for (int i = 0; i < faults.size(); i++) {
            Fault f = faults.get(i);
            Duration half = f.length().dividedBy(2);
            if (f.kind().nemesis().lasts() && half.compareTo(Duration.ofSeconds(1)) >= 0) {
                out.add(replaced(faults, i, new Fault(f.kind(), f.at(), f.inFlight(), half)));
            }
        }
        for (int i = 0; i < faults.size(); i++) {
            Fault f = faults.get(i);
            if (f.at() > 1) {
                out.add(replaced(faults, i, f.at(f.at() / 2)));
            }
        }
        return out;
    }

    private static List<Fault> replaced(List<Fault> faults, int i, Fault by) {
        List<Fault> out = new ArrayList<>(faults);
        out.set(i, by);
        // Faults before one operation come at one moment: a moved one takes the timing of those it joins.
        for (int j = 0; j < out.size(); j++) {
            Fault other = out.get(j);
            if (j != i && other.at() == by.at() && other.inFlight() != by.inFlight()) {
                out.set(i, new Fault(by.kind(), by.at(), other.inFlight(), by.length()));
            }
        }
        out.sort(java.util.Comparator.comparingInt(Fault::at));
        return List.copyOf(out);
    }

    /** The same faults for a workload of {@code operations} operations: one past its end comes before its last. */
    public static List<Fault> within(List<Fault> faults, int operations) {
        return faults.stream()
                .map(f -> f.at(Math.max(1, Math.min(f.at(), operations)))).toList();
    }

    /** A schedule as {@link #parse} reads it. */
    public static String text(List<Fault> faults) {
        return String.join(",", faults.stream().map(Fault::toString).toList());
    }

    private static Kind kind(String text) {
        for (Kind k : Kind.values()) {
            if (k.text.equals(text.toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        return null;
    }

    private static String names() {
        return String.join(", ", java.util.Arrays.stream(Kind.values()).map(k -> k.text).toList());
    }

    @Override
    public String toString() {
        return kind.text + "@" + at + (length.isZero() ? "" : "+" + dev.tierproof.util.Lengths.text(length)) + (inFlight ? IN_FLIGHT : "");
    }


    /**
     * Parses a schedule such as {@code restart-tablet@12,restart-tiering@30:in-flight}; an empty
     * text is no fault. Bad input names the value and what is allowed.
     */
    public static List<Fault> parse(String schedule, int operations) {
        List<Fault> faults = new ArrayList<>();
        if (schedule == null || schedule.isBlank()) {
            return faults;
        }
        for (String item : schedule.split(",")) {
            String text = item.trim();
            boolean inFlight = text.endsWith(IN_FLIGHT);
            String when = inFlight ? text.substring(0, text.length() - IN_FLIGHT.length()) : text;
            Duration length = Duration.ZERO;
            int plus = when.indexOf('+');
            if (plus >= 0) {
                length = dev.tierproof.util.Lengths.parse(when.substring(plus + 1));
                when = when.substring(0, plus);
            }
            String[] parts = when.split("@", -1);
            Kind kind = kind(parts[0]);
            int at;
            try {
                at = parts.length == 2 ? Integer.parseInt(parts[1]) : -1;
            } catch (NumberFormatException e) {
                at = -1;
            }
            if (kind == null || at < 1 || at > operations || length == null) {
                throw new IllegalArgumentException("--faults " + text + " is not KIND@N, KIND@N+LENGTH or either with "
                        + IN_FLIGHT + ", with KIND one of " + names() + ", N an operation from 1 to " + operations
                        + " and LENGTH such as 8s or 500ms");
            }
            if (kind.nemesis().lasts() && (length.isZero() || length.compareTo(LONGEST) > 0)) {
                throw new IllegalArgumentException("--faults " + text + ": " + kind.text + " holds for a length from"
                        + " 1ms to " + LONGEST.toMinutes() + " minutes: say it, as " + kind.text + "@" + at + "+8s");
            }
            if (!kind.nemesis().lasts() && !length.isZero()) {
                throw new IllegalArgumentException("--faults " + text + ": " + kind.text + " is over when it has struck,"
                        + " so it takes no length: " + kind.text + "@" + at);
            }
            for (Fault other : faults) {
                if (other.at() == at && other.inFlight() != inFlight) {
                    throw new IllegalArgumentException("--faults " + other + " and " + text + ": faults before one"
                            + " operation come at one moment, with the writes before it answered or in flight, not both");
                }
            }
            faults.add(new Fault(kind, at, inFlight, length));
        }
        faults.sort(java.util.Comparator.comparingInt(Fault::at));
        return faults;
    }
}
