package dev.tierproof.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.Statements;
import dev.tierproof.proof.FinalRead;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.proof.StreamhouseProof;
import dev.tierproof.paimon.PaimonApiLimit;
import dev.tierproof.paimon.PaimonLake;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.paimon.PaimonTables;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import dev.tierproof.search.CounterexampleSearch;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Issue 10's figures from one run, each against its goal and, where there is one, the limit it is
 * compared with: the core proof of a big workload (one ordered job) against the same rows
 * written and read through Paimon's own Java API; the streamhouse proof of the same size; the
 * default command's wall time (a JVM of its own); search trials per minute; the share of a
 * proof spent judging and the heap it took; and, when criterion has run, the oracle's median
 * against two baselines. Every proof is judged as always: a figure of a wrong answer says so.
 */
public final class Bench {
    /**
     * @param operations operations of the big workloads
     * @param keys their distinct keys
     * @param searchTrials trials of each small search
     * @param criterion criterion's output directory ({@code target/criterion}), or null
     */
    /** @param nemesisOperations the nemesis trial's size (its goal is for {@link #NEMESIS_OPERATIONS}) */
    public record Config(int operations, int keys, int searchTrials, Path warehouse, Duration deadline,
            Path criterion, int nemesisOperations) {}

    /** One line of the table: a figure, what was measured, the goal, and how it compares. */
    public record Figure(String figure, String measured, String goal, Boolean met, String limit, String ratio,
            String split) {}

    private Bench() {}

