package dev.tierproof.search;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.proof.FinalRead;
import dev.tierproof.fluss.ClusterBroken;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.fluss.TableSettings;
import dev.tierproof.fluss.ProducerOptions;
import dev.tierproof.proof.StreamhouseProof;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Progress;
import dev.tierproof.run.RunError;
import dev.tierproof.run.Steps;
import dev.tierproof.util.Causes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.TreeMap;

/**
 * Random workloads against one table, or against a seeded random table each trial; the first that
 * comes out inconsistent is shrunk (the Rust core proposes smaller and simpler workloads of the
 * same table, each proved for real) to a local minimum that still fails. Deterministic for a
 * seed: the tables, the workloads and the candidates are.
 */
public final class CounterexampleSearch {
    /**
     * Proves one workload for real, in a table of its own: {@code proof} numbers the proofs of
     * the run (1, 2, ...), so each gets a fresh table.
     */
    public interface Prover extends AutoCloseable {
        /** Proves {@code workload} under {@code conditions} (only the streamhouse takes any). */
        ProofReport prove(Workload workload, Conditions conditions, int proof, Config cfg, Steps steps);

        /** Stops what the proofs shared (the streamhouse's tiering job); the search is over. */
        @Override
        default void close() {}
    }

    /**
     * What a streamhouse trial runs under besides its table and workload: the faults injected and
     * the Fluss client writer's settings ({@link ProducerOptions}; empty: its defaults).
     */
    public record Conditions(int rounds, List<Fault> faults, Map<String, String> producerOptions, int writers) {
        public static final Conditions NONE = new Conditions(1, List.of(), Map.of());

        public Conditions {
            if (rounds < 1) {
                throw new IllegalArgumentException("rounds " + rounds + " must be at least 1");
            }
            if (writers < 1) {
                throw new IllegalArgumentException("writers " + writers + " must be at least 1");
            }
            faults = List.copyOf(faults);
            producerOptions = Map.copyOf(new TreeMap<>(producerOptions));
        }

        /** Written by one client. */
        public Conditions(int rounds, List<Fault> faults, Map<String, String> producerOptions) {
            this(rounds, faults, producerOptions, 1);
        }

        boolean none() {
            return rounds == 1 && faults.isEmpty() && producerOptions.isEmpty() && writers == 1;
        }

        /** The same conditions for a workload of {@code operations} operations (never more rounds than those). */
        Conditions within(int operations) {
            return new Conditions(Math.max(1, Math.min(rounds, operations)), Fault.within(faults, operations),
                    producerOptions, writers);
        }

        /**
         * For people: {@code 2 rounds; restart-tablet@3; client.writer.batch-size=1kb}, empty when
         * none of them.
         */
        public String describe() {
            List<String> parts = new java.util.ArrayList<>();
            if (rounds > 1) {
                parts.add(rounds + " rounds");
            }
            parts.add(Fault.text(faults));
            parts.add(ProducerOptions.text(new TreeMap<>(producerOptions)));
            parts.add(writers > 1 ? writers + " writers" : "");
            parts.removeIf(String::isEmpty);
            return String.join("; ", parts);
        }
    }

    /** The core proof on Paimon, each in a database of its own ({@code search_N}), one statement per operation. */
    public static Prover paimon(FlinkEngine engine) {
        return (workload, conditions, proof, cfg, steps) -> PaimonProof.run(engine, new PaimonProof.Config(
                "search_" + proof + "." + workload.table().table(), workload, cfg.warehouse(), cfg.deadline(), 1),
                steps);
    }

    /**
     * The streamhouse proof on one Fluss cluster and engine for the whole search, each trial's
     * table renamed {@code search_N}, written through the Fluss client in the trial's rounds.
     */
    public static Prover streamhouse(FlussCluster cluster, FlinkEngine engine) {
        return streamhouse(cluster, engine, EnumSet.allOf(FinalRead.class));
    }

    /** As above, each proof running only {@code reads} of its final reads. */
    public static Prover streamhouse(FlussCluster cluster, FlinkEngine engine, Set<FinalRead> reads) {
        return streamhouse(cluster, engine, reads, null);
    }

