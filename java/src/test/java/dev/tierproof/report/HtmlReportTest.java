package dev.tierproof.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.report.ProofReport.Checkpoint;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The HTML report of a proof, over verdicts the core judged: the verdict's word first, as the
 * run's summary gives it (CONSISTENT, INCONSISTENT, STALLED), the reads as a table with their
 * bounds, the rows that differ, the checkpoints, the plots; and nothing the page would fetch.
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class HtmlReportTest {
    static final String DDL = "CREATE TABLE orders (id BIGINT, customer STRING, amount DECIMAL(10, 2),"
            + " PRIMARY KEY (id) NOT ENFORCED)";
    /** Order 1 is written twice: the table ends as (1, ada, 12.00), (2, bob, 3.50), (3, cy, 7.25). */
    static final String OPS = "id,customer,amount\n1,ada,10.00\n2,bob,3.50\n1,ada,12.00\n3,cy,7.25\n";
    static final String[][] EXPECTED = {{"1", "ada", "12.00"}, {"2", "bob", "3.50"}, {"3", "cy", "7.25"}};
    static final String STALLED = "bucket 0: lake offset 2 of log end offset 4, unchanged for 30000 ms";

    /** Every read holds the expected state. */
    static ProofReport consistent() {
        return report(EXPECTED, EXPECTED, (Unfinished) null);
    }

    /** The union read lost order 3 and kept order 1's first amount; the lake holds the right rows. */
    static ProofReport inconsistent() {
        return report(EXPECTED, new String[][] {{"1", "ada", "10.00"}, {"2", "bob", "3.50"}}, (Unfinished) null);
    }

    /** Tiering never caught up: the lake holds the first two writes, the union read all of them. */
    static ProofReport stalled() {
        return report(new String[][] {{"1", "ada", "10.00"}, {"2", "bob", "3.50"}}, EXPECTED, STALLED);
    }

    /** Tiering still moving when the wait ran out: the same lake, the verdict LAGGING. */
    static ProofReport lagging() {
        return report(new String[][] {{"1", "ada", "10.00"}, {"2", "bob", "3.50"}}, EXPECTED,
                Unfinished.lagging(LAGGING));
    }

    static final String LAGGING = "3 of the log's 5 changes tiered, 3 of them in this wait's 118 s (0.0 changes/s,"
            + " the last 20 s ago): about 79 s more at that rate; the log holds 5 changes in 1 bucket(s)";

    static ProofReport report(String[][] lake, String[][] union, String stalled) {
        return report(lake, union, stalled == null ? null : Unfinished.stalled(stalled));
    }

    /** A report as the streamhouse proof makes one: its reads judged by the core, bounds, lag and checkpoints. */
    static ProofReport report(String[][] lake, String[][] union, Unfinished unfinished) {
        String stalled = unfinished == null ? null : unfinished.evidence();
        Map<String, String> bounds = new LinkedHashMap<>();
        try (Workload w = Workload.open(Workload.Target.PAIMON, DDL, OPS.getBytes(StandardCharsets.UTF_8));
                Workload.Reads reads = w.reads()) {
            snapshot(reads.open("paimon_batch", Workload.Source.SNAPSHOT), lake);
            bounds.put("paimon_batch", "a batch query ends by itself, then 1000 ms more: nothing");
            if (stalled == null) {
                changelog(reads.open("fluss_changelog", Workload.Source.LOG));
                bounds.put("fluss_changelog", "scan.startup.mode=earliest, stopped at the log end offsets: 5 changes");
            } else {
                bounds.put("fluss_changelog", "not run: tiering did not catch up, so there is no count of the source's"
                        + " own to stop at");
            }
            snapshot(reads.open("fluss_union", Workload.Source.SNAPSHOT), union);
            bounds.put("fluss_union", "a batch union read (lake snapshot + log) ends by itself");
            Verdict verdict = reads.judge();
            return new ProofReport(json(bounds), verdict, checkpoints(verdict, unfinished), unfinished, DDL,
                    details(bounds, unfinished), Map.of("create", 361L, "write", 2176L, "reads", 3012L, "total", 6240L))
                    .withTierLag(lag(stalled != null));
        }
    }

    private static void snapshot(Workload.ReadBuffer read, String[][] rows) {
        for (String[] row : rows) {
            read.add((byte) 0, row);
        }
    }

    /** The log's changes: +I, +I, -U/+U of order 1, +I. */
    private static void changelog(Workload.ReadBuffer read) {
        read.add((byte) 0, new String[] {"1", "ada", "10.00"});
        read.add((byte) 0, new String[] {"2", "bob", "3.50"});
        read.add((byte) 1, new String[] {"1", "ada", "10.00"});
        read.add((byte) 2, new String[] {"1", "ada", "12.00"});
        read.add((byte) 0, new String[] {"3", "cy", "7.25"});
    }

    private static ObjectNode json(Map<String, String> bounds) {
        ObjectNode json = Report.newObject().put("command", "streamhouse").put("table", "fluss.orders");
        ObjectNode b = json.putObject("bounds");
        bounds.forEach(b::put);
        return json;
    }

    private static List<Checkpoint> checkpoints(Verdict verdict, Unfinished unfinished) {
        return List.of(new Checkpoint(Checkpoint.Kind.AFTER_ROUND, "after round 1 (operations 1-2, lake snapshot 1)",
                verdict, unfinished), new Checkpoint(Checkpoint.Kind.CUT, "consistent cut at lake snapshot 2 (seen at"
                        + " 1750 ms; 4 of 4 writes below its offsets b0=4)", verdict, null));
    }

    private static List<String> details(Map<String, String> bounds, Unfinished unfinished) {
        List<String> lines = new ArrayList<>(List.of(
                "written by       : the Fluss client, 4 operations, every write acknowledged",
                "faults           : restart-tablet@3 (812 ms)",
                "tiered into      : Paimon fluss.orders in /tmp/warehouse",
                unfinished == null ? "tiering          : 5 changes in 1 bucket(s), lake snapshot 2, caught up in 1900 ms"
                        : "tiering          : " + unfinished.word() + ": " + unfinished.evidence()));
        bounds.forEach((name, bound) -> lines.add(String.format("%-17s: bound: %s", name, bound)));
        return lines;
    }

    /** The watch's polls every 250 ms: the log grows to 5 changes, the lake follows in snapshots (or stops at 2). */
    static List<TierLag> lag(boolean stalls) {
        List<TierLag> out = new ArrayList<>();
        for (int i = 0; i <= 24; i++) {
            long logEnd = Math.min(5, i / 2);
            long snapshot = stalls ? Math.min(1, i / 6) : Math.min(3, i / 6);
            long tiered = new long[] {0, 2, 4, 5}[(int) Math.max(0, snapshot)];
            out.add(new TierLag(i * 250L, logEnd, Math.min(tiered, logEnd), i < 6 ? -1 : snapshot));
        }
        return out;
    }

    @Test
    void aConsistentRunSaysSoFirstAndListsItsReads() {
        ProofReport r = consistent();
        String html = r.html("DDL (Fluss)");
        assertThat(r.verdictWord()).isEqualTo("CONSISTENT");
        assertThat(html).contains("<header class=\"verdict consistent\">")
                .contains("<h1>CONSISTENT</h1>")
                .contains("every read equals the expected state (" + Html.escape(r.verdict().promise()) + ")");
        assertThat(html.indexOf("<h1>")).isLessThan(html.indexOf("<section"));
        assertThat(html).contains("<th>read</th><th>bounded by</th><th class=\"num\">changes</th>"
                + "<th class=\"num\">rows</th><th>status</th>")
                .contains("<td><code>fluss_changelog</code></td><td>scan.startup.mode=earliest, stopped at the log end"
                        + " offsets: 5 changes</td><td class=\"num\">5</td><td class=\"num\">3</td>")
                .doesNotContain("id=\"why\"").doesNotContain("id=\"differences\"");
    }

    @Test
    void anInconsistentRunLeadsWithItsTriageAndTheRowsThatDiffer() {
        ProofReport r = inconsistent();
        String html = r.html();
        assertThat(html).contains("<header class=\"verdict inconsistent\">").contains("<h1>INCONSISTENT</h1>")
                .contains("Triage: the readers disagree: the expected state is held by paimon_batch, fluss_changelog,"
                        + " not by fluss_union");
        // The union read's differences from the expected state, as the core listed them.
        assertThat(html).contains("<h3><code>fluss_union</code> vs the expected state</h3>")
                .contains("<td><span class=\"badge missing\">missing</span></td><td><span class=\"mono\">3</span></td>")
                .contains("<td><span class=\"badge extra\">extra</span></td><td><span class=\"mono\">1</span></td>"
                        + "<td><span class=\"mono\">ada</span></td><td><span class=\"mono\">10.00</span></td>");
        assertThat(html).contains("<span class=\"badge inconsistent\">INCONSISTENT</span> differs from the expected"
                + " state (missing 2, extra 1)");
        // The text the command line prints, folded away at the end.
        assertThat(html).contains("<details><summary>What the command line printed</summary><pre>DDL:")
                .contains("verdict          : INCONSISTENT");
    }

    @Test
    void aStalledRunSaysStalledNotInconsistent() {
        ProofReport r = stalled();
        String html = r.html("DDL (Fluss)");
        assertThat(r.summary()).contains("verdict          : STALLED: ");
        assertThat(html).contains("<header class=\"verdict stalled\">").contains("<h1>STALLED</h1>")
                .contains("writes had stopped and the lake did not reach the log end offset: " + STALLED)
                .doesNotContain("<h1>INCONSISTENT</h1>").doesNotContain("NOT CONSISTENT");
        // The read that did not run is in the table, with why.
        assertThat(html).contains("<td><code>fluss_changelog</code></td><td>not run: tiering did not catch up")
                .contains("<span class=\"badge not-run\">NOT RUN</span>");
        assertThat(html).contains("<td>after a round</td><td>after round 1 (operations 1-2, lake snapshot 1)</td>"
                + "<td><span class=\"badge stalled\">STALLED</span><span class=\"note\">" + STALLED);
    }

    @Test
    void aLaggingRunSaysLaggingAndIsNoFinding() {
        ProofReport r = lagging();
        String html = r.html("DDL (Fluss)");
        assertThat(r.consistent()).isFalse();
        assertThat(r.lagging()).isTrue();
        assertThat(r.json().path("lagging").asText()).isEqualTo(LAGGING);
        assertThat(r.json().has("stalled")).isFalse();
        assertThat(r.summary()).contains("verdict          : LAGGING: writes had stopped and the lake was still"
                + " catching up when the wait ran out (slow, not stalled): " + LAGGING)
                .doesNotContain("STALLED").doesNotContain("triage");
        assertThat(html).contains("<header class=\"verdict lagging\">").contains("<h1>LAGGING</h1>")
                .doesNotContain("<h1>STALLED</h1>").doesNotContain("<h1>INCONSISTENT</h1>");
        assertThat(html).contains("<span class=\"badge lagging\">LAGGING</span>");
    }

    @Test
    void aProofThatRecordsNoBoundsHasNoBoundColumnAndNoPlots() {
        ProofReport r = ProofReportTest.judged(lake -> lake.add((byte) 0, new String[] {"1", "2"}),
                union -> union.add((byte) 0, new String[] {"1", "2"}));
        String html = r.html();
        assertThat(html).contains("<h1>CONSISTENT</h1>")
                .contains("<th>read</th><th class=\"num\">changes</th><th class=\"num\">rows</th><th>status</th>")
                .contains("<td><code>union</code></td><td class=\"num\">1</td><td class=\"num\">1</td>")
                .doesNotContain("bounded by").doesNotContain("<svg").doesNotContain("id=\"checkpoints\"");
    }

    @Test
    void thePlotsHaveTitledAxesTicksAndTheLakeSnapshots() {
        String html = consistent().html();
        assertThat(html).contains("id=\"tier-lag\"").contains("viewBox=\"0 0 900 320\"")
                .contains(">time since the watch started (s)</text>").contains(">changes</text>")
                .contains(">changes not yet tiered</text>")
                .contains(">6</text>") // the last tick of the time axis: the samples run to 6 s
                .contains("class=\"event\"").contains(">lake snapshot id, when first seen</text>");
    }

    @Test
    void thePageFetchesNothingAndRunsNoScript() {
        for (ProofReport r : List.of(consistent(), inconsistent(), stalled())) {
            String html = r.html().replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
            assertThat(html).doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<link")
                    .doesNotContain("http:").doesNotContain("https:").doesNotContain("url(")
                    .doesNotContain("@import").contains("<style>");
        }
    }

    @Test
    void theJsonReportIsTheSameAsBefore() {
        ProofReport r = consistent();
        r.html();
        assertThat(r.json().fieldNames()).toIterable().containsExactly("command", "table", "bounds", "verdict",
                "timings_ms", "versions", "checkpoints", "tier_lag");
    }
}
