package dev.tierproof.core.verdict;

import java.util.List;

/** What the actual side lacks ({@code missing}) and holds beyond the expected side ({@code extra}). */
public record Diff(List<Counted> missing, List<Counted> extra) {
    public static final Diff NONE = new Diff(List.of(), List.of());

    public Diff {
        missing = List.copyOf(missing);
        extra = List.copyOf(extra);
    }
}