    /**
     * As above, the tiering job checkpointed every {@code tieringCheckpoints} (so Flink restarts it
     * after a failure), or run as Fluss's entry point runs it when null. The trials share one tiering
     * job while they leave it as they found it ({@link OneTieringJob}); close the prover to stop it.
     */
    public static Prover streamhouse(FlussCluster cluster, FlinkEngine engine, Set<FinalRead> reads,
            Duration tieringCheckpoints) {
        return new OneTieringJob(cluster, engine, reads, tieringCheckpoints);
    }

    /**
     * @param ddl the table's CREATE TABLE, or null for a seeded random table each trial
     * @param promiseDdl judge every trial against what this table (the same columns) would hold,
     *     or null for the table's own promise: an append table against its keyed twin
     * @param operationsPerTrial operations in each random workload (one statement each, as
     *     {@code prove} runs small workloads)
     * @param keys distinct keys in each workload
     * @param rounds for the streamhouse: each workload written in this many rounds (at most its
     *     operations), a checkpoint after each but the last
     * @param faultKinds for the streamhouse: each trial gets one fault of one of these kinds, at
     *     an operation drawn from its seed (none when empty)
     * @param varyProducer for the streamhouse: each trial's client writer settings drawn from its
     *     seed ({@link ProducerOptions#random})
     * @param partitionValues values each partition column of a trial's workload takes at most (0:
     *     as drawn, a partition per key or so)
     * @param tabletServers for the streamhouse: the embedded cluster's tablet servers; above 1, a
     *     random table keeps 1 to that many replicas, drawn from its seed
     * @param faultsPerTrial for the streamhouse: how many faults each trial's schedule holds
     */
    public record Config(Workload.Target target, String ddl, String promiseDdl, int trials, long seed,
            int operationsPerTrial, int keys, int rounds, List<Fault.Kind> faultKinds, boolean varyProducer,
            Path warehouse, Duration deadline, int partitionValues, int tabletServers, int faultsPerTrial,
            int tableOptionsPerTrial, boolean hotKeys, boolean wideRows) {
        public Config {
            faultKinds = List.copyOf(faultKinds);
        }

        /** Narrow rows: a random table of 1 to 3 value columns, values as generated. */
        public Config(Workload.Target target, String ddl, String promiseDdl, int trials, long seed,
                int operationsPerTrial, int keys, int rounds, List<Fault.Kind> faultKinds, boolean varyProducer,
                Path warehouse, Duration deadline, int partitionValues, int tabletServers, int faultsPerTrial,
                int tableOptionsPerTrial, boolean hotKeys) {
            this(target, ddl, promiseDdl, trials, seed, operationsPerTrial, keys, rounds, faultKinds, varyProducer,
                    warehouse, deadline, partitionValues, tabletServers, faultsPerTrial, tableOptionsPerTrial, hotKeys,
                    false);
        }

        /**
         * The same search with wide rows: a random table of 10 to 40 value columns, and about one
         * in four of a workload's text values a kilobyte to a few hundred long.
         */
        public Config withWideRows(boolean wide) {
            return new Config(target, ddl, promiseDdl, trials, seed, operationsPerTrial, keys, rounds, faultKinds,
                    varyProducer, warehouse, deadline, partitionValues, tabletServers, faultsPerTrial,
                    tableOptionsPerTrial, hotKeys, wide);
        }

        /** No hot keys drawn: each trial's keys uniform. */
        public Config(Workload.Target target, String ddl, String promiseDdl, int trials, long seed,
                int operationsPerTrial, int keys, int rounds, List<Fault.Kind> faultKinds, boolean varyProducer,
                Path warehouse, Duration deadline, int partitionValues, int tabletServers, int faultsPerTrial,
                int tableOptionsPerTrial) {
            this(target, ddl, promiseDdl, trials, seed, operationsPerTrial, keys, rounds, faultKinds, varyProducer,
                    warehouse, deadline, partitionValues, tabletServers, faultsPerTrial, tableOptionsPerTrial, false);
        }

        /** No table options drawn ({@link TableSettings}): the random table's spec alone. */
        public Config(Workload.Target target, String ddl, String promiseDdl, int trials, long seed,
                int operationsPerTrial, int keys, int rounds, List<Fault.Kind> faultKinds, boolean varyProducer,
                Path warehouse, Duration deadline, int partitionValues, int tabletServers, int faultsPerTrial) {
            this(target, ddl, promiseDdl, trials, seed, operationsPerTrial, keys, rounds, faultKinds, varyProducer,
                    warehouse, deadline, partitionValues, tabletServers, faultsPerTrial, 0);
        }

        /** One fault a trial. */
        public Config(Workload.Target target, String ddl, String promiseDdl, int trials, long seed,
                int operationsPerTrial, int keys, int rounds, List<Fault.Kind> faultKinds, boolean varyProducer,
                Path warehouse, Duration deadline, int partitionValues, int tabletServers) {
            this(target, ddl, promiseDdl, trials, seed, operationsPerTrial, keys, rounds, faultKinds, varyProducer,
                    warehouse, deadline, partitionValues, tabletServers, 1);
        }

        /** A search on an embedded cluster of one tablet server. */
        public Config(Workload.Target target, String ddl, String promiseDdl, int trials, long seed,
                int operationsPerTrial, int keys, int rounds, List<Fault.Kind> faultKinds, boolean varyProducer,
                Path warehouse, Duration deadline, int partitionValues) {
            this(target, ddl, promiseDdl, trials, seed, operationsPerTrial, keys, rounds, faultKinds, varyProducer,
                    warehouse, deadline, partitionValues, 1);
        }

        /** A search whose workloads have a handful of partitions ({@link Workload#PARTITION_VALUES}). */
        public Config(Workload.Target target, String ddl, String promiseDdl, int trials, long seed,
                int operationsPerTrial, int keys, int rounds, List<Fault.Kind> faultKinds, boolean varyProducer,
                Path warehouse, Duration deadline) {
            this(target, ddl, promiseDdl, trials, seed, operationsPerTrial, keys, rounds, faultKinds, varyProducer,
                    warehouse, deadline, Workload.PARTITION_VALUES);
        }

        /** A search on Paimon, one round. */
        public Config(String ddl, String promiseDdl, int trials, long seed, int operationsPerTrial, int keys,
                Path warehouse, Duration deadline) {
            this(Workload.Target.PAIMON, ddl, promiseDdl, trials, seed, operationsPerTrial, keys, 1, List.of(), false,
                    warehouse, deadline);
        }
    }