    public static List<Figure> run(Steps steps, FlinkEngine engine, FlussCluster cluster, Config cfg) {
        List<Figure> out = new ArrayList<>();
        var progress = steps.progress();
        int n = cfg.operations();
        String size = String.format("%,d operations over %,d keys", n, cfg.keys());

        progress.step("prove: " + size + " (one ordered job)");
        resetPeakHeap();
        ProofReport prove;
        try (Workload w = Workload.generate(Workload.Target.PAIMON, Ddl.tierTableDdl("bench_prove"), n, cfg.keys(), 1,
                true)) {
            prove = PaimonProof.run(engine, new PaimonProof.Config(null, w, cfg.warehouse(), cfg.deadline(), 1,
                    PaimonProof.Writer.JOB), steps);
            long heap = peakHeapMiB();
            Map<String, Long> t = prove.timings();
            long total = t.get("total");

            progress.step("the limit: the same rows written and read through Paimon's Java API (no Flink)");
            TableEnvironment batch = engine.batchTables();
            PaimonTables.register(batch, cfg.warehouse());
            String db = PaimonTables.DEFAULT_DATABASE;
            steps.undo().created("table " + db + ".bench_limit in the warehouse " + cfg.warehouse(),
                    () -> PaimonLake.dropTable(cfg.warehouse(), db, "bench_limit"));
            Statements.execute(steps, batch, "CREATE TABLE bench_limit", Ddl.tierTableDdl("bench_limit"),
                    cfg.deadline());
            PaimonApiLimit.Timing limit;
            try (Workload written = w.asWritten()) {
                limit = PaimonApiLimit.run(cfg.warehouse(), db, "bench_limit", written);
            }
            long limitMs = limit.writeMillis() + limit.readMillis();
            long rows = prove.verdict().expectedRows().size();
            if (limit.rows() != rows) {
                throw new TierproofException("the Paimon API limit read " + limit.rows() + " rows, the proof expected "
                        + rows + ": it did not do the same work, so it is no limit");
            }
            out.add(new Figure("prove " + size, seconds(total) + (prove.consistent() ? "" : " (INCONSISTENT)"),
                    "≤ 30 s and ≤ 2× the limit", total <= 30_000 && total <= 2 * limitMs,
                    seconds(limitMs) + " (write " + limit.writeMillis() + " ms, read " + limit.readMillis() + " ms of "
                            + rows + " rows)",
                    ratio(total, limitMs), split(t, "write", "reads", "batch", "streaming", "paimon_replay",
                            "fold", "judge")));
            long judge = judging(t);
            out.add(new Figure("judging share of the prove", percent(judge, total) + ", heap peak " + heap + " MiB",
                    "≤ 5 %, heap ≤ 2 GiB", judge * 20 <= total && heap <= 2048, "", "", judgingSplit(t)));
        }

        progress.step("streamhouse: " + size + " (the Fluss client, tiering, every read)");
        try (Workload w = Workload.generate(Workload.Target.FLUSS, FlussCatalog.tieredTableDdl("bench_sh"), n,
                cfg.keys(), 1, true)) {
            ProofReport sh = StreamhouseProof.run(cluster, engine, new StreamhouseProof.Config(w,
                    LakeLocation.local(cfg.warehouse()), cfg.deadline(), 1000), steps);
            Map<String, Long> t = sh.timings();
            long total = t.get("total");
            out.add(new Figure("streamhouse " + size, seconds(total) + (sh.consistent() ? "" : " (INCONSISTENT)"),
                    "≤ 60 s", total <= 60_000, "", "", split(t, Stream.of(List.of("write", "tiering_wait", "reads"),
                            FinalRead.tableReads(), List.of("fold", "judge", "cuts")).flatMap(List::stream)
                            .toArray(String[]::new))));
            long judge = judging(t);
            out.add(new Figure("judging share of the streamhouse", percent(judge, total), "≤ 5 %",
                    judge * 20 <= total, "", "", judgingSplit(t)));
        }

        out.add(nemesis(cluster, engine, cfg, steps));

        progress.step("the default command, a JVM of its own: ./build.sh run (12 upserts, one INSERT each)");
        // Warm means the second: the first run after a build records the class-data archive.
        long first = defaultRunMillis(cfg.deadline());
        long wall = defaultRunMillis(cfg.deadline());
        out.add(new Figure("default ./build.sh run, warm, wall", seconds(wall), "≤ 8 s", wall <= 8_000, "", "",
                "JVM start, MiniCluster start, 12 jobs, reads, judging (the run before it: " + seconds(first) + ")"));

        progress.step("search: " + cfg.searchTrials() + " small trials on Paimon, then on the streamhouse");
        out.add(search("search (Paimon), 8 operations a trial", cfg, steps, CounterexampleSearch.paimon(engine),
                new CounterexampleSearch.Config(Ddl.tierTableDdl("t"), null, cfg.searchTrials(), 1, 8, 4,
                        cfg.warehouse(), cfg.deadline())));
        out.add(search("search --streamhouse, 8 operations a trial", cfg, steps,
                CounterexampleSearch.streamhouse(cluster, engine), new CounterexampleSearch.Config(
                        Workload.Target.FLUSS, FlussCatalog.tieredTableDdl("t"), null, cfg.searchTrials(), 1, 8, 4,
                        1, List.of(), false, cfg.warehouse(), cfg.deadline())));

        out.add(new Figure("first ./build.sh run on a fresh machine", "not measured here", "≤ 90 s", null,
                "", "", "needs an empty Maven repository and cargo registry: measured by hand, see docs/speed.md"));
        if (cfg.criterion() != null) {
            out.add(criterion(cfg.criterion()));
        }
        return out;
    }

    /** Refuses a warehouse that already holds a table of the bench's: it never writes to one it did not create. */
    public static void checkTables(Path warehouse) {
        for (String[] t : List.of(new String[] {PaimonTables.DEFAULT_DATABASE, "bench_prove"},
                new String[] {PaimonTables.DEFAULT_DATABASE, "bench_limit"},
                new String[] {FlussCatalog.FLUSS_DATABASE, "bench_sh"})) {
            if (PaimonLake.tableExists(warehouse, t[0], t[1])) {
                throw new IllegalArgumentException("table " + t[0] + "." + t[1] + " already exists in the warehouse "
                        + warehouse + "; tierproof never writes to a table it did not create: choose another"
                        + " --warehouse");
            }
        }
    }

    /** Judging: the core folding each read as it streams in, then comparing (fold + compare). */
    private static long judging(Map<String, Long> t) {
        return t.get("fold") + t.get("judge");
    }

    private static String judgingSplit(Map<String, Long> t) {
        return "folding the reads as they stream in " + t.get("fold") + " ms (inside the reads' times), comparing "
                + t.get("judge") + " ms";
    }

