package dev.tierproof.search;

import dev.tierproof.core.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What tells one finding from another, without its data: which reads disagree and how (rows
 * missing, extra, anomalies), what failed besides (rejected writes, a read that errored), the
 * verdict's word, and the kinds of fault the trial ran under. Two trials with one signature are
 * taken as hits of one finding: it is shrunk and written once.
 */
public final class Signature {
    private Signature() {}

    /** The signature of a failing trial's outcome under its conditions. */
    public static String of(CounterexampleSearch.Outcome outcome, CounterexampleSearch.Conditions conditions) {
        List<String> parts = new ArrayList<>();
        if (outcome.failure() != null) {
            parts.add("FAILED " + failureClass(outcome.failure()));
        } else if (outcome.report() != null) {
            parts.add(outcome.report().verdictWord());
            parts.addAll(reads(outcome.report().verdict()));
            outcome.report().verdict().failures().stream().map(Signature::failureClass).distinct()
                    .forEach(f -> parts.add("failure " + f));
            // A checkpoint between rounds or a cut that broke the promise while the final reads kept it.
            new TreeSet<>(outcome.report().checkpoints().stream().filter(c -> !c.consistent())
                    .map(c -> "checkpoint " + c.kind().name().toLowerCase(java.util.Locale.ROOT) + " " + c.word()
                            + reads(c.verdict()).stream().map(r -> " " + r).collect(java.util.stream.Collectors.joining())
                            + c.verdict().failures().stream().map(f -> ", failure " + failureClass(f)).distinct()
                                    .collect(java.util.stream.Collectors.joining()))
                    .toList()).forEach(parts::add);
        }
        TreeSet<String> kinds = new TreeSet<>();
        conditions.faults().forEach(f -> kinds.add(f.kind().text()));
        if (!kinds.isEmpty()) {
            parts.add("under " + String.join("+", kinds));
        }
        return String.join("; ", parts);
    }

    /** Per read that is not consistent: its name and how it differs. */
    private static List<String> reads(Verdict verdict) {
        List<String> out = new ArrayList<>();
        for (Verdict.Read read : verdict.reads()) {
            if (read.consistent()) {
                continue;
            }
            TreeSet<String> how = new TreeSet<>();
            verdict.checks().stream().filter(c -> c.right().equals(read.name()) && !c.equal()).forEach(c -> {
                if (!c.missing().isEmpty()) {
                    how.add("missing");
                }
                if (!c.extra().isEmpty()) {
                    how.add("extra");
                }
                if (c.missing().isEmpty() && c.extra().isEmpty()) {
                    how.add("differs");
                }
            });
            if (!read.anomalies().isEmpty()) {
                how.add("anomalies");
            }
            out.add(read.name() + " " + String.join("+", how));
        }
        return out;
    }

    /**
     * A failure's class: its words without what varies from run to run (numbers, quoted values,
     * names of tables and paths), at most its first 12 words.
     */
    static String failureClass(String failure) {
        String[] words = failure.replaceAll("\"[^\"]*\"|'[^']*'", "X").replaceAll("\\S*[/\\\\]\\S*", "PATH")
                .replaceAll("search_\\d+", "T").replaceAll("\\d+", "N").trim().split("\\s+");
        return String.join(" ", java.util.Arrays.copyOf(words, Math.min(12, words.length)));
    }
}
