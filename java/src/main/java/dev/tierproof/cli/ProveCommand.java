package dev.tierproof.cli;

import dev.tierproof.core.Rows;
import dev.tierproof.paimon.FlinkEngine;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.paimon.ProofReport;
import dev.tierproof.paimon.Progress;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** {@code tierproof prove}: the core proof on Flink SQL + Paimon. */
final class ProveCommand {
    private static final Set<String> OPTIONS = Set.of(
            "table", "upserts", "random", "keys", "seed", "ddl-file", "warehouse", "report", "deadline-s",
            "rows-per-insert");

    /** Up to this many upserts run as one INSERT each (the contract); more are batched. */
    static final int PER_UPSERT_LIMIT = 100;

    private ProveCommand() {}

    static int run(List<String> words, PrintStream out, PrintStream err) {
        Args args = Args.parse(words, OPTIONS);
        Rows upserts = Workload.from(args);
        String ddl = args.has("ddl-file") ? readFile(args.get("ddl-file", "")) : null;
        int rowsPerInsert = args.intValue("rows-per-insert", upserts.size() <= PER_UPSERT_LIMIT ? 1 : 1000);
        if (rowsPerInsert < 1) {
            throw new IllegalArgumentException("--rows-per-insert " + rowsPerInsert + " must be at least 1");
        }
        Duration deadline = Duration.ofSeconds(args.longValue("deadline-s", 60, 1, 86_400));
        Progress progress = Progress.to(err);
        try (Warehouse warehouse = Warehouse.of(args)) {
            PaimonProof.Config cfg = new PaimonProof.Config(
                    args.get("table", "accounts"), upserts, ddl, warehouse.path(), deadline, rowsPerInsert);
            out.println("tierproof prove: " + Workload.describe(args, upserts) + ", warehouse " + warehouse.describe());
            progress.step("starting Flink MiniCluster");
            ProofReport report;
            try (FlinkEngine engine = FlinkEngine.start(4)) {
                report = PaimonProof.run(engine, cfg, progress);
            }
            return ReportOutput.print(out, report, args, "DDL", o -> { });
        }
    }

    static String readFile(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
    }
}
