package dev.tierproof.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.verdict.Verdict;
import java.util.List;
import java.util.Map;

/** The outcome of a proof of a table of any shape: the verdict, typed, and the JSON report. */
public final class ProofReport extends Report {
    /**
     * A verdict taken while the proof ran: what the reads held then, judged by the core against
     * the writes that were in by then.
     */
    public record Checkpoint(Kind kind, String label, Verdict verdict, Unfinished unfinished) {
        /** When and how a checkpoint was taken. */
        public enum Kind {
            /** Between rounds, once tiering had caught up: the lake's batch read and the union read. */
            AFTER_ROUND,
            /** Between rounds, before tiering caught up: the union read (lake snapshot + log tail). */
            LIVE_UNION,
            /** A lake snapshot seen while tiering ran, read at exactly that snapshot. */
            CUT
        }

        public boolean consistent() {
            return unfinished == null && verdict.consistent();
        }

        /** STALLED, LAGGING, CONSISTENT or INCONSISTENT: the word the summary gives this checkpoint. */
        public String word() {
            return ProofReport.word(unfinished, consistent());
        }

        /** What backs the word: where tiering stood, the rows a consistent one held, else nothing. */
        public String detail() {
            return unfinished != null ? unfinished.evidence() : verdict.consistent() ? verdict.expectedRowCount()
                    + " rows" : "";
        }

        /** The word and what backs it, as the summary says them: {@code CONSISTENT (3 rows)}. */
        public String status() {
            return detail().isEmpty() ? word() : unfinished != null ? word() + ": " + detail()
                    : word() + " (" + detail() + ")";
        }
    }

    private final Verdict verdict;
    private final List<Checkpoint> checkpoints;
    private final Unfinished unfinished;
    private List<TierLag> tierLag = List.of();
    private java.util.Set<String> failedReads = java.util.Set.of();
    private Availability availability;
    private List<FaultBand> faultBands = List.of();

    /**
     * @param json the report for tools, without the verdict, timings and versions (added here)
     * @param details lines printed before the summary (where the table went, how reads were
     *     bounded, what was not judged and why)
     */
    public ProofReport(ObjectNode json, Verdict verdict, String ddl, List<String> details,
            Map<String, Long> timings) {
        this(json, verdict, List.of(), null, ddl, details, timings);
    }

    /**
     * With checkpoints between rounds, consistent only when each of them is too; and, when the
     * lake never caught up with the log, how far it got ({@code unfinished}, else null): the
     * verdict is then STALLED or LAGGING.
     */
    public ProofReport(ObjectNode json, Verdict verdict, List<Checkpoint> checkpoints, Unfinished unfinished,
            String ddl, List<String> details, Map<String, Long> timings) {
        super(json, verdict, ddl, details, timings);
        this.verdict = verdict;
        this.checkpoints = List.copyOf(checkpoints);
        this.unfinished = unfinished;
        if (unfinished != null) {
            json.put(unfinished.key(), unfinished.evidence());
        }
        if (!checkpoints.isEmpty()) {
            var array = json.putArray("checkpoints");
            checkpoints.forEach(c -> {
                ObjectNode o = array.addObject().put("kind", c.kind().name().toLowerCase(java.util.Locale.ROOT))
                        .put("label", c.label());
                if (c.unfinished() != null) {
                    o.put(c.unfinished().key(), c.unfinished().evidence());
                }
                o.set("verdict", Verdict.JSON.valueToTree(c.verdict()));
            });
        }
    }

    /** Keeps the tier lag over time: in the JSON report ({@code tier_lag}) and as a plot in the HTML one. */
    public ProofReport withTierLag(List<TierLag> samples) {
        tierLag = List.copyOf(samples);
        var array = json().putArray("tier_lag");
        samples.forEach(s -> array.addObject().put("at_ms", s.atMillis()).put("log_end", s.logEnd())
                .put("tiered", s.tiered()).put("lake_snapshot", s.lakeSnapshot()));
        return this;
    }

