package dev.tierproof.cli;

import dev.tierproof.core.Rows;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workloads;
import dev.tierproof.matrix.Cell;
import dev.tierproof.matrix.MatrixReport;
import dev.tierproof.matrix.MatrixRun;
import dev.tierproof.paimon.FlinkEngine;
import dev.tierproof.paimon.Progress;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** {@code tierproof matrix}: every engine × producer × read mode on one workload. */
final class MatrixCommand {
    private static final Set<String> OPTIONS = Set.of("upserts", "random", "keys", "seed", "report", "html",
            "markdown", "deadline-s", "rows-per-insert", "warehouse");

    private MatrixCommand() {}

    static int run(List<String> words, PrintStream out, PrintStream err) {
        Args args = Args.parse(words, OPTIONS);
        Rows upserts = args.has("upserts") || args.has("random") ? Workload.from(args) : Workloads.random(200, 20, 1);
        String describe = args.has("upserts") || args.has("random")
                ? Workload.describe(args, upserts) : "200 random upserts over 20 keys, seed 1";
        int rowsPerInsert = (int) args.longValue("rows-per-insert", 25, 1, Integer.MAX_VALUE);
        Duration deadline = Duration.ofSeconds(args.longValue("deadline-s", 60, 1, 86_400));
        Progress progress = Progress.to(err);
        out.println("tierproof matrix: " + describe + ", " + rowsPerInsert + " upserts per commit");
        long start = System.nanoTime();
        List<Cell> cells;
        try (Warehouse warehouse = Warehouse.of(args); FlinkEngine engine = FlinkEngine.start(4)) {
            cells = MatrixRun.run(engine, new MatrixRun.Config(upserts, MatrixRun.ENGINES, MatrixRun.PRODUCERS,
                    warehouse.path(), deadline, rowsPerInsert), progress);
        }
        MatrixReport report = new MatrixReport(cells, describe, (System.nanoTime() - start) / 1_000_000);
        out.print(report.markdown());
        out.printf("time: %d ms%n", (System.nanoTime() - start) / 1_000_000);
        write(args, "report", () -> report.json().toPrettyString() + "\n", out);
        write(args, "html", report::html, out);
        write(args, "markdown", report::markdown, out);
        return Main.CONSISTENT;
    }

    interface Text {
        String get();
    }

    private static void write(Args args, String option, Text text, PrintStream out) {
        if (!args.has(option)) {
            return;
        }
        Path file = Path.of(args.get(option, ""));
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, text.get());
            out.println(option + ": " + file);
        } catch (IOException e) {
            throw new TierproofException("could not write " + file + ": " + e.getMessage(), e);
        }
    }
}