    private static Figure search(String name, Config cfg, Steps steps, CounterexampleSearch.Prover prover,
            CounterexampleSearch.Config search) {
        // Each proof's own phases, to show where a trial's time goes.
        List<Map<String, Long>> proofs = java.util.Collections.synchronizedList(new ArrayList<>());
        CounterexampleSearch.Prover timed = new CounterexampleSearch.Prover() {
            @Override
            public ProofReport prove(Workload workload, CounterexampleSearch.Conditions conditions, int proof,
                    CounterexampleSearch.Config c, Steps s) {
                ProofReport report = prover.prove(workload, conditions, proof, c, s);
                proofs.add(report.timings());
                return report;
            }

            @Override
            public void close() {
                prover.close();
            }
        };
        long start = System.nanoTime();
        CounterexampleSearch.Result r = CounterexampleSearch.run(timed, search, steps.quiet());
        long ms = Statements.millisSince(start);
        double perMinute = r.trialsRun() * 60_000.0 / Math.max(1, ms);
        return new Figure(name, String.format("%.1f trials/min", perMinute) + (r.found() ? " (FOUND ONE)" : ""),
                "≥ 30 trials/min", perMinute >= 30, "", "", r.trialsRun() + " trials, " + r.proofsRun() + " proofs in "
                        + seconds(ms) + "; " + proofSplit(proofs, ms));
    }

    /**
     * A proof's phases as medians over the search's proofs, and what each proof cost outside them
     * (the search's time per proof less the median proof): where a trial's time goes.
     */
    static String proofSplit(List<Map<String, Long>> proofs, long searchMillis) {
        if (proofs.isEmpty()) {
            return "no proof ran";
        }
        List<String> parts = new ArrayList<>();
        for (String phase : List.of("total", "create", "write", "tiering_wait", "reads", "judge")) {
            long[] values = proofs.stream().filter(t -> t.containsKey(phase)).mapToLong(t -> t.get(phase)).sorted()
                    .toArray();
            if (values.length > 0) {
                parts.add((phase.equals("total") ? "a proof" : phase) + " " + seconds(values[values.length / 2]));
            }
        }
        long[] totals = proofs.stream().mapToLong(t -> t.getOrDefault("total", 0L)).sorted().toArray();
        long outside = searchMillis / proofs.size() - totals[totals.length / 2];
        return "medians: " + String.join(", ", parts) + "; outside the proof " + seconds(Math.max(0, outside))
                + " a proof (starting and stopping what it runs on, the search's own work)";
    }

    /** The oracle's criterion medians (judging 1 M changes) against its two baselines. */
    static Figure criterion(Path dir) {
        String group = "general_judge_1M_wide";
        double ours = median(dir, group, "changelog_and_snapshot");
        double hash = median(dir, group, "baseline_hash");
        double sort = median(dir, group, "baseline_sort");
        return new Figure("oracle: judge 1 M changes (criterion median)", String.format("%.2f s", ours / 1e9), "",
                null, String.format("hash %.2f s, sort %.2f s", hash / 1e9, sort / 1e9),
                String.format("%.2f× hash, %.2f× sort", ours / hash, ours / sort),
                "the baselines fold and compare canonical text; the oracle types every cell and checks the"
                        + " changelog rules");
    }

    private static double median(Path dir, String group, String function) {
        Path estimates = dir.resolve(group).resolve(function).resolve("new").resolve("estimates.json");
        try {
            JsonNode json = new ObjectMapper().readTree(Files.readString(estimates));
            return json.path("median").path("point_estimate").asDouble();
        } catch (IOException e) {
            throw new IllegalArgumentException("--criterion " + dir + ": no criterion estimates at " + estimates
                    + " (run cargo bench --bench general first)", e);
        }
    }

