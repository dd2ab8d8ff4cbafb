package dev.tierproof.proof;

import dev.tierproof.core.CheckedDdl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.Statements;
import dev.tierproof.fluss.ClientWriter;
import dev.tierproof.fluss.Clients;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.fluss.LakeWatch;
import dev.tierproof.fluss.ProducerOptions;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.nemesis.RunSetup;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.History;
import dev.tierproof.run.Steps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;

/**
 * The streamhouse proof of a Fluss table of any shape (issue 8): the user's Fluss DDL (composite
 * keys, partitions, buckets, merge engines, log tables) and a workload of upserts and deletes held
 * by the Rust core. Fluss tiers the table into Paimon; once tiering has quiesced (every bucket of
 * every partition), each read is judged by the core: snapshots (the lake batch read, Fluss's
 * union read and its {@code full} startup) as sets, each key once; changelogs (the lake replay in
 * Flink and in Paimon's own API, the Fluss log from the earliest offset) as streams of changes,
 * all against what the table's merge engine makes of the workload. Streaming reads stop at counts
 * taken from the sources' own bookkeeping (the log end offsets, the lake's row count), never
 * from the expected answer.
 *
 * <p>A proof runs in stages, each a class of its own: {@link StreamhouseTable} (create),
 * {@link Producer} (write: {@link Production}, with the {@link RoundChecks} between rounds),
 * {@link Quiescence} (tier), {@link FinalReads} (read and judge), {@link Cuts} (the consistent
 * cuts) and {@link StreamhouseReport} (report); {@link ProofRun} is what they share.
 */
public final class StreamhouseProof {
    /** How the workload is written to Fluss. */
    public enum Producer {
        /** Fluss's own Java client ({@link ClientWriter}), every acknowledgement checked. */
        CLIENT {
            @Override
            Production.Produced produce(ProofRun run, FaultSchedule faults) {
                return Production.byClient(run, faults);
            }
        },
        /** Flink SQL {@code INSERT}/{@code DELETE} statements, each a Flink job. */
        SQL {
            @Override
            Production.Produced produce(ProofRun run, FaultSchedule faults) {
                return Production.bySql(run);
            }
        };

        /** Writes the run's workload (faults come between the client's writes only: Config refuses the rest). */
        abstract Production.Produced produce(ProofRun run, FaultSchedule faults);
    }