    /**
     * @param trialsRun how many random workloads were proved
     * @param ddl the failing trial's table, or null when every trial was consistent
     * @param foundOperations the failing workload's size
     * @param minimalCsv the shrunk workload, as a CSV {@code prove --upserts} reads
     * @param minimalOperations its size
     * @param minimalConditions the faults and producer settings the minimal case still needs
     * @param minimal what the proof of the minimal workload came to
     * @param proofsRun every proof run, trials and shrinking together
     */
    public record Result(int trialsRun, String ddl, int foundOperations, String minimalCsv, int minimalOperations,
            Conditions minimalConditions, Outcome minimal, int proofsRun, int skipped, boolean cutShort, int errors) {
        public boolean found() {
            return ddl != null;
        }
    }

    /**
     * What one proof came to: its report, or the failure that stopped it (a read that errored,
     * a wait that never ended: a finding too, not a crash of the search), or the engine's refusal
     * of the table (not a finding: the trial is skipped).
     */
    public record Outcome(ProofReport report, String failure, String refusal, String error) {
        public Outcome(ProofReport report, String failure, String refusal) {
            this(report, failure, refusal, null);
        }

        /**
         * Whether the trial is a counterexample: not when tiering was only slow (LAGGING: no
         * verdict), nor when tierproof's own part of the run failed (an error of the run).
         */
        public boolean fails() {
            return failure != null || (report != null && !report.consistent() && !report.lagging());
        }

