package dev.tierproof.proof;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.CheckedDdl;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.fluss.LakeWatch;
import dev.tierproof.fluss.ProducerOptions;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.report.ProofReport;
import dev.tierproof.report.Report;
import dev.tierproof.report.TierLag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The proof's last stage: what every stage found, as the report (JSON, lines for people, the tier lag). */
final class StreamhouseReport {
    /** At most this many tier lag samples go into the report. */
    static final int MAX_SAMPLES = 1000;

    private StreamhouseReport() {}

    /** The report of a completed run. */
    static ProofReport of(ProofRun run, Production.Produced produced, List<String> injected, Quiescence.Tiered tiered,
            FinalReads.Judged judged, List<ProofReport.Checkpoint> checkpoints, List<String> live) {
        StreamhouseProof.Config cfg = run.cfg();
        CheckedDdl ddl = cfg.workload().table();
        List<String> details = details(run, produced, injected, tiered, judged.verdict());
        judged.bounds().forEach((name, bound) -> details.add(String.format("%-17s: bound: %s", name, bound)));
        live.forEach(line -> details.add(String.format("live checks      : %s", line)));
        ObjectNode json = json(cfg, ddl, run.table().table(), produced.statements(), run.cluster(),
                tiered.quiesced(), judged.bounds(), judged.verdict());
        run.table().setupFindings().forEach(json.putArray("setup_findings")::add);
        return new ProofReport(json, judged.verdict(), checkpoints, tiered.unfinished(), ddl.sql(), details,
                run.timings()).withTierLag(lag(run.watch().samples())).withFailedReads(judged.failedReads());
    }

    /** The lines for people: how it was written, the faults, where it tiered and how far tiering got. */
    private static List<String> details(ProofRun run, Production.Produced produced, List<String> injected,
            Quiescence.Tiered tiered, Verdict verdict) {
        StreamhouseProof.Config cfg = run.cfg();
        List<String> details = new ArrayList<>();
        details.add(String.format("written by       : %s", cfg.producer() == StreamhouseProof.Producer.CLIENT
                ? "the Fluss client" + (cfg.writers() > 1 ? " (" + cfg.writers() + " writers at once, each its own"
                        + " keys)" : "") + ", " + cfg.workload().operations() + " operations, " + (run.failures().stream()
                        .noneMatch(f -> f.startsWith("rejected write")) ? "every write acknowledged"
                        : "SOME WRITES REJECTED (below)")
                : "Flink SQL, " + produced.statements() + " statements"));
        if (!run.unknown().isEmpty()) {
            details.add(String.format("outcome unknown  : %d write(s) whose acknowledgement the network lost (%s): %s",
                    run.unknown().size(), produced.firstUnknown(), choice(verdict.uncertain())));
        }
        if (!run.rejected().isEmpty()) {
            details.add(String.format("rejected         : %d write(s) the client reported failed: %s", run.rejected().size(),
                    rejectedChoice(verdict.uncertain())));
        }
        if (!cfg.producerOptions().isEmpty()) {
            details.add(String.format("producer options : %s", ProducerOptions.text(
                    new java.util.TreeMap<>(cfg.producerOptions()))));
        }
        if (!injected.isEmpty()) {
            details.add(String.format("faults           : %s", String.join(", ", injected)));
        }
        run.table().setupFindings().forEach(f -> details.add(String.format("setup finding    : %s", f)));
        details.add(String.format("tiered into      : Paimon %s.%s in %s", run.table().db(), run.table().table(),
                cfg.warehouse()));
        if (!cfg.ownTiering()) {
            details.add("tiering job      : the cluster's own tiering service (--tiering cluster)");
        }
        Tiering.Quiesced q = tiered.quiesced();
        details.add(q != null ? String.format("tiering          : %d changes in %d bucket(s), lake snapshot %d,"
                + " caught up in %d ms", q.logEndOffset(), q.buckets(), q.lakeSnapshotId(), q.waitedMillis())
                : "tiering          : " + tiered.unfinished().word() + ": " + tiered.unfinished().evidence());
        return details;
    }