    /**
     * @param workload the workload (its DDL is the Fluss table's); the caller closes it
     * @param rowsPerInsert for the SQL producer: upserts per statement
     * @param rounds the workload written in this many rounds, each but the last followed by a
     *     wait for tiering and a checkpoint (the client producer only)
     * @param faults injected while writing (the client producer only)
     * @param tieringCheckpoints the tiering job's checkpoint interval, or null for none (as
     *     Fluss's entry point runs it)
     * @param producerOptions the Fluss client writer's settings ({@link ProducerOptions}), empty
     *     for its defaults
     * @param database the Fluss (and Paimon) database the table is created in: made if missing,
     *     and dropped again at the end of a failed run if this run made it and it is empty
     * @param ownTiering whether the proof runs Fluss's tiering job itself, or relies on the
     *     cluster's own tiering service (a cluster tierproof did not start)
     * @param reads the final reads to run (all, unless {@code --reads} picks some)
     * @param history where the run keeps its history ({@code --history DIR}), or null for none
     * @param writers how many Fluss clients write at once (the client producer), each its own
     *     connection and writer and each its own keys, so the expected state stays exact
     */
    public record Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert,
            Producer producer, int rounds, List<Fault> faults, Duration tieringCheckpoints,
            Map<String, String> producerOptions, String database, boolean ownTiering, Set<FinalRead> reads,
            History history, int writers) {
        /** At most this many writers at once. */
        public static final int MAX_WRITERS = 8;

        /** Whether the schedule expires lake snapshots ({@code expire-lake}): the lake's history is the run's to cut. */
        public boolean expiresLakeHistory() {
            return faults.stream().anyMatch(f -> f.kind() == Fault.Kind.EXPIRE_LAKE);
        }

        /**
         * The operation before which the schedule adds the workload's last column
         * ({@code add-column}), or empty: the table is created without it.
         */
        public java.util.OptionalInt addsColumnAt() {
            return faults.stream().filter(f -> f.kind() == Fault.Kind.ADD_COLUMN).mapToInt(Fault::at).findFirst();
        }

        public Config {
            if (writers < 1 || writers > MAX_WRITERS) {
                throw new IllegalArgumentException("--writers " + writers + " must be between 1 and " + MAX_WRITERS);
            }
            if (writers > 1 && producer != Producer.CLIENT) {
                throw new IllegalArgumentException("--writers " + writers + " needs --producer client: each writer is"
                        + " a Fluss client of its own");
            }
            checkDatabase(database);
            reads = reads.isEmpty() ? reads : EnumSet.copyOf(reads);
            FinalRead.refusal(reads).ifPresent(refusal -> {
                throw new IllegalArgumentException(refusal);
            });
            reads = Collections.unmodifiableSet(reads);
            Fault.refusal(faults, new RunSetup(ownTiering, warehouse)).ifPresent(refusal -> {
                throw new IllegalArgumentException(refusal);
            });
            if (!ownTiering && tieringCheckpoints != null) {
                throw new IllegalArgumentException("--tiering-checkpoints sets tierproof's own tiering job: with"
                        + " --tiering cluster there is none");
            }
            faults = List.copyOf(faults);
            producerOptions = Map.copyOf(producerOptions);
            ProducerOptions.check(producerOptions);
            if (!producerOptions.isEmpty() && producer != Producer.CLIENT) {
                throw new IllegalArgumentException("--producer-option needs --producer client: it sets the Fluss"
                        + " client's writer");
            }
            if (tieringCheckpoints != null && (tieringCheckpoints.isNegative() || tieringCheckpoints.isZero())) {
                throw new IllegalArgumentException("the tiering job's checkpoint interval " + tieringCheckpoints
                        + " must be positive");
            }
            if (!faults.isEmpty() && producer != Producer.CLIENT) {
                throw new IllegalArgumentException("--faults needs --producer client: faults come between"
                        + " operations, and SQL statements batch them");
            }
            if (faults.stream().filter(f -> f.kind() == Fault.Kind.ADD_COLUMN).count() > 1) {
                throw new IllegalArgumentException("--faults adds the table's last column once: one add-column at most");
            }
            if (faults.stream().anyMatch(f -> f.kind() == Fault.Kind.ADD_COLUMN)) {
                workload.addedColumn(); // refused here, naming the column, when Fluss cannot add it
            }
            if (rounds < 1 || rounds > workload.operations()) {
                throw new IllegalArgumentException("--rounds " + rounds + " must be between 1 and the workload's "
                        + workload.operations() + " operations");
            }
            if (rounds > 1 && producer != Producer.CLIENT) {
                throw new IllegalArgumentException("--rounds " + rounds + " needs --producer client: rounds are"
                        + " ranges of operations, and SQL statements batch them");
            }
        }

        /** No history kept. */
        public Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert,
                Producer producer, int rounds, List<Fault> faults, Duration tieringCheckpoints,
                Map<String, String> producerOptions, String database, boolean ownTiering, Set<FinalRead> reads) {
            this(workload, warehouse, deadline, rowsPerInsert, producer, rounds, faults, tieringCheckpoints,
                    producerOptions, database, ownTiering, reads, null, 1);
        }

        /** The same run, keeping its history in {@code history}. */
        public Config withHistory(History history) {
            return new Config(workload, warehouse, deadline, rowsPerInsert, producer, rounds, faults,
                    tieringCheckpoints, producerOptions, database, ownTiering, reads, history, writers);
        }

        /** The same run of another workload (the caller keeps it open for the run). */
        public Config withWorkload(Workload other) {
            return new Config(other, warehouse, deadline, rowsPerInsert, producer, rounds, faults,
                    tieringCheckpoints, producerOptions, database, ownTiering, reads, history, writers);
        }

        /** The same run, written by {@code n} Fluss clients at once, each its own keys. */
        public Config withWriters(int n) {
            return new Config(workload, warehouse, deadline, rowsPerInsert, producer, rounds, faults,
                    tieringCheckpoints, producerOptions, database, ownTiering, reads, history, n);
        }

        /** Every final read. */
        public Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert,
                Producer producer, int rounds, List<Fault> faults, Duration tieringCheckpoints,
                Map<String, String> producerOptions, String database, boolean ownTiering) {
            this(workload, warehouse, deadline, rowsPerInsert, producer, rounds, faults, tieringCheckpoints,
                    producerOptions, database, ownTiering, EnumSet.allOf(FinalRead.class));
        }

        /** The tiering job run as Fluss's entry point runs it. */
        public Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert, Producer producer,
                int rounds, List<Fault> faults) {
            this(workload, warehouse, deadline, rowsPerInsert, producer, rounds, faults, null, Map.of(),
                    FlussCatalog.FLUSS_DATABASE, true);
        }

        /** Without faults. */
        public Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert, Producer producer,
                int rounds) {
            this(workload, warehouse, deadline, rowsPerInsert, producer, rounds, List.of());
        }

        /** Written through the Fluss client in one round, without faults. */
        public Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert) {
            this(workload, warehouse, deadline, rowsPerInsert, Producer.CLIENT, 1);
        }
    }

    /** The writing client's settings: the cluster's, with the producer's. */
    static org.apache.fluss.config.Configuration clientConfig(FlussCluster cluster, Config cfg) {
        org.apache.fluss.config.Configuration clientConfig = cluster.clientConfig();
        cfg.producerOptions().forEach(clientConfig::setString);
        return clientConfig;
    }

    /** How often the live checks look at the log and the lake. */
    static final Duration WATCH_INTERVAL = Duration.ofMillis(250);

    private StreamhouseProof() {}

    /** The table's name, checked: in Fluss database {@code database}. */
    public static String tableName(CheckedDdl ddl, String database) {
        if (ddl.database() != null && !ddl.database().equals(database)) {
            throw new IllegalArgumentException("the DDL creates its table in database " + ddl.database()
                    + "; the streamhouse proof's tables live in Fluss and Paimon database "
                    + database + " (--database): name only the table");
        }
        return ddl.table();
    }

    /** A database name Fluss takes, and one that cannot reach outside the warehouse. */
    public static void checkDatabase(String database) {
        try {
            TablePath.validateDatabaseName(database);
            dev.tierproof.core.TablePaths.pathParts(database + ".t");
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--database " + database + ": " + e.getMessage(), e);
        }
    }

    /**
     * Creates the table, writes the workload, waits for tiering, reads the table every way and
     * judges the reads; each stage within the run's deadline, what it made undone if the run fails.
     */
    public static ProofReport run(FlussCluster cluster, FlinkEngine engine, Config cfg, Steps steps) {
        return run(cluster, engine, cfg, steps, null);
    }

    /**
     * As above, on {@code tiering}, a tiering job the caller keeps (and stops) across proofs, or on
     * one of the proof's own when null.
     */
    public static ProofReport run(FlussCluster cluster, FlinkEngine engine, Config cfg, Steps steps,
            Tiering.Job tiering) {
        java.util.OptionalInt added = cfg.addsColumnAt();
        if (added.isEmpty()) {
            return runAsWritten(cluster, engine, cfg, steps, tiering);
        }
        // The rows written before the column is there have no value for it: the workload says NULL.
        try (Workload evolving = cfg.workload().withAddedColumn(added.getAsInt())) {
            if (cfg.history() != null) {
                cfg.history().workload(evolving.table().sql(), evolving.workloadCsv()); // what check re-judges
            }
            return runAsWritten(cluster, engine, cfg.withWorkload(evolving), steps, tiering);
        }
    }

    private static ProofReport runAsWritten(FlussCluster cluster, FlinkEngine engine, Config cfg, Steps steps,
            Tiering.Job given) {
        Map<String, Long> timings = new LinkedHashMap<>();
        long startAll = System.nanoTime();
        StreamhouseTable.Created table = StreamhouseTable.create(cluster, engine, cfg, steps, timings);
        org.apache.fluss.config.Configuration clientConfig = clientConfig(cluster, cfg);
        // Closed in the background: Fluss's client waits in close() for every pending write (without end while a
        // bucket has no leader), then for Netty's quiet period.
        try (Connection client = Clients.open(clientConfig);
                Tiering.Job own = given != null ? null : new Tiering.Job(engine, cluster, cfg.warehouse(),
                        cfg.tieringCheckpoints(), cfg.ownTiering());
                LakeWatch watch = LakeWatch.start(client.getAdmin(), table.path(), WATCH_INTERVAL)) {
            Tiering.Job tiering = given != null ? given : own;
            if (own != null && cfg.ownTiering()) {
                // A run that fails or is interrupted drops what it made: the job goes first, and is gone (not
                // only cancelled) before its tables are dropped (a tiering reader hangs on a dropped table).
                steps.undo().created("tierproof's tiering job", own::stop);
            }
            ProofRun run = new ProofRun(cluster, engine, cfg, steps, table, client, tiering, watch, timings,
                    new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            long t = System.nanoTime();
            FaultedProduction.Outcome written = FaultedProduction.run(run);
            Production.Produced produced = written.produced();
            timings.put("write", Statements.millisSince(t));
            Quiescence.Tiered tiered = Quiescence.await(run);
            FinalReads.Judged judged = FinalReads.run(run, tiered);
            t = System.nanoTime();
            List<String> live = new ArrayList<>(produced.liveNotes());
            List<ProofReport.Checkpoint> checkpoints = new ArrayList<>(produced.checkpoints());
            checkpoints.addAll(Cuts.judge(run, produced.acks(), live));
            timings.put("cuts", Statements.millisSince(t));
            timings.put("total", Statements.millisSince(startAll));
            ProofReport report = written.into(StreamhouseReport.of(run, produced, written.injected(), tiered, judged,
                    checkpoints, live));
            if (cfg.history() != null) {
                cfg.history().metadata(written.bands(), written.availability() == null ? List.of()
                        : written.availability().timeline());
                int all = cfg.workload().operations();
                cfg.history().finish(run.unknownWithin(all), run.rejectedWithin(all), run.failures(),
                        written.injected(), report.consistent(), report.verdictWord());
            }
            return report;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException("the streamhouse proof failed: " + e.getMessage(), e);
        }
    }
}