        /** For people: the verdict, or what failed. */
        public String describe() {
            return error != null ? "ERROR of the run (tierproof's own, no finding): " + error
                    : failure != null ? "FAILED: " + failure : refusal != null ? "refused: " + refusal
                    : report.lagging() ? "LAGGING (tiering slow, not stalled: no verdict)" : report.verdictWord();
        }
    }

    private final Prover prover;
    private final Config cfg;
    private final Steps steps;
    private final Progress progress;
    private int proofs;
    private int skipped;
    private int errors;

    CounterexampleSearch(Prover prover, Config cfg, Steps steps) {
        this.prover = prover;
        this.cfg = cfg;
        this.steps = steps;
        this.progress = steps.progress();
    }

    public static Result run(Prover prover, Config cfg, Steps steps) {
        try (prover) { // what the trials shared stops with the search
            return new CounterexampleSearch(prover, cfg, steps).search();
        }
    }

    /** The table of a trial: the given one, or one made from the trial's seed. */
    public static String tableOf(Config cfg, long seed) {
        return tableOf(cfg, seed, tableOptionsOf(cfg, seed));
    }

    /** The table of a trial with {@code options} as its table options (a random table's only). */
    static String tableOf(Config cfg, long seed, Map<String, String> options) {
        if (cfg.ddl() != null) {
            return cfg.ddl();
        }
        return Ddl.fromSpec((cfg.wideRows() ? Ddl.wideSpec(seed) : Ddl.randomSpec(seed)) + replicas(cfg, seed) + TableSettings.specText(options), "t",
                cfg.target());
    }

    /**
     * The table options a random Fluss table of the trial of {@code seed} sets: up to the
     * config's number, drawn from Fluss's and Paimon's own definitions ({@link TableSettings}).
     */
    public static Map<String, String> tableOptionsOf(Config cfg, long seed) {
        if (cfg.ddl() != null || cfg.promiseDdl() != null || cfg.target() != Workload.Target.FLUSS
                || cfg.tableOptionsPerTrial() == 0) {
            return Map.of();
        }
        return TableSettings.random(seed, cfg.tableOptionsPerTrial());
    }

    /** A random Fluss table's replication factor, 1 to the cluster's tablet servers, as a spec option. */
    private static String replicas(Config cfg, long seed) {
        if (cfg.target() != Workload.Target.FLUSS || cfg.tabletServers() <= 1) {
            return "";
        }
        int factor = 1 + (int) Math.floorMod(new java.util.SplittableRandom(seed * 31 + 7).nextLong(),
                (long) cfg.tabletServers());
        return "; table.replication.factor = " + factor;
    }

    private Result search() {
        for (int trial = 0; trial < cfg.trials(); trial++) {
            Trial t = trial(trial);
            if (t.outcome().fails()) {
                progress.step("  shrinking " + t.workload().operations() + " operations");
                return shrink(t);
            }
            t.workload().close();
        }
        return new Result(cfg.trials(), null, 0, null, 0, Conditions.NONE, null, proofs, skipped, false, errors);
    }

    /**
     * One trial: its seeded table, workload and conditions, and what proving it came to.
     *
     * @param index 0-based: its seed is the search's seed plus it
     * @param workload the caller closes it ({@link CounterexampleSearch#shrink} does)
     */
    record Trial(int index, Workload workload, Conditions conditions, Outcome outcome) {
        /** The table options its random table set ({@link TableSettings}), by key. */
        Map<String, String> tableOptions(Config cfg) {
            return tableOptionsOf(cfg, cfg.seed() + index);
        }
    }