    /**
     * Keeps whether the table was served again once the faults healed ({@code availability} in the
     * JSON): an unavailable table makes the verdict UNAVAILABLE.
     */
    public ProofReport withAvailability(Availability checked) {
        availability = checked;
        ObjectNode o = json().putObject("availability").put("available", checked.available())
                .put("bound_ms", checked.boundMillis()).put("recovered_ms", checked.recoveredMillis())
                .put("evidence", checked.evidence());
        checked.timeline().forEach(o.putArray("timeline")::add);
        return this;
    }

    /** Keeps when each fault held ({@code fault_bands} in the JSON), drawn over the tier-lag plots. */
    public ProofReport withFaultBands(List<FaultBand> bands) {
        faultBands = List.copyOf(bands);
        var array = json().putArray("fault_bands");
        bands.forEach(b -> array.addObject().put("fault", b.fault()).put("from_ms", b.fromMillis())
                .put("to_ms", b.toMillis()));
        return this;
    }

    /** When each fault held (see {@link #withFaultBands}); none for a run without faults. */
    public List<FaultBand> faultBands() {
        return faultBands;
    }

    /** Whether the table was served again after its faults (see {@link #withAvailability}), or null when not checked. */
    public Availability availability() {
        return availability;
    }

    /**
     * Keeps the names of the reads that failed (errored or never ended): they are not in the
     * verdict's reads, and their messages are among its failures ({@code failed_reads} in the JSON).
     */
    public ProofReport withFailedReads(java.util.Collection<String> names) {
        failedReads = java.util.Set.copyOf(names);
        var array = json().putArray("failed_reads");
        names.forEach(array::add);
        return this;
    }

    /** The reads that failed (see {@link #withFailedReads}). */
    public java.util.Set<String> failedReads() {
        return failedReads;
    }

    /** The tier lag samples (see {@link #withTierLag}); none for a proof that does not tier. */
    public List<TierLag> tierLag() {
        return tierLag;
    }

    @Override
    public String html(String ddlLabel) {
        return new ProofPage(this, ddlLabel).html();
    }

    @Override
    public boolean consistent() {
        return unfinished == null && (availability == null || availability.available()) && verdict.consistent()
                && checkpoints.stream().allMatch(Checkpoint::consistent);
    }

    /** Where tiering stood when the lake never caught up with the log (STALLED or LAGGING), or null. */
    public Unfinished unfinished() {
        return unfinished;
    }

    /** Whether the wait for tiering ran out while it still moved (the verdict is LAGGING: no finding). */
    public boolean lagging() {
        return unfinished != null && unfinished.moving();
    }

    public List<Checkpoint> checkpoints() {
        return checkpoints;
    }

    public Verdict verdict() {
        return verdict;
    }

