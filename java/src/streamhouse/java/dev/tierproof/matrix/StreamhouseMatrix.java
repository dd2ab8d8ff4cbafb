package dev.tierproof.matrix;

import dev.tierproof.proof.FinalRead;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.proof.StreamhouseProof;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The streamhouse matrix (issue 9): one Fluss cluster, lake and Flink engine; for each table
 * shape of the grid (kind × buckets × partition column type × lake options) a seeded random
 * workload with deletes, written through the Fluss client in rounds, tiered, and every read
 * judged by the core; a row per shape with each read's own verdict, the consistent cuts, and
 * whether tiering caught up.
 */
public final class StreamhouseMatrix {
    /** Table kinds: a primary-key table (deduplicate), a first_row one, a log table (no key). */
    public static final List<String> KINDS = List.of("pk", "first-row", "log");
    public static final List<String> PARTITIONS = List.of("none", "STRING", "INT", "BIGINT", "DATE");
    public static final List<String> READS = FinalRead.tableReads();

    /**
     * One table shape.
     *
     * @param lakeOptions {@code none}, or a dotted option passed through to the table,
     *     {@code paimon.deletion-vectors.enabled=true}
     */
    public record Shape(String kind, int buckets, String partition, String lakeOptions) {
        public Shape {
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("table kind " + kind + " is not one of " + KINDS);
            }
            if (!PARTITIONS.contains(partition)) {
                throw new IllegalArgumentException("partition " + partition + " is not one of " + PARTITIONS);
            }
            if (buckets < 1 || buckets > 16) {
                throw new IllegalArgumentException("buckets " + buckets + " must be between 1 and 16");
            }
            if (!lakeOptions.equals("none") && !lakeOptions.matches("[a-z0-9.-]+\\.[a-z0-9.-]+=[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("lake option " + lakeOptions + " is not none or KEY=VALUE with a"
                        + " dotted KEY (paimon.deletion-vectors.enabled=true)");
            }
        }

        /** For people: {@code pk, 3 buckets, INT partition, paimon.x=y}. */
        public String label() {
            return kind + ", " + buckets + (buckets == 1 ? " bucket" : " buckets")
                    + (partition.equals("none") ? "" : ", " + partition + " partition")
                    + (lakeOptions.equals("none") ? "" : ", " + lakeOptions);
        }

