package dev.tierproof.proof;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.fluss.Acks;
import dev.tierproof.fluss.LakeWatch;
import dev.tierproof.paimon.LakeMaintenance;
import dev.tierproof.paimon.PaimonSnapshotRead;
import dev.tierproof.report.ProofReport.Checkpoint.Kind;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TableBucket;

/**
 * The proof's consistent cuts: lake snapshots the watch saw while the table was written, each read
 * at exactly that snapshot and judged against exactly the acknowledged writes below its offsets.
 */
final class Cuts {
    /** At most this many lake snapshots are judged as consistent cuts. */
    static final int MAX_CUTS = 8;

    private Cuts() {}

    /**
     * The live checks' verdicts: each readable lake snapshot the watch saw (at most
     * {@value #MAX_CUTS}, spread over the run, the last always) read at exactly that snapshot and
     * judged against exactly the acknowledged writes below its per-bucket offsets. {@code live}
     * gets lines for people: what was seen, what was judged, the largest lag.
     */
    static List<ProofReport.Checkpoint> judge(ProofRun run, Acks acks, List<String> live) {
        LakeWatch watch = run.watch();
        List<LakeWatch.Sample> samples = watch.samples();
        List<LakeWatch.Cut> seen = watch.cuts();
        long maxLag = samples.stream().mapToLong(LakeWatch.Sample::lag).max().orElse(0);
        live.add(samples.size() + " polls every " + StreamhouseProof.WATCH_INTERVAL.toMillis() + " ms, " + seen.size()
                + " readable lake snapshot(s) seen, largest lag " + maxLag + " changes"
                + (watch.logEndDips() > 0 ? ", a log end offset read lower than before " + watch.logEndDips()
                        + " time(s)" : ""));
        if (watch.failedPolls() != null) {
            live.add(watch.failedPolls());
        }
        if (!acks.any()) {
            live.add("no consistent cuts judged: " + (run.cfg().producer() == StreamhouseProof.Producer.SQL
                    ? "SQL writes" : "appends to a log table") + " do not say which bucket offset they landed at");
            return List.of();
        }
        List<LakeWatch.Cut> chosen = chosen(unexpired(run, judgeable(seen, acks, live), live));
        live.add(chosen.size() + " cut(s) judged: each lake snapshot read at exactly that snapshot, against the"
                + " acknowledged writes below its per-bucket offsets" + (run.unknown().isEmpty() ? ""
                        : " and, as may-have-happened, the " + run.unknown().size() + " write(s) of unknown outcome"
                                + " (no offset places them above or below)"));
        List<ProofReport.Checkpoint> out = new ArrayList<>();
        for (LakeWatch.Cut cut : chosen) {
            out.add(read(run, acks, cut));
        }
        return out;
    }

    /**
     * The snapshots that end write batches: tiering may commit one inside a batch, and an
     * acknowledgement gives only its batch's end offset (a line in {@code live} says which were left out).
     */
    private static List<LakeWatch.Cut> judgeable(List<LakeWatch.Cut> seen, Acks acks, List<String> live) {
        List<LakeWatch.Cut> inside = seen.stream().filter(c -> !acks.endsBatches(c.offsets())).toList();
        if (inside.isEmpty()) {
            return seen;
        }
        live.add(inside.size() + " lake snapshot(s) not judged as cuts: tiering committed them inside a write"
                + " batch (" + inside.stream().limit(3).map(c -> "snapshot " + c.snapshotId() + " at "
                        + offsets(c)).collect(java.util.stream.Collectors.joining(", "))
                + (inside.size() > 3 ? ", …" : "") + "), and an acknowledgement gives only its batch's end offset,"
                + " so which of that batch's writes lie below is unknown");
        return seen.stream().filter(c -> !inside.contains(c)).toList();
    }

    /**
     * The snapshots the run's own {@code expire-lake} left (a line in {@code live} says how many it
     * took): what it expired is no longer there to read, and that is the step's doing, not the lake's.
     */
    private static List<LakeWatch.Cut> unexpired(ProofRun run, List<LakeWatch.Cut> seen, List<String> live) {
        if (!run.cfg().expiresLakeHistory() || seen.isEmpty()) {
            return seen;
        }
        Long earliest = LakeMaintenance.earliest(run.cfg().warehouse(), run.table().db(), run.table().table());
        List<LakeWatch.Cut> kept = seen.stream().filter(c -> earliest != null && c.snapshotId() >= earliest).toList();
        if (kept.size() < seen.size()) {
            live.add((seen.size() - kept.size()) + " lake snapshot(s) not judged as cuts: the run's expire-lake"
                    + " expired them (the earliest left is " + earliest + ")");
        }
        return kept;
    }