    /** A few readable lines: the columns, the expected state, each read, any diff, the verdict. */
    @Override
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("columns          : %s%n", Verdict.show(verdict.columns())));
        sb.append(String.format("expected state   : %s%n", verdict.allRows() ? rows(verdict.expectedRows())
                : verdict.expectedRowCount() + " rows (judged partition by partition: counted, not held)"));
        for (Verdict.Read r : verdict.reads()) {
            sb.append(String.format("%-17s: %d changes -> %s%n", r.name(), r.changes(), verdict.allRows()
                    ? rows(verdict.rowsOf(r)) : r.rowCount() + " rows"));
            r.anomalies().forEach(a -> sb.append(String.format("    anomaly at change #%d %s: %s%n", a.index(),
                    a.change(), a.reason())));
            r.notes().forEach(n -> sb.append(String.format("    note: %s%n", n)));
        }
        for (Verdict.Check c : verdict.checks()) {
            if (!c.equal()) {
                sb.append(String.format("%s vs %s differ: missing %s, extra %s%s%n", c.right(), c.left(),
                        sample(c.missing()), sample(c.extra()), c.leftOut() > 0 ? " (and " + c.leftOut()
                                + " more differences, not listed)" : ""));
            }
        }
        verdict.failures().forEach(w -> sb.append(String.format("failure          : %s%n", w)));
        for (Checkpoint c : checkpoints) {
            sb.append(String.format("checkpoint       : %s: %s%n", c.label(), c.status()));
            for (Verdict.Read r : c.verdict().reads()) {
                if (!r.consistent()) {
                    sb.append(String.format("    %s: %s%n", r.name(), r.reason()));
                }
            }
            c.verdict().failures().forEach(w -> sb.append(String.format("    failure: %s%n", w)));
        }
        if (availability != null) {
            sb.append(String.format("availability     : %s%n", availability.line()));
        }
        if (unfinished == null && !verdict.consistent()) {
            sb.append(String.format("triage           : %s%n", triage()));
        }
        String reason = verdictReason();
        sb.append("verdict          : ").append(verdictWord()).append(reason.isEmpty() ? "" : ": " + reason)
                .append('\n');
        return sb.toString();
    }

    /**
     * The run's verdict in the word its summary ends with: when the lake never caught up with the
     * log, UNAVAILABLE if the table was not served again after its faults, else STALLED or LAGGING;
     * otherwise INCONSISTENT when a read broke the promise, UNAVAILABLE when the table was not served
     * again, else CONSISTENT.
     */
    public String verdictWord() {
        if (unfinished != null) {
            return unavailable() ? "UNAVAILABLE" : unfinished.word();
        }
        boolean reads = verdict.consistent() && checkpoints.stream().allMatch(Checkpoint::consistent);
        // Reads that broke the promise outrank availability: a lost write is not to hide behind a missing replica.
        return !reads ? "INCONSISTENT" : unavailable() ? "UNAVAILABLE" : "CONSISTENT";
    }

    private boolean unavailable() {
        return availability != null && !availability.available();
    }

    /** The one rule for a verdict's word, the run's and each checkpoint's: tiering outranks the reads. */
    private static String word(Unfinished unfinished, boolean consistent) {
        return unfinished != null ? unfinished.word() : consistent ? "CONSISTENT" : "INCONSISTENT";
    }

    /** What the summary says after the verdict's word: empty for INCONSISTENT (the lines above say why). */
    public String verdictReason() {
        if (unavailable() && (unfinished != null || verdictWord().equals("UNAVAILABLE"))) {
            return availability.evidence();
        }
        if (unfinished != null) {
            return unfinished.reason();
        }
        return consistent() ? "every read equals the expected state (" + verdict.promise() + ")" : "";
    }

    /**
     * Whom an inconsistent verdict points at, from the readers themselves: when some read holds
     * the expected state and another does not, the readers disagree about one table — a finding
     * in the reader that differs (Fluss's or Paimon's), since an independent reader agrees with
     * tierproof's expected state; when every read differs, tierproof's expected state (or what it
     * wrote) is the first suspect. The core judged each read; this only counts.
     */
    public String triage() {
        List<String> agree = verdict.reads().stream().filter(Verdict.Read::consistent).map(Verdict.Read::name)
                .toList();
        List<String> differ = verdict.reads().stream().filter(r -> !r.consistent()).map(Verdict.Read::name)
                .toList();
        String failed = failedReads.isEmpty() ? "" : "; failed: " + String.join(", ",
                new java.util.TreeSet<>(failedReads));
        if (differ.isEmpty()) {
            return failedReads.isEmpty() ? "every read holds the expected state: the failure is elsewhere (the"
                    + " failures above)" : "every read that ended holds the expected state" + failed
                    + ": a finding in the reader(s) that failed";
        }
        if (agree.isEmpty()) {
            return "no read holds the expected state (" + String.join(", ", differ) + failed + "): check tierproof's"
                    + " expected state and writes first; a finding in tierproof until a reader agrees with it";
        }
        return "the readers disagree: the expected state is held by " + String.join(", ", agree) + ", not by "
                + String.join(", ", differ) + failed + ": a finding in the reader(s) that differ";
    }

    private static String rows(List<List<String>> rows) {
        StringBuilder sb = new StringBuilder().append(rows.size()).append(" rows");
        for (int i = 0; i < rows.size() && i < 6; i++) {
            sb.append(' ').append(Verdict.show(rows.get(i)));
        }
        return rows.size() > 6 ? sb.append(" ...").toString() : sb.toString();
    }

    private static String sample(List<List<String>> rows) {
        if (rows.isEmpty()) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows.size() && i < 8; i++) {
            sb.append(i > 0 ? ", " : "").append(Verdict.show(rows.get(i)));
        }
        return rows.size() > 8 ? sb.append(", ... (").append(rows.size()).append(" rows in all)").toString()
                : sb.toString();
    }
}
