package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workloads;
import dev.tierproof.paimon.FlinkEngine;
import dev.tierproof.paimon.Progress;
import dev.tierproof.search.CounterexampleSearch;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@code tierproof search}: exit 0 when no trial fails, 1 with a minimal reproducer (a CSV and the
 * DDL, runnable with {@code prove}) when one does, 2 on bad input or a failure.
 */
final class SearchCommand {
    private static final Set<String> OPTIONS =
            Set.of("trials", "seed", "ddl-file", "out", "upserts-per-trial", "keys", "deadline-s", "warehouse");

    private SearchCommand() {}

    static int run(List<String> words, PrintStream out, PrintStream err) {
        Args args = Args.parse(words, OPTIONS);
        String ddl = args.has("ddl-file") ? ProveCommand.readFile(args.get("ddl-file", "")) : null;
        int trials = (int) args.longValue("trials", 5, 1, 100_000);
        long seed = args.longValue("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        int perTrial = (int) args.longValue("upserts-per-trial", 8, 1, 100);
        int keys = (int) args.longValue("keys", 3, 1, Integer.MAX_VALUE);
        Path outDir = Path.of(args.get("out", "tierproof-counterexample"));
        Duration deadline = Duration.ofSeconds(args.longValue("deadline-s", 60, 1, 86_400));
        out.printf("tierproof search: %d trials of %d upserts over %d keys, seed %d, table %s%n", trials, perTrial,
                keys, seed, ddl == null ? "the tiered table (deduplicate + input)" : args.get("ddl-file", ""));
        CounterexampleSearch.Result result;
        try (Warehouse warehouse = Warehouse.of(args); FlinkEngine engine = FlinkEngine.start(4)) {
            result = CounterexampleSearch.run(engine, new CounterexampleSearch.Config(ddl, trials, seed, perTrial,
                    keys, warehouse.path(), deadline), Progress.to(err));
        }
        if (result.minimal() == null) {
            out.printf("no counterexample: all %d trials consistent (%d proofs)%n", result.trialsRun(),
                    result.proofsRun());
            return Main.CONSISTENT;
        }
        Path csv = outDir.resolve("upserts.csv");
        Path sql = outDir.resolve("table.sql");
        try {
            Files.createDirectories(outDir);
            Files.writeString(csv, Workloads.toCsv(result.minimal()));
            Files.writeString(sql, (ddl != null ? ddl.strip() : Ddl.tierTableDdl("accounts")) + "\n");
        } catch (IOException e) {
            throw new TierproofException("could not write the reproducer to " + outDir + ": " + e.getMessage(), e);
        }
        out.printf("counterexample in trial %d: %d upserts, shrunk to %d (%d proofs): %s%n", result.trialsRun(),
                result.found().size(), result.minimal().size(), result.proofsRun(), result.minimal());
        out.print(result.minimalReport().summary());
        out.println("reproduce: ./build.sh run prove --upserts " + csv + " --ddl-file " + sql);
        return Main.INCONSISTENT;
    }
}