    /** Proves trial {@code index} (0-based), saying how it came out. */
    Trial trial(int index) {
        long seed = cfg.seed() + index;
        Workload workload = workload(tableOf(cfg, seed), seed);
        try {
            Conditions conditions = new Conditions(Math.max(1, Math.min(cfg.rounds(), workload.operations())),
                    Fault.random(cfg.faultKinds(), workload.operations(), seed, cfg.faultsPerTrial()),
                    cfg.varyProducer() ? ProducerOptions.random(seed) : Map.of(),
                    cfg.varyProducer() && cfg.target() == Workload.Target.FLUSS ? ProducerOptions.randomWriters(seed) : 1);
            Outcome outcome = prove(workload, conditions);
            skipped += outcome.refusal() != null ? 1 : 0;
            String options = ProducerOptions.text(new TreeMap<>(tableOptionsOf(cfg, seed)));
            int hot = cfg.hotKeys() ? hotKeysOf(seed) : 0;
            String described = String.join("; ", java.util.stream.Stream.of(conditions.none() ? ""
                    : conditions.describe(), options.isEmpty() ? "" : "table " + options,
                    hot == 0 ? "" : hot + "% on one key")
                    .filter(p -> !p.isEmpty()).toList());
            progress.step(String.format("trial %d/%d%s: %s", index + 1, cfg.trials(), described.isEmpty() ? ""
                    : " (" + described + ")", outcome.describe()));
            return new Trial(index, workload, conditions, outcome);
        } catch (RuntimeException e) {
            workload.close();
            throw e;
        }
    }

    /** Proofs run so far, trials and shrinking together. */
    int proofs() {
        return proofs;
    }

    /** Proofs whose run failed for a reason of tierproof's own (no finding, never shrunk). */
    int errors() {
        return errors;
    }

    /** Trials skipped so far: their table was refused by an engine. */
    int skipped() {
        return skipped;
    }

    /**
     * A trial's workload: generated for the table, or for the promise's table and judged by it;
     * with {@code --hot-keys}, a third of the trials put half their operations on one key and a
     * third nine in ten of them ({@link #hotKeysOf}); with {@code --wide-rows}, long texts.
     */
    Workload workload(String ddl, long seed) {
        Workload generated = cfg.promiseDdl() == null
                ? Workload.generate(cfg.target(), ddl, cfg.operationsPerTrial(), cfg.keys(), seed, true,
                        cfg.partitionValues())
                : Workload.generateJudgedAs(cfg.target(), ddl, cfg.promiseDdl(), cfg.operationsPerTrial(),
                        cfg.keys(), seed, cfg.partitionValues());
        int hot = cfg.hotKeys() ? hotKeysOf(seed) : 0;
        Workload skewed = hot == 0 ? generated : replaced(generated, generated.hotKeys(hot, seed));
        return cfg.wideRows() ? replaced(skewed, skewed.longTexts(seed)) : skewed;
    }

    /** {@code by}, {@code old} closed. */
    private static Workload replaced(Workload old, Workload by) {
        old.close();
        return by;
    }

    /** The share of a trial's operations on one hot key, in %, from its seed: 0, 50 or 90. */
    static int hotKeysOf(long seed) {
        return new int[] {0, 50, 90}[new java.util.SplittableRandom(seed * 0x9E3779B97F4A7C15L + 31).nextInt(3)];
    }

    /**
     * Without the faults, then with them after the writes before them are answered (reproducible),
     * then with the producer's defaults, then in one round (a failure that
     * needs none of them is simpler), then with a simpler schedule ({@link Fault#simpler}: a fault
     * fewer, shorter, earlier) while one still fails, then takes the first smaller case that still fails — a smaller table (one bucket,
     * no partitioning, a value column fewer), then a smaller workload — again and again, until
     * none does.
     */
    Result shrink(Trial trial) {
        return shrink(trial, () -> false);
    }

