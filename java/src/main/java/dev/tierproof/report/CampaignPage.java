package dev.tierproof.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A search campaign as a page: what it ran and found first, then its trials over time with the
 * findings marked, the findings with their reproducers, and what the trials exercised (so a person
 * sees what was not explored). Self-contained, as every report page.
 */
public final class CampaignPage {
    /** One trial: when it ended (ms into the campaign) and whether it failed. */
    public record Trial(long endedMillis, boolean failed) {}

    /** One distinct finding, as its row says it. */
    public record Finding(int number, String signature, int firstTrial, long firstSeenMillis, int hits,
            String reproducer) {}

    private CampaignPage() {}

    public static String html(String settings, long elapsedMillis, List<Trial> trials, List<Finding> findings,
            Map<String, Integer> coverage) {
        long failing = trials.stream().filter(Trial::failed).count();
        String word = findings.isEmpty() ? "NOTHING FOUND" : findings.size() + " DISTINCT FINDING"
                + (findings.size() == 1 ? "" : "S");
        HtmlPage page = new HtmlPage("tierproof search campaign: " + word);
        page.add("<header class=\"verdict " + (findings.isEmpty() ? "consistent" : "inconsistent") + "\">"
                + Html.text("p", "kicker", "tierproof search campaign") + Html.text("h1", "", word)
                + Html.text("p", "lead", trials.size() + " trials in " + elapsedMillis / 1000 + " s, " + failing
                        + " of them failing; " + settings) + "</header>");
        page.section("trials", "Trials over time", plot(trials, findings));
        page.section("findings", "Findings", findingsTable(findings));
        page.section("coverage", "What the trials exercised", coverageTable(coverage, trials.size()));
        return page.render();
    }

    private static String plot(List<Trial> trials, List<Finding> findings) {
        if (trials.isEmpty()) {
            return "";
        }
        List<double[]> all = new ArrayList<>();
        List<double[]> failed = new ArrayList<>();
        all.add(new double[] {0, 0});
        failed.add(new double[] {0, 0});
        int n = 0;
        int f = 0;
        for (Trial t : trials) {
            n++;
            f += t.failed() ? 1 : 0;
            all.add(new double[] {t.endedMillis() / 60_000.0, n});
            failed.add(new double[] {t.endedMillis() / 60_000.0, f});
        }
        List<SvgPlot.Event> firsts = findings.stream()
                .map(x -> new SvgPlot.Event(x.firstSeenMillis() / 60_000.0, "finding " + x.number())).toList();
        return new SvgPlot("Trials run and trials failing, over the campaign", "time into the campaign (min)",
                "trials").line(new SvgPlot.Line("trials run", "#2b6cb0", false, all))
                .line(new SvgPlot.Line("trials failing", "#c53030", true, failed))
                .events("a finding first seen", firsts).svg();
    }

    private static String findingsTable(List<Finding> findings) {
        HtmlTable table = new HtmlTable("#", "signature", "first trial", "first seen (s)", "hits", "reproducer")
                .numeric(0, 2, 3, 4);
        for (Finding x : findings) {
            table.row(String.valueOf(x.number()), Html.escape(x.signature()), String.valueOf(x.firstTrial()),
                    String.valueOf(x.firstSeenMillis() / 1000), String.valueOf(x.hits()),
                    Html.text("code", "", x.reproducer()));
        }
        return table.isEmpty() ? Html.text("p", "", "No trial failed.") : table.html();
    }

    private static String coverageTable(Map<String, Integer> coverage, int trials) {
        HtmlTable table = new HtmlTable("what", "trials", "share").numeric(1, 2);
        coverage.forEach((what, count) -> table.row(Html.escape(what), String.valueOf(count),
                trials == 0 ? "" : Math.round(100.0 * count / trials) + " %"));
        return table.isEmpty() ? "" : table.html();
    }
}
