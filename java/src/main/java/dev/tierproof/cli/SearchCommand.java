package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workloads;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.search.CounterexampleSearch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tierproof search}: exit 0 when no trial fails, 1 with a minimal reproducer (a CSV and the
 * DDL, runnable with {@code prove}) when one does, 2 on bad input or a failure.
 */
@Command(name = "search", mixinStandardHelpOptions = true,
        description = "Random workloads against one table; shrinks a failing one to a minimal reproducer.")
final class SearchCommand extends TierproofCommand {
    @Option(names = "--trials", paramLabel = "N", defaultValue = "5", description = "random workloads to prove"
            + " (default ${DEFAULT-VALUE})")
    int trials;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "the first trial's seed"
            + " (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--ddl-file", paramLabel = "FILE", description = "the table to search (default: the tiered"
            + " table)")
    Path ddlFile;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "tierproof-counterexample",
            description = "where the reproducer goes (default ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--upserts-per-trial", paramLabel = "N", defaultValue = "8",
            description = "upserts in each trial, 1 to 100 (default ${DEFAULT-VALUE})")
    int perTrial;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "3", description = "distinct ids in each trial"
            + " (default ${DEFAULT-VALUE})")
    int keys;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() {
        String ddl = ddlFile == null ? null : InputFiles.readText(ddlFile, "--ddl-file");
        if (ddl != null && Ddl.checkUserDdl(ddl, true).database() != null) {
            throw new IllegalArgumentException("--ddl-file " + ddlFile + " names a database; search proves each"
                    + " trial in a database of its own (search_1, search_2, ...): give only the table's name");
        }
        range("--trials", trials, 1, 100_000);
        range("--upserts-per-trial", perTrial, 1, 100);
        range("--keys", keys, 1, Integer.MAX_VALUE);
        List<Path> inputs = new ArrayList<>();
        inputs.add(ddlFile);
        OutputFile report = OutputFile.check("--report", run.report, inputs);
        inputs.add(run.report);
        // The reproducer's files are checked now too: rerunning a reproducer must not overwrite it.
        OutputFile csvOut = OutputFile.check("--out", out.resolve("upserts.csv"), inputs);
        OutputFile sqlOut = OutputFile.check("--out", out.resolve("table.sql"), inputs);
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.warehouse);
        var deadline = run.deadline(60);

        try (RunSession session = RunSession.start("search", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.printf("tierproof search: %d trials of %d upserts over %d keys, seed %d, table %s%n", trials,
                    perTrial, keys, seed, ddl == null ? "the tiered table (deduplicate + input)" : ddlFile);
            FlinkEngine engine = session.started(FlinkEngine.start(4, session.directory().directory("flink")));
            CounterexampleSearch.Result result = CounterexampleSearch.run(engine, new CounterexampleSearch.Config(
                    ddl, trials, seed, perTrial, keys, warehouse.path(), deadline), session.steps());
            session.completed();
            if (result.minimal() == null) {
                main.out.printf("no counterexample: all %d trials consistent (%d proofs)%n", result.trialsRun(),
                        result.proofsRun());
                return Main.CONSISTENT;
            }
            Path csv = csvOut.path();
            Path sql = sqlOut.path();
            if (!csvOut.write(Workloads.toCsv(result.minimal()), main.err)
                    || !sqlOut.write((ddl != null ? ddl.strip() : Ddl.tierTableDdl("accounts")) + "\n", main.err)) {
                main.out.println("the reproducer could not be written; it is: " + result.minimal());
            }
            main.out.printf("counterexample in trial %d: %d upserts, shrunk to %d (%d proofs): %s%n",
                    result.trialsRun(), result.found().size(), result.minimal().size(), result.proofsRun(),
                    result.minimal());
            main.out.print(result.minimalReport().summary());
            main.out.println("reproduce: ./build.sh run prove --upserts " + csv + " --ddl-file " + sql);
            if (report != null) {
                report.write(result.minimalReport().toJson() + "\n", main.err);
            }
            return Main.INCONSISTENT;
        }
    }

    private static void range(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " " + value + " must be between " + min + " and " + max);
        }
    }
}
