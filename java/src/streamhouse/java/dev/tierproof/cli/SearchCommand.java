package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workload;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.proof.FinalRead;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.fluss.ProducerOptions;
import dev.tierproof.nemesis.Deployment;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.search.CounterexampleSearch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tierproof search}: exit 0 when no trial fails, 1 with a minimal reproducer (the table's
 * DDL and a workload CSV, runnable with {@code prove}) when one does, 2 on bad input or a failure.
 */
@Command(name = "search", mixinStandardHelpOptions = true,
        description = "Random workloads against one table (or a random table each trial); shrinks a failing one"
                + " to a minimal reproducer.")
final class SearchCommand extends TierproofCommand {
    @Option(names = "--trials", paramLabel = "N", description = "random workloads to prove (default 5; with --for,"
            + " " + CAMPAIGN_TRIALS + ")")
    Integer trialsGiven;

    /** A campaign's trials unless --trials says: the time bounds it. */
    static final int CAMPAIGN_TRIALS = 100_000;

    int trials;

    @Option(names = "--for", paramLabel = "DURATION", description = "a campaign: go on past what it finds for this"
            + " long (90s, 30m, 2h), at most --trials trials; each distinct finding (by its signature: which reads"
            + " differ and how, what failed, the faults) shrunk once, for a sixth of the campaign's time at most"
            + " (2 minutes at least), into --out's finding-N/, later hits counted,"
            + " the campaign's state in --out's " + dev.tierproof.search.Campaign.STATE + "; run again with the same"
            + " settings, it goes on from there")
    String campaignFor;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "the first trial's seed"
            + " (default ${DEFAULT-VALUE})")
    long seed;

    @Mixin
    TableOptions tableOptions;

    @Option(names = "--random-tables", description = "a seeded random table each trial instead: key types, a"
            + " composite key, a partition column (STRING, INT, BIGINT, DATE), 1 to 4 buckets, assorted values")
    boolean randomTables;

    @Option(names = "--streamhouse", description = "search the streamhouse instead: a Fluss table (Fluss DDL) on one"
            + " Fluss cluster with its lake tiering, written through the Fluss client in --rounds rounds, every"
            + " final read judged (or those --reads names)")
    boolean streamhouse;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "2", description = "with --streamhouse: each"
            + " trial written in N rounds, tiering awaited and the lake checked after each but the last (default"
            + " ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--faults", paramLabel = "KINDS", description = "with --streamhouse: faults of kinds from this"
            + " list (restart-tablet, move-tablet, kill-leader, kill-follower, rolling-restart, restart-tiering,"
            + " retune-tiering, restart-coordinator, restart-zookeeper, lake-outage, compact-lake, tag-lake, expire-lake,"
            + " retune-freshness, add-column), each before an operation, both drawn from the trial's seed; shrinking tries without them first, then with fewer, shorter and earlier ones")
    String faultKinds;

    @Option(names = "--faults-per-trial", paramLabel = "N", defaultValue = "1", description = "with --faults: each"
            + " trial's schedule holds N faults, 1 to 4 (default ${DEFAULT-VALUE})")
    int faultsPerTrial;

    @Option(names = "--reads", paramLabel = "READ", split = ",", description = "with --streamhouse: each trial"
            + " runs only these of the final reads (as streamhouse --reads): fewer Flink jobs, quicker trials")
    List<String> reads;

    @Option(names = "--hot-keys", description = "each trial's workload with a hot key drawn from its seed: none,"
            + " half its operations on one key, or nine in ten of them (shrinking keeps the workload as it is)")
    boolean hotKeys;

    @Option(names = "--wide-rows", description = "wide rows, as users' event tables have them: each random table"
            + " (--random-tables) gets 10 to 40 value columns, and about one in four values of a trial's unbounded"
            + " STRING columns (never a key or partition column) is a kilobyte to a few hundred long")
    boolean wideRows;

    @Option(names = "--vary-producer", description = "with --streamhouse: each trial's Fluss client writer settings"
            + " (batch size and timeout, in-flight requests, dynamic batches, buffer memory) and its number of"
            + " writers at once (1 to 3, each its own keys) drawn from its seed; shrinking tries the defaults and one"
            + " writer first")
    boolean varyProducer;

    @Option(names = "--table-options", paramLabel = "N", defaultValue = "0", description = "with --streamhouse"
            + " --random-tables: each trial's table sets up to N options (0 to 5) drawn from Fluss's and Paimon's own"
            + " definitions (table.*, and paimon.* for the lake table), each value by its type; shrinking leaves them"
            + " out one at a time (default ${DEFAULT-VALUE})")
    int tableOptionsPerTrial;

    @Option(names = "--judge-as", paramLabel = "FILE", description = "judge every trial against what this"
            + " table (the same columns) would hold, e.g. an append table against its keyed twin")
    Path judgeAs;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "tierproof-counterexample",
            description = "where the reproducer goes (default ${DEFAULT-VALUE})")
    Path out;

    @Option(names = {"--ops-per-trial", "--upserts-per-trial"}, paramLabel = "N", defaultValue = "8",
            description = "operations in each trial, 1 to 100 (default ${DEFAULT-VALUE})")
    int perTrial;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "3", description = "distinct keys in each trial"
            + " (default ${DEFAULT-VALUE})")
    int keys;

    @Option(names = "--partition-values", paramLabel = "P", defaultValue = "4", description = "the values each"
            + " partition column of a trial's workload takes (default ${DEFAULT-VALUE}; 0: as drawn, a partition"
            + " per key or so)")
    int partitionValues;

    @Option(names = "--tablet-servers", paramLabel = "N", defaultValue = "1", description = "with --streamhouse: the"
            + " embedded cluster's tablet servers, 1 to " + Streamhouse.MAX_TABLET_SERVERS + " (default ${DEFAULT-VALUE});"
            + " above 1, each random table keeps 1 to N replicas, drawn from its seed")
    int tabletServers;

    @Option(names = "--tiering-checkpoints", paramLabel = "SECONDS", description = "with --streamhouse: each trial's"
            + " tiering job with Flink checkpoints every SECONDS (and so Flink's restart strategy) instead of as"
            + " Fluss's entry point runs it")
    Integer tieringCheckpoints;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() {
        trials = trialsGiven != null ? trialsGiven : campaignFor != null ? CAMPAIGN_TRIALS : 5;
        java.time.Duration budget = campaignFor == null ? null : duration(campaignFor);
        Workload.Target target = streamhouse ? Workload.Target.FLUSS : Workload.Target.PAIMON;
        String ddl = tableOptions.ddl(null, target);
        if (randomTables && ddl != null) {
            throw new IllegalArgumentException("give --random-tables or a table (--ddl-file, --spec), not both");
        }
        if (ddl == null && !randomTables) {
            ddl = streamhouse ? FlussCatalog.tieredTableDdl("t") : Ddl.tierTableDdl("t");
        }
        String promise = judgeAs == null ? null : InputFiles.readText(judgeAs, "--judge-as");
        range("--trials", trials, 1, 100_000);
        range("--ops-per-trial", perTrial, 1, 100);
        range("--keys", keys, 1, Integer.MAX_VALUE);
        range("--partition-values", partitionValues, 0, Integer.MAX_VALUE);
        range("--tablet-servers", tabletServers, 1, Streamhouse.MAX_TABLET_SERVERS);
        if (tieringCheckpoints != null && (!streamhouse || tieringCheckpoints < 1 || tieringCheckpoints > 3600)) {
            throw new IllegalArgumentException("--tiering-checkpoints " + tieringCheckpoints + " needs --streamhouse and"
                    + " 1 to 3600 seconds");
        }
        if (tabletServers > 1 && !streamhouse) {
            throw new IllegalArgumentException("--tablet-servers needs --streamhouse: they are Fluss's servers");
        }
        range("--rounds", rounds, 1, perTrial);
        if (faultKinds != null && !streamhouse) {
            throw new IllegalArgumentException("--faults needs --streamhouse: faults are Fluss's servers and jobs");
        }
        if (reads != null && !streamhouse) {
            throw new IllegalArgumentException("--reads needs --streamhouse: it picks the streamhouse proof's reads");
        }
        Set<FinalRead> finalReads = FinalRead.given(reads);
        if (varyProducer && !streamhouse) {
            throw new IllegalArgumentException("--vary-producer needs --streamhouse: it varies the Fluss client");
        }
        range("--table-options", tableOptionsPerTrial, 0, 5);
        if (tableOptionsPerTrial > 0 && !(streamhouse && randomTables && judgeAs == null)) {
            throw new IllegalArgumentException("--table-options " + tableOptionsPerTrial + " needs --streamhouse"
                    + " --random-tables (and no --judge-as): it sets options on each trial's random Fluss table");
        }
        List<Fault.Kind> kinds = faultKinds == null ? List.of() : kinds(faultKinds);
        range("--faults-per-trial", faultsPerTrial, 1, 4);
        if (faultsPerTrial != 1 && kinds.isEmpty()) {
            throw new IllegalArgumentException("--faults-per-trial " + faultsPerTrial + " needs --faults: the kinds"
                    + " of fault to draw");
        }
        CounterexampleSearch.Config config = new CounterexampleSearch.Config(target, ddl, promise, trials, seed,
                perTrial, keys, streamhouse ? rounds : 1, kinds, varyProducer, null, null, partitionValues,
                tabletServers, faultsPerTrial, tableOptionsPerTrial, hotKeys).withWideRows(wideRows);
        checkFirstTrial(config);
        List<Path> inputs = new ArrayList<>();
        inputs.add(tableOptions.ddlFile);
        inputs.add(judgeAs);
        OutputFile report = OutputFile.check("--report", run.report, inputs);
        inputs.add(run.report);
        if (budget != null) {
            return campaign(config, budget, finalReads, promise, report, inputs);
        }
        // The reproducer's files are checked now too: rerunning a reproducer must not overwrite it.
        OutputFile csvOut = OutputFile.check("--out", out.resolve(Replay.WORKLOAD), inputs);
        OutputFile sqlOut = OutputFile.check("--out", out.resolve(Replay.TABLE), inputs);
        OutputFile optionsOut = OutputFile.check("--out", out.resolve(Replay.OPTIONS), inputs);
        OutputFile readmeOut = OutputFile.check("--out", out.resolve("README.md"), inputs);
        OutputFile judgeAsOut = promise == null ? null : OutputFile.check("--out", out.resolve(Replay.JUDGE_AS),
                inputs);
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.localWarehouse("search"));
        var deadline = run.deadline(60);

        try (RunSession session = RunSession.start("search", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.printf("tierproof search%s: %d trials of %d operations over %d keys%s, seed %d, %s%n",
                    streamhouse ? " --streamhouse" : "", trials, perTrial, keys, streamhouse ? " in " + rounds
                            + " rounds" : "", seed, randomTables ? "a random table each trial"
                            + (tableOptionsPerTrial == 0 ? "" : " with up to " + tableOptionsPerTrial + " table options")
                            : tableOptions.given() ? "the table of " + tableOptions.source()
                            : "the tiered table");
            CounterexampleSearch.Prover prover;
            if (streamhouse) {
                Streamhouse servers = Streamhouse.start(session, warehouse.lake(), tabletServers);
                prover = CounterexampleSearch.streamhouse(servers.cluster(), servers.engine(), finalReads, checkpoints());
            } else {
                FlinkEngine engine = session.started(FlinkEngine.start(4, session.directory().directory("flink")));
                prover = CounterexampleSearch.paimon(engine);
            }
            CounterexampleSearch.Result result = CounterexampleSearch.run(prover, new CounterexampleSearch.Config(
                    target, ddl, promise, trials, seed, perTrial, keys, config.rounds(), kinds, varyProducer,
                    warehouse.path(), deadline, partitionValues, tabletServers, faultsPerTrial, tableOptionsPerTrial,
                    hotKeys).withWideRows(wideRows), session.steps());
            session.completed();
            if (!result.found()) {
                main.out.printf(result.errors() == 0 ? "no counterexample: all %d trials consistent (%d proofs%s)%n"
                        : "no counterexample in %d trials (%d proofs%s)%n", result.trialsRun(), result.proofsRun(),
                        result.skipped() == 0 ? "" : ", " + result.skipped() + " tables refused by the engine and skipped");
                if (result.errors() > 0) {
                    main.out.printf("errors of the run: %d proofs failed for tierproof's own reasons, not the servers'"
                            + " (no finding; their progress lines say why)%n", result.errors());
                }
                return Main.CONSISTENT;
            }
            String command = streamhouse ? "streamhouse" : "prove";
            int minimalRounds = result.minimalConditions().rounds();
            String faults = Fault.text(result.minimalConditions().faults());
            String producerOptions = ProducerOptions.text(new java.util.TreeMap<>(
                    result.minimalConditions().producerOptions()));
            String replay = "./build.sh run " + command + " --replay " + out;
            boolean written = csvOut.write(result.minimalCsv(), main.err)
                    && sqlOut.write(result.ddl().strip() + "\n", main.err)
                    && optionsOut.write(Replay.options(command, minimalRounds, faults, producerOptions, tabletServers,
                            tieringCheckpoints, result.minimalConditions().writers()),
                            main.err)
                    && (judgeAsOut == null || judgeAsOut.write(promise.strip() + "\n", main.err));
            CounterexampleSearch.Outcome minimal = result.minimal();
            written = written && readmeOut.write(readme(command, replay, result, minimalRounds), main.err);
            if (!written) {
                main.out.println("the reproducer could not be written; its table is:\n" + result.ddl()
                        + "\nand its workload:\n" + result.minimalCsv());
            }
            String conditions = result.minimalConditions().describe();
            main.out.printf("counterexample in trial %d: %d operations, shrunk to %d%s (%d proofs)%n",
                    result.trialsRun(), result.foundOperations(), result.minimalOperations(),
                    conditions.isEmpty() ? "" : " under " + conditions, result.proofsRun());
            if (minimal.report() != null) {
                main.out.print(minimal.report().summary());
            } else {
                main.out.println("the proof failed: " + minimal.failure());
            }
            main.out.println("reproduce: " + replay);
            if (report != null) {
                report.write((minimal.report() != null ? minimal.report().toJson() : failureJson(minimal)) + "\n",
                        main.err);
            }
            return Main.INCONSISTENT;
        }
    }

    /** The reproducer's README: what failed, how to run it again, with which versions. */
    private static String readme(String command, String replay, CounterexampleSearch.Result result, int rounds) {
        CounterexampleSearch.Outcome minimal = result.minimal();
        String faults = Fault.text(result.minimalConditions().faults());
        String producer = ProducerOptions.text(new java.util.TreeMap<>(result.minimalConditions().producerOptions()));
        return "# A counterexample tierproof search found\n\n"
                + "Trial " + result.trialsRun() + " failed with " + result.foundOperations() + " operations; shrunk to "
                + result.minimalOperations() + (faults.isEmpty() ? "" : " with faults " + faults) + " in "
                + result.proofsRun() + " proofs.\n\n"
                + "- `" + Replay.TABLE + "`: the table\n- `" + Replay.WORKLOAD + "`: the operations, in order\n"
                + "- `" + Replay.OPTIONS + "`: " + command + ", " + rounds + " round(s), faults: "
                + (faults.isEmpty() ? "none" : faults) + ", the client writer's "
                + (producer.isEmpty() ? "defaults" : "settings " + producer) + "\n\n"
                + "Run it again:\n\n```\n" + replay + "\n```\n\n"
                + "What it came to:\n\n```\n" + (minimal.report() != null ? minimal.report().summary()
                        : "the proof failed: " + minimal.failure() + "\n") + "```\n\n"
                + "Versions: " + dev.tierproof.core.Versions.all() + "\n";
    }

    /** A campaign: trials for {@code budget}, past what they find, each distinct finding written once. */
    private int campaign(CounterexampleSearch.Config config, java.time.Duration budget, Set<FinalRead> finalReads,
            String promise, OutputFile report, List<Path> inputs) {
        String settings = settings(config, finalReads);
        dev.tierproof.search.Campaign.State state = dev.tierproof.search.Campaign.resume(out, settings);
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.localWarehouse("search"));
        var deadline = run.deadline(60);
        try (RunSession session = RunSession.start("search", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.printf("tierproof search campaign: %s for %s%s, in %s%n", settings, campaignFor,
                    state.nextTrial() == 0 ? "" : " (going on from trial " + (state.nextTrial() + 1) + ", "
                            + state.elapsedMillis() / 1000 + " s in)", out);
            CounterexampleSearch.Prover prover = prover(session, warehouse, finalReads);
            CounterexampleSearch.Config cfg = new CounterexampleSearch.Config(config.target(), config.ddl(), promise,
                    trials, seed, perTrial, keys, config.rounds(), config.faultKinds(), varyProducer, warehouse.path(),
                    deadline, partitionValues, tabletServers, faultsPerTrial, tableOptionsPerTrial, hotKeys)
                    .withWideRows(wideRows);
            String command = streamhouse ? "streamhouse" : "prove";
            dev.tierproof.search.Campaign.State end = dev.tierproof.search.Campaign.run(prover, cfg, session.steps(),
                    state, budget, out, (number, signature, shrunk) -> {
                        String name = "finding-" + number;
                        writeReproducer(out.resolve(name), command, shrunk, promise, inputs, signature);
                        return name;
                    });
            session.completed();
            main.out.printf("campaign: %d trials in %d s, %d proofs, %d distinct finding(s)%n", end.nextTrial(),
                    end.elapsedMillis() / 1000, end.proofs(), end.findings().size());
            for (dev.tierproof.search.Campaign.Finding f : end.findings()) {
                main.out.printf("  finding %d: %s — first in trial %d after %d s, %d hit(s): %s%s%n", f.number(),
                        f.signature(), f.firstTrial(), f.firstSeenMillis() / 1000, f.hits(), out.resolve(f.reproducer()),
                        f.cutShort() ? " (not minimal: its share of the campaign's time ran out while shrinking)" : "");
            }
            main.out.println("state            : " + out.resolve(dev.tierproof.search.Campaign.STATE));
            if (report != null && report.write(report.html() ? campaignPage(settings, end)
                    : dev.tierproof.search.Campaign.json(end) + "\n", main.err)) {
                main.out.println("report           : " + report.path());
            }
            return end.findings().isEmpty() ? Main.CONSISTENT : Main.INCONSISTENT;
        }
    }

    /** The campaign as a page: its trials over time, its findings, what it exercised. */
    private String campaignPage(String settings, dev.tierproof.search.Campaign.State state) {
        return dev.tierproof.report.CampaignPage.html(settings, state.elapsedMillis(),
                state.trials().stream().map(t -> new dev.tierproof.report.CampaignPage.Trial(t.endedMillis(),
                        t.failed())).toList(),
                state.findings().stream().map(f -> new dev.tierproof.report.CampaignPage.Finding(f.number(),
                        f.signature(), f.firstTrial(), f.firstSeenMillis(), f.hits(),
                        out.resolve(f.reproducer()).toString())).toList(),
                state.coverage());
    }

    /** The prover of every trial: on one Fluss cluster and engine, or on one Flink engine. */
    private CounterexampleSearch.Prover prover(RunSession session, Warehouse warehouse, Set<FinalRead> finalReads) {
        if (streamhouse) {
            Streamhouse servers = Streamhouse.start(session, warehouse.lake(), tabletServers);
            return CounterexampleSearch.streamhouse(servers.cluster(), servers.engine(), finalReads, checkpoints());
        }
        FlinkEngine engine = session.started(FlinkEngine.start(4, session.directory().directory("flink")));
        return CounterexampleSearch.paimon(engine);
    }

    /** The search's settings in words: a campaign goes on only with the same. */
    private String settings(CounterexampleSearch.Config config, Set<FinalRead> finalReads) {
        return (streamhouse ? "--streamhouse " : "") + "seed " + seed + ", " + perTrial + " operations over " + keys
                + " keys" + (streamhouse ? " in " + config.rounds() + " rounds" : "")
                + (randomTables ? ", a random table each trial" : ", table " + config.ddl().strip())
                + (config.promiseDdl() == null ? "" : ", judged as " + config.promiseDdl().strip())
                + (config.faultKinds().isEmpty() ? "" : ", faults " + config.faultKinds().stream()
                        .map(Fault.Kind::text).toList())
                + (faultsPerTrial == 1 ? "" : ", " + faultsPerTrial + " faults a trial")
                + (varyProducer ? ", producer varied" : "")
                + (tableOptionsPerTrial == 0 ? "" : ", up to " + tableOptionsPerTrial + " table options a trial")
                + (partitionValues == Workload.PARTITION_VALUES ? "" : ", partition values " + partitionValues)
                + (tabletServers == 1 ? "" : ", " + tabletServers + " tablet servers")
                + (tieringCheckpoints == null ? "" : ", tiering checkpoints every " + tieringCheckpoints + " s")
                + (streamhouse && finalReads.size() < FinalRead.values().length ? ", reads " + finalReads : "");
    }

    /** A reproducer in {@code dir}: the table, the workload, how to run it, what it came to; nothing overwritten. */
    private void writeReproducer(Path dir, String command, CounterexampleSearch.Result result, String promise,
            List<Path> inputs, String signature) {
        String replay = "./build.sh run " + command + " --replay " + dir;
        String faults = Fault.text(result.minimalConditions().faults());
        String producer = ProducerOptions.text(new java.util.TreeMap<>(result.minimalConditions().producerOptions()));
        boolean written = OutputFile.check("--out", dir.resolve(Replay.WORKLOAD), inputs).write(result.minimalCsv(), main.err)
                && OutputFile.check("--out", dir.resolve(Replay.TABLE), inputs).write(result.ddl().strip() + "\n", main.err)
                && OutputFile.check("--out", dir.resolve(Replay.OPTIONS), inputs)
                        .write(Replay.options(command, result.minimalConditions().rounds(), faults, producer,
                                tabletServers, tieringCheckpoints, result.minimalConditions().writers()), main.err)
                && (promise == null || OutputFile.check("--out", dir.resolve(Replay.JUDGE_AS), inputs)
                        .write(promise.strip() + "\n", main.err))
                && OutputFile.check("--out", dir.resolve("README.md"), inputs).write("Signature: " + signature + "\n\n"
                        + (result.cutShort() ? "Not minimal: shrinking stopped when its share of the campaign's time ran out"
                                + " (this case fails; a smaller one may too).\n\n" : "")
                        + readme(command, replay, result, result.minimalConditions().rounds()), main.err);
        if (!written) {
            throw new dev.tierproof.core.TierproofException("the reproducer in " + dir + " could not be written");
        }
    }

    /** A campaign's length: {@code 90s}, {@code 30m}, {@code 2h}; bad input names it. */
    static java.time.Duration duration(String text) {
        java.time.Duration d = dev.tierproof.util.Lengths.parse(text);
        if (d == null || d.toSeconds() < 1) {
            throw new IllegalArgumentException("--for " + text + " is not a length such as 90s, 30m or 2h");
        }
        return d;
    }

    private static List<Fault.Kind> kinds(String list) {
        List<Fault.Kind> kinds;
        try {
            kinds = Fault.kinds(list);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--faults " + list + ": " + e.getMessage(), e);
        }
        for (Fault.Kind kind : kinds) {
            kind.nemesis().refusal(Deployment.forSearch()).ifPresent(refusal -> {
                throw new IllegalArgumentException("--faults " + list + ": " + refusal);
            });
        }
        return kinds;
    }

    /** A minimal case whose proof failed (no verdict): what failed, for tools. */
    private static String failureJson(CounterexampleSearch.Outcome minimal) {
        var json = dev.tierproof.report.Report.newObject();
        json.put("command", "search");
        json.put("status", "completed");
        json.put("consistent", false);
        json.put("failure", minimal.failure());
        return dev.tierproof.report.Report.render(json);
    }

    /** The first trial's table and workload, made before anything starts: bad input fails here. */
    private void checkFirstTrial(CounterexampleSearch.Config config) {
        String first = CounterexampleSearch.tableOf(config, seed);
        Workload.Target target = config.target();
        String source = randomTables ? "the random table of seed " + seed : tableOptions.given()
                ? tableOptions.source() : "the tiered table";
        try (Workload w = Workload.generate(target, first, 1, 1, seed, true)) {
            if (w.table().database() != null) {
                throw new IllegalArgumentException(source + " names a database; search proves each trial in a"
                        + " database of its own (search_1, search_2, ...): give only the table's name");
            }
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith(source) ? e : new IllegalArgumentException(source + ": "
                    + e.getMessage(), e);
        }
        if (config.promiseDdl() != null) {
            try {
                Workload.generateJudgedAs(target, first, config.promiseDdl(), 1, 1, seed).close();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--judge-as " + judgeAs + ": " + e.getMessage(), e);
            }
        }
    }

    private static void range(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " " + value + " must be between " + min + " and " + max);
        }
    }

    /** The trials' tiering checkpoint interval, or null for none. */
    private java.time.Duration checkpoints() {
        return tieringCheckpoints == null ? null : java.time.Duration.ofSeconds(tieringCheckpoints);
    }
}