    /** The tier lag over time, for tools and for the plot: at most {@value #MAX_SAMPLES} samples. */
    private static List<TierLag> lag(List<LakeWatch.Sample> samples) {
        List<TierLag> out = new ArrayList<>();
        int step = Math.max(1, (samples.size() + MAX_SAMPLES - 1) / MAX_SAMPLES);
        for (int i = 0; i < samples.size(); i += step) {
            LakeWatch.Sample s = samples.get(i);
            out.add(new TierLag(s.atMillis(), s.logEnd(), s.tiered(), s.lakeSnapshot()));
        }
        return out;
    }

    private static ObjectNode json(StreamhouseProof.Config cfg, CheckedDdl ddl, String table, int statements,
            FlussCluster cluster, Tiering.Quiesced q, Map<String, String> bounds, Verdict verdict) {
        ObjectNode r = Report.newObject();
        r.put("command", "streamhouse");
        r.put("status", "completed");
        r.put("table", cfg.database() + "." + table);
        r.put("ddl", ddl.sql());
        r.put("keyed", ddl.keyed());
        r.put("producer", cfg.producer().name().toLowerCase(java.util.Locale.ROOT));
        r.put("faults", cfg.faults().toString());
        r.put("producer_options", ProducerOptions.text(new java.util.TreeMap<>(cfg.producerOptions())));
        r.put("tiering_checkpoint_ms", cfg.tieringCheckpoints() == null ? 0 : cfg.tieringCheckpoints().toMillis());
        r.put("tiering_job", cfg.ownTiering() ? "tierproof's" : "the cluster's");
        r.put("operations", cfg.workload().operations());
        if (cfg.producer() == StreamhouseProof.Producer.SQL) {
            r.put("statements", statements);
            r.put("rows_per_insert", cfg.rowsPerInsert());
        }
        ObjectNode fluss = r.putObject("fluss");
        fluss.put("bootstrap_servers", cluster.bootstrapServers());
        fluss.put("database", cfg.database());
        fluss.put("table", table);
        if (q != null) {
            fluss.put("log_changes", q.logEndOffset());
            fluss.put("buckets_with_changes", q.buckets());
            fluss.put("lake_snapshot_id", q.lakeSnapshotId());
        }
        ObjectNode paimon = Report.putPaimon(r, cfg.warehouse().warehouse(), cfg.database(), table);
        paimon.put("note", "Fluss's system columns (__bucket, __offset, __timestamp) are left out of the comparison");
        if (q != null) {
            r.put("tiering_wait_ms", q.waitedMillis());
        }
        r.put("consistent", verdict.consistent());
        ObjectNode b = r.putObject("bounds");
        bounds.forEach(b::put);
        return r;
    }

    /** Which of the writes of unknown outcome took effect, as the verdict explains the reads. */
    /** Whether the reads show writes the client reported failed. */
    static String rejectedChoice(Verdict.Uncertain uncertain) {
        if (uncertain == null || uncertain.explainedBy() == null) {
            return "judged as not applied; no choice explains the reads";
        }
        return uncertain.rejectedApplied().isEmpty() ? "none shows in " + uncertain.explainedBy()
                : "operation(s) " + shortList(uncertain.rejectedApplied()) + " TOOK EFFECT nonetheless: "
                        + uncertain.explainedBy() + "'s rows are explained only so";
    }

    static String choice(Verdict.Uncertain uncertain) {
        if (uncertain == null) {
            return "judged as written";
        }
        if (uncertain.explainedBy() == null) {
            return "no choice of which took effect explains the reads; judged as applied";
        }
        // The rejected writes are told of on a line of their own.
        List<Integer> notApplied = uncertain.notApplied().stream().filter(p -> !uncertain.rejected().contains(p))
                .toList();
        int applied = uncertain.operations().size() - uncertain.rejected().size() - notApplied.size();
        return "each may or may not have taken effect; " + uncertain.explainedBy() + "'s rows are explained with "
                + (notApplied.isEmpty() ? "all of them applied"
                        : "operation(s) " + shortList(notApplied) + " not applied"
                                + (applied > 0 ? " and the other " + applied + " applied" : ""));
    }

    private static String shortList(List<Integer> operations) {
        String shown = operations.stream().limit(10).map(String::valueOf).collect(java.util.stream.Collectors.joining(", "));
        return operations.size() > 10 ? shown + " and " + (operations.size() - 10) + " more" : shown;
    }
}