        /** The shape as a compact spec ({@code Ddl.fromSpec}). */
        public String spec() {
            boolean partitioned = !partition.equals("none");
            StringBuilder sb = new StringBuilder("k: INT");
            if (partitioned) {
                sb.append(", p: ").append(partition);
            }
            sb.append(", v: STRING, n: BIGINT");
            if (!kind.equals("log")) {
                sb.append("; key = k").append(partitioned ? ", p" : "");
            }
            if (partitioned) {
                sb.append("; partition = p");
            }
            sb.append("; buckets = ").append(buckets);
            if (kind.equals("first-row")) {
                sb.append("; engine = first-row");
            }
            if (!lakeOptions.equals("none")) {
                String[] kv = lakeOptions.split("=", 2);
                sb.append("; ").append(kv[0]).append(" = ").append(kv[1]);
            }
            return sb.toString();
        }
    }

    /** Every shape of the grid, in order; bad input names the value. */
    public static List<Shape> grid(List<String> kinds, List<Integer> buckets, List<String> partitions,
            List<String> lakeOptions) {
        List<Shape> shapes = new ArrayList<>();
        for (String kind : kinds) {
            for (String partition : partitions) {
                for (int b : buckets) {
                    for (String options : lakeOptions) {
                        shapes.add(new Shape(kind.toLowerCase(Locale.ROOT), b, partition.toUpperCase(Locale.ROOT)
                                .replace("NONE", "none"), options));
                    }
                }
            }
        }
        return shapes;
    }

    /**
     * What one shape came to.
     *
     * @param verdict consistent, inconsistent, stalled, failed (the proof could not finish) or
     *     refused (the engine refused the table)
     * @param reads each read's own verdict: consistent, inconsistent, failed or not-run
     * @param cuts consistent cuts judged and how many held, e.g. {@code 4/4}
     * @param reason what broke, for people (empty when consistent)
     */
    public record Row(Shape shape, String verdict, Map<String, String> reads, String cuts, String reason,
            long millis) {}

    /**
     * @param operations operations in each shape's random workload (deletes included where the
     *     table takes them)
     * @param keys distinct keys in each
     * @param rounds each written in this many rounds, a checkpoint after each but the last
     */
    public record Config(List<Shape> shapes, int operations, int keys, long seed, int rounds, Path warehouse,
            Duration deadline) {}

    private StreamhouseMatrix() {}

    /** Every shape's DDL and workload are checked before the first runs (a bad one throws here). */
    public static void check(Config cfg) {
        for (Shape s : cfg.shapes()) {
            String ddl = Ddl.fromSpec(s.spec(), "matrix_check", Workload.Target.FLUSS);
            Workload.generate(Workload.Target.FLUSS, ddl, cfg.operations(), cfg.keys(), cfg.seed(), true).close();
        }
    }

    public static List<Row> run(FlussCluster cluster, FlinkEngine engine, Config cfg, Steps steps) {
        check(cfg);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < cfg.shapes().size(); i++) {
            Shape shape = cfg.shapes().get(i);
            steps.progress().step("shape " + (i + 1) + "/" + cfg.shapes().size() + ": " + shape.label());
            long start = System.nanoTime();
            String ddl = Ddl.fromSpec(shape.spec(), "matrix_" + (i + 1), Workload.Target.FLUSS);
            Row row;
            try (Workload w = Workload.generate(Workload.Target.FLUSS, ddl, cfg.operations(), cfg.keys(), cfg.seed(),
                    true)) {
                ProofReport r = StreamhouseProof.run(cluster, engine, new StreamhouseProof.Config(w,
                        LakeLocation.local(cfg.warehouse()), cfg.deadline(), 1000, StreamhouseProof.Producer.CLIENT, Math.min(cfg.rounds(),
                                w.operations())), steps.quiet());
                row = row(shape, r, millisSince(start));
            } catch (IllegalArgumentException e) {
                row = new Row(shape, "refused", Map.of(), "", e.getMessage(), millisSince(start));
            } catch (TierproofException e) {
                if (steps.endsTheRun(e)) {
                    throw e;
                }
                row = new Row(shape, "failed", Map.of(), "", e.getMessage(), millisSince(start));
            }
            steps.progress().step("  " + row.verdict() + (row.reason().isEmpty() ? "" : ": " + row.reason()));
            rows.add(row);
        }
        return rows;
    }

    private static Row row(Shape shape, ProofReport r, long millis) {
        Verdict v = r.verdict();
        Map<String, String> reads = new LinkedHashMap<>();
        for (String name : READS) {
            String state = v.read(name).map(read -> read.consistent() ? "consistent" : "inconsistent")
                    .orElse(r.failedReads().contains(name) ? "failed" : "not-run");
            reads.put(name, state);
        }
        List<ProofReport.Checkpoint> cuts = r.checkpoints().stream()
                .filter(c -> c.kind() == ProofReport.Checkpoint.Kind.CUT).toList();
        long held = cuts.stream().filter(ProofReport.Checkpoint::consistent).count();
        String verdict = r.consistent() ? "consistent" : r.unfinished() != null
                ? r.unfinished().word().toLowerCase(java.util.Locale.ROOT) : "inconsistent";
        List<String> why = new ArrayList<>();
        v.reads().stream().filter(read -> !read.consistent()).forEach(read -> why.add(read.name() + ": "
                + read.reason()));
        why.addAll(v.failures());
        r.checkpoints().stream().filter(c -> !c.consistent()).forEach(c -> why.add(c.label() + ": "
                + (c.unfinished() != null ? c.unfinished().word() : "inconsistent")));
        if (r.unfinished() != null) {
            why.add(0, r.unfinished().word() + ": " + r.unfinished().evidence());
        }
        return new Row(shape, verdict, reads, cuts.isEmpty() ? "none" : held + "/" + cuts.size(),
                String.join("; ", why), millis);
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
