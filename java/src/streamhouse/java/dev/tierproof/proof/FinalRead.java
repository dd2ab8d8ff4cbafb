package dev.tierproof.proof;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The reads of a streamhouse proof once tiering has quiesced, in the order the verdict judges them
 * (the first that ran is every other's reference), by the names reports and {@code --reads} use.
 */
public enum FinalRead {
    PAIMON_BATCH("paimon_batch", "the lake table, as a Flink batch query"),
    PAIMON_STREAMING("paimon_streaming", "the lake's changelog, as Flink's streaming read from snapshot 1"),
    PAIMON_REPLAY("paimon_replay", "the lake's changelog, as Paimon's own stream scan (no Flink)"),
    FLUSS_CHANGELOG("fluss_changelog", "Fluss's log from the earliest offset"),
    FLUSS_FULL("fluss_full", "Fluss's streaming read with startup mode full (stops at paimon_batch's row count)"),
    FLUSS_UNION("fluss_union", "Fluss's batch union read: the lake snapshot and the log after it"),
    VIEWS("views", "COUNT(*), key filters and a projection, of the lake and of the union read");

    private final String id;
    private final String text;

    FinalRead(String id, String text) {
        this.id = id;
        this.text = text;
    }

    /** Its name in reports and on the command line. */
    public String id() {
        return id;
    }

    /** What it reads, in words. */
    public String text() {
        return text;
    }

    /** The reads of the whole table (not the views), by name, in judging order. */
    public static List<String> tableReads() {
        return Arrays.stream(values()).filter(r -> r != VIEWS).map(FinalRead::id).toList();
    }

    /** The reads named, or an error naming the one that is none and listing them all. */
    public static Set<FinalRead> parse(List<String> names) {
        Set<FinalRead> out = EnumSet.noneOf(FinalRead.class);
        for (String name : names) {
            out.add(Arrays.stream(values()).filter(r -> r.id.equals(name.trim())).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("--reads: " + name + " is not a read; the reads are "
                            + Arrays.stream(values()).map(FinalRead::id).collect(Collectors.joining(", ")))));
        }
        return out;
    }

    /** The reads {@code --reads} names (all when it is not given), checked: an error names what is wrong. */
    public static Set<FinalRead> given(List<String> names) {
        Set<FinalRead> reads = names == null ? EnumSet.allOf(FinalRead.class) : parse(names);
        refusal(reads).ifPresent(refusal -> {
            throw new IllegalArgumentException(refusal);
        });
        return reads;
    }

    /** Why a proof cannot run just these reads, if it cannot. */
    public static Optional<String> refusal(Set<FinalRead> reads) {
        if (reads.isEmpty() || reads.equals(EnumSet.of(VIEWS))) {
            return Optional.of("--reads names no read of the whole table: the verdict needs one");
        }
        if (reads.contains(FLUSS_FULL) && !reads.contains(PAIMON_BATCH)) {
            return Optional.of("--reads fluss_full needs paimon_batch: it stops after the lake's row count");
        }
        if (reads.contains(VIEWS) && !reads.contains(FLUSS_UNION)) {
            return Optional.of("--reads views needs fluss_union: the union read's views run once it has ended");
        }
        return Optional.empty();
    }
}