    /**
     * As {@link #shrink(Trial)}, stopping before the next proof once {@code stop} says so (a
     * campaign's time ran out): the case found so far, said to be cut short, not minimal.
     */
    Result shrink(Trial trial, java.util.function.BooleanSupplier stop) {
        int trialsRun = trial.index() + 1;
        boolean cutShort = false;
        Workload found = trial.workload();
        Conditions foundConditions = trial.conditions();
        Outcome foundOutcome = trial.outcome();
        int foundOperations = found.operations();
        Workload current = found;
        Outcome currentOutcome = foundOutcome;
        Conditions conditions = foundConditions;
        try {
            // Each simplification of the conditions in turn, on what is left: no faults, faults with no
            // write in flight, the producer's defaults, one round, one writer.
            for (int step = 0; step < 5; step++) {
                if (stop.getAsBoolean()) {
                    cutShort = true;
                    break;
                }
                Conditions c = conditions;
                Conditions candidate = switch (step) {
                    case 0 -> new Conditions(c.rounds(), List.of(), c.producerOptions(), c.writers());
                    case 1 -> new Conditions(c.rounds(), c.faults().stream()
                            .map(f -> new Fault(f.kind(), f.at(), false, f.length())).toList(), c.producerOptions(),
                            c.writers());
                    case 2 -> new Conditions(c.rounds(), c.faults(), Map.of(), c.writers());
                    case 3 -> new Conditions(1, c.faults(), c.producerOptions(), c.writers());
                    default -> new Conditions(c.rounds(), c.faults(), c.producerOptions(), 1);
                };
                if (candidate.equals(conditions)) {
                    continue;
                }
                Outcome r = prove(current, candidate);
                if (r.fails()) {
                    conditions = candidate;
                    currentOutcome = r;
                    progress.step("  still fails with " + (candidate.none() ? "one round, no faults and the"
                            + " producer's defaults" : candidate.describe()) + ": " + r.describe());
                }
            }
            // The schedule, simpler fault by fault: one left out, one held shorter, one moved earlier.
            boolean simpler = !cutShort && !conditions.faults().isEmpty();
            while (simpler) {
                simpler = false;
                for (List<Fault> schedule : Fault.simpler(conditions.faults())) {
                    if (stop.getAsBoolean()) {
                        cutShort = true;
                        break;
                    }
                    Conditions candidate = new Conditions(conditions.rounds(), schedule, conditions.producerOptions(),
                            conditions.writers());
                    Outcome r = prove(current, candidate);
                    if (r.fails()) {
                        conditions = candidate;
                        currentOutcome = r;
                        simpler = true;
                        progress.step("  still fails with " + candidate.describe() + ": " + r.describe());
                        break;
                    }
                }
            }
            boolean smaller = !cutShort;
            while (smaller) {
                smaller = false;
                Workload candidate;
                for (int i = 0; (candidate = current.shrinkCandidate(i)) != null; i++) {
                    if (stop.getAsBoolean()) {
                        cutShort = true;
                        candidate.close();
                        break;
                    }
                    Outcome r = prove(candidate, conditions.within(candidate.operations()));
                    if (r.fails()) {
                        current.close();
                        current = candidate;
                        currentOutcome = r;
                        smaller = true;
                        progress.step("  still fails with " + current.operations() + " operations: "
                                + r.describe());
                        break;
                    }
                    candidate.close();
                }
            }
            // Shrinking may have made the table smaller too: the reproducer's table is the minimal case's.
            return new Result(trialsRun, current.table().sql(), foundOperations, current.workloadCsv(),
                    current.operations(),
                    conditions.within(current.operations()), currentOutcome, proofs, skipped, cutShort, errors);
        } finally {
            current.close();
        }
    }

    /** One proof in a table of its own; its steps share the run's budget and undo ledger, but print nothing. */
    private Outcome prove(Workload workload, Conditions conditions) {
        proofs++;
        try {
            return new Outcome(prover.prove(workload, conditions, proofs, cfg, steps.quiet()), null, null);
        } catch (IllegalArgumentException e) {
            return new Outcome(null, null, e.getMessage());
        } catch (TierproofException e) {
            if (steps.endsTheRun(e)) {
                throw e; // the run's budget or a signal, not the trial's finding
            }
            java.util.Optional<ClusterBroken> broken = Causes.find(e, ClusterBroken.class);
            if (broken.isPresent()) {
                throw new TierproofException("proof " + proofs + " left the cluster broken (" + broken.get().getMessage()
                        + "): the search stops, as any later trial would run on a broken cluster", e);
            }
            java.util.Optional<RunError> own = Causes.find(e, RunError.class);
            errors += own.isPresent() ? 1 : 0;
            return own.map(r -> new Outcome(null, null, null, r.getMessage()))
                    .orElseGet(() -> new Outcome(null, e.getMessage(), null));
        }
    }
}