    /**
     * The default command's wall time, run as a user runs it: {@code ./build.sh run} when the bench
     * runs from the repository (its class-data archive and start-up flags included), else a JVM of
     * its own on this class path.
     */
    private static long defaultRunMillis(Duration deadline) {
        List<String> command = new ArrayList<>();
        if (Files.isRegularFile(Path.of("build.sh"))) {
            command.addAll(List.of("bash", "build.sh", "run"));
        } else {
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            command.addAll(List.of("-cp", dev.tierproof.util.ChildJvm.classPath(), "dev.tierproof.cli.Main"));
        }
        long start = System.nanoTime();
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new TierproofException("the default command did not end within " + deadline.toSeconds() + " s");
            }
            if (p.exitValue() != 0) {
                throw new TierproofException("the default command ended with status " + p.exitValue());
            }
        } catch (IOException e) {
            throw new TierproofException("the default command could not start: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while the default command ran", e);
        }
        return Statements.millisSince(start);
    }

    private static void resetPeakHeap() {
        ManagementFactory.getMemoryPoolMXBeans().stream().filter(m -> m.getType() == MemoryType.HEAP)
                .forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    private static long peakHeapMiB() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(m -> m.getType() == MemoryType.HEAP)
                .mapToLong(m -> m.getPeakUsage().getUsed()).sum() >> 20;
    }

    private static String split(Map<String, Long> timings, String... phases) {
        List<String> parts = new ArrayList<>();
        for (String p : phases) {
            if (timings.containsKey(p)) {
                parts.add(p + " " + seconds(timings.get(p)));
            }
        }
        return String.join(", ", parts);
    }

    static String seconds(long millis) {
        return String.format("%.1f s", millis / 1000.0);
    }

    private static String ratio(long a, long b) {
        return String.format("%.2f×", a / (double) Math.max(1, b));
    }

    private static String percent(long part, long whole) {
        return String.format("%.1f %%", 100.0 * part / Math.max(1, whole));
    }

    /** Operations in the nemesis figure's trial its goal is for: issue 25's size. */
    public static final int NEMESIS_OPERATIONS = 2_000;

    /**
     * A nemesis trial: operations with two faults (the tablet server restarted at 35 %, then the
     * tiering job at 70 %: both strike any embedded cluster), every read; against 90 s at
     * {@link #NEMESIS_OPERATIONS}.
     */
    private static Figure nemesis(FlussCluster cluster, FlinkEngine engine, Config cfg, Steps steps) {
        int n = cfg.nemesisOperations();
        String faults = "restart-tablet@" + Math.max(1, n * 35 / 100) + ",restart-tiering@" + Math.max(1, n * 70 / 100);
        steps.progress().step("nemesis: " + n + " operations with " + faults);
        try (Workload w = Workload.generate(Workload.Target.FLUSS, FlussCatalog.tieredTableDdl("bench_nemesis"),
                n, Math.min(200, n), 1, true)) {
            ProofReport sh = StreamhouseProof.run(cluster, engine, new StreamhouseProof.Config(w,
                    LakeLocation.local(cfg.warehouse()), cfg.deadline(), 1, StreamhouseProof.Producer.CLIENT, 1,
                    dev.tierproof.nemesis.Fault.parse(faults, n)), steps);
            Map<String, Long> t = sh.timings();
            long total = t.get("total");
            return new Figure(String.format("nemesis trial: %,d operations, %s", n, faults),
                    seconds(total) + (sh.consistent() ? "" : " (" + sh.verdictWord() + ")"),
                    String.format("≤ 90 s at %,d operations", NEMESIS_OPERATIONS),
                    n == NEMESIS_OPERATIONS ? total <= 90_000 : null, "", "", split(t, Stream.of(List.of("write", "tiering_wait", "reads"),
                            FinalRead.tableReads(), List.of("fold", "judge", "cuts")).flatMap(List::stream)
                            .toArray(String[]::new)));
        }
    }

    /**
     * The figures as a page of their own (docs/measured.md): when and where they were measured
     * first, so that no figure is read without its machine, then the table.
     */
    public static String page(List<Figure> figures, MeasuredOn on) {
        return "# Measured\n\n"
                + "Written by `./build.sh bench` (criterion, then `tierproof bench`): one run, medians and ratios.\n"
                + "Figures from another machine or day are not comparable; run it again to compare.\n\n"
                + on.markdown() + "\n" + table(figures);
    }

    /** The figures as a Markdown table, as docs/measured.md holds them. */
    public static String table(List<Figure> figures) {
        StringBuilder sb = new StringBuilder("| figure | measured | goal | met | limit | ratio | split |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (Figure f : figures) {
            sb.append("| ").append(String.join(" | ", f.figure(), f.measured(), f.goal(),
                    f.met() == null ? "" : f.met() ? "yes" : "**no**", f.limit(), f.ratio(), f.split()))
                    .append(" |\n");
        }
        return sb.toString();
    }
}
