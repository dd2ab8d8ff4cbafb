package dev.tierproof.cli;

import dev.tierproof.bench.Bench;
import dev.tierproof.bench.MeasuredOn;
import dev.tierproof.report.Report;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tierproof bench}: issue 10's figures from one run, as a table (and a JSON report). Exit 0
 * when every goal measured is met, 1 when one is not. {@code ./build.sh bench} runs criterion first
 * and passes its output with {@code --criterion}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "How fast tierproof proves, against its goals and Paimon's own Java API: one run, a table.")
final class BenchCommand extends TierproofCommand {
    @Option(names = "--operations", paramLabel = "N", defaultValue = "1000000",
            description = "operations of the big prove and streamhouse workloads (default ${DEFAULT-VALUE})")
    int operations;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "100000",
            description = "their distinct keys (default ${DEFAULT-VALUE})")
    int keys;

    @Option(names = "--search-trials", paramLabel = "N", defaultValue = "10",
            description = "trials of each small search (default ${DEFAULT-VALUE})")
    int searchTrials;

    @Option(names = "--nemesis-operations", paramLabel = "N", defaultValue = "2000", description = "operations of"
            + " the nemesis trial (two faults, every read; default ${DEFAULT-VALUE}, the size its goal is for)")
    int nemesisOperations;

    @Option(names = "--criterion", paramLabel = "DIR", description = "criterion's output (target/criterion):"
            + " adds the oracle's median against its baselines")
    Path criterion;

    @Option(names = "--markdown", paramLabel = "FILE.md", description = "also write the figures, with when and"
            + " where they were measured, as a Markdown page (./build.sh bench writes docs/measured.md)")
    Path markdown;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() {
        if (nemesisOperations < 2 || nemesisOperations > 1_000_000) {
            throw new IllegalArgumentException("--nemesis-operations " + nemesisOperations + " must be between 2 and"
                    + " 1000000");
        }
        if (operations < 1 || keys < 1 || keys > operations || searchTrials < 1) {
            throw new IllegalArgumentException("--operations " + operations + ", --keys " + keys + ", --search-trials "
                    + searchTrials + ": each at least 1, and no more keys than operations");
        }
        List<Path> inputs = new ArrayList<>();
        OutputFile report = OutputFile.check("--report", run.report, inputs);
        OutputFile page = OutputFile.check("--markdown", markdown, inputs);
        if (report != null && report.html()) {
            throw new IllegalArgumentException("--report " + run.report + ": bench writes JSON");
        }
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.localWarehouse("bench"));
        if (usersWarehouse != null && java.nio.file.Files.isDirectory(usersWarehouse.lake().directory())) {
            Bench.checkTables(usersWarehouse.lake().directory()); // before any server starts; a run's own warehouse is new
        }
        var deadline = run.deadline(300);
        try (RunSession session = RunSession.start("bench", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.printf("tierproof bench: %,d operations over %,d keys, %d search trials, warehouse %s%n",
                    operations, keys, searchTrials, warehouse.describe());
            Streamhouse servers = Streamhouse.start(session, warehouse.lake());
            List<Bench.Figure> figures = Bench.run(session.steps(), servers.engine(), servers.cluster(),
                    new Bench.Config(operations, keys, searchTrials, warehouse.path(), deadline, criterion,
                            nemesisOperations));
            session.completed();
            main.out.print(Bench.table(figures));
            if (page != null && page.write(Bench.page(figures, MeasuredOn.here()), main.err)) {
                main.out.println("figures: " + page.path());
            }
            if (report != null) {
                var json = Report.newObject();
                json.put("command", "bench");
                json.put("status", "completed");
                json.put("operations", operations);
                json.put("keys", keys);
                json.set("figures", dev.tierproof.core.verdict.Verdict.JSON.valueToTree(figures));
                var versions = json.putObject("versions");
                dev.tierproof.core.Versions.all().forEach(versions::put);
                if (report.write(Report.render(json) + "\n", main.err)) {
                    main.out.println("report: " + report.path());
                }
            }
            return figures.stream().allMatch(f -> f.met() == null || f.met()) ? Main.CONSISTENT : Main.INCONSISTENT;
        }
    }
}