    /** At most {@value #MAX_CUTS} of the snapshots, spread over the run, the last always. */
    private static List<LakeWatch.Cut> chosen(List<LakeWatch.Cut> seen) {
        List<LakeWatch.Cut> chosen = new ArrayList<>();
        for (int i = 0; i < MAX_CUTS && i < seen.size(); i++) {
            LakeWatch.Cut c = seen.get(seen.size() <= MAX_CUTS ? i
                    : (int) ((long) (seen.size() - 1) * (i + 1) / MAX_CUTS));
            if (!chosen.contains(c)) {
                chosen.add(c);
            }
        }
        return chosen;
    }

    /** One cut: the lake read at exactly its snapshot, judged against the acknowledged writes below its offsets. */
    private static ProofReport.Checkpoint read(ProofRun run, Acks acks, LakeWatch.Cut cut) {
        Steps steps = run.steps();
        StreamhouseProof.Config cfg = run.cfg();
        Workload workload = cfg.workload();
        int[] below = acks.within(cut.offsets());
        // A write of unknown outcome has no offset: it may lie below the snapshot's or not, whichever way it
        // went. Nor has a rejected one: it should lie nowhere, and is judged so unless only it explains the read.
        int[] positions = java.util.stream.IntStream.concat(java.util.Arrays.stream(below),
                java.util.stream.Stream.concat(run.unknown().stream(), run.rejected().stream())
                        .mapToInt(Integer::intValue)).sorted().distinct().toArray();
        int[] uncertain = within(positions, run.unknown());
        int[] rejected = within(positions, run.rejected());
        steps.progress().step("consistent cut: lake snapshot " + cut.snapshotId() + " (" + below.length
                + " writes" + (uncertain.length == 0 ? "" : ", " + uncertain.length + " of unknown outcome")
                + (rejected.length == 0 ? "" : ", " + rejected.length + " rejected") + ")");
        List<String> failed = new ArrayList<>();
        try (Workload sub = workload.subset(positions);
                Workload judged = uncertain.length + rejected.length == 0 ? null : sub.outcomes(uncertain, rejected);
                Workload.Reads reads = (judged != null ? judged : sub).reads()) {
            Workload.ReadBuffer lake = reads.open("lake_snapshot_" + cut.snapshotId(), Workload.Source.SNAPSHOT);
            try {
                PaimonSnapshotRead.read(steps, cfg.warehouse(), run.table().db(), run.table().table(),
                        cut.snapshotId(), lake, workload.columns(), cfg.deadline());
            } catch (TierproofException e) {
                if (steps.endsTheRun(e)) {
                    throw e;
                }
                reads.drop(lake);
                failed.add("lake snapshot " + cut.snapshotId() + ": " + e.getMessage());
            }
            return new ProofReport.Checkpoint(Kind.CUT, "consistent cut at lake snapshot " + cut.snapshotId()
                    + " (seen at " + cut.atMillis() + " ms; " + below.length + " of " + workload.operations()
                    + " writes below its offsets " + offsets(cut) + ")", reads.judge(failed), null);
        }
    }

    /** The indices into {@code positions} (ascending) of those in {@code of}. */
    private static int[] within(int[] positions, List<Integer> of) {
        java.util.Set<Integer> set = new java.util.HashSet<>(of);
        return java.util.stream.IntStream.range(0, positions.length).filter(i -> set.contains(positions[i])).toArray();
    }

    /** A cut's offsets, short: {@code b0=12 b1=7}, with the partition id when there is one. */
    private static String offsets(LakeWatch.Cut cut) {
        StringBuilder sb = new StringBuilder();
        cut.offsets().entrySet().stream()
                .sorted(java.util.Comparator.comparing((Map.Entry<TableBucket, Long> e) ->
                        e.getKey().getPartitionId() == null ? -1 : e.getKey().getPartitionId())
                        .thenComparing(e -> e.getKey().getBucket()))
                .limit(8)
                .forEach(e -> sb.append(sb.length() > 0 ? " " : "")
                        .append(e.getKey().getPartitionId() == null ? "" : "p" + e.getKey().getPartitionId() + "/")
                        .append('b').append(e.getKey().getBucket()).append('=').append(e.getValue()));
        return cut.offsets().size() > 8 ? sb + " …" : sb.toString();
    }
}
