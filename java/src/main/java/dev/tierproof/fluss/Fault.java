package dev.tierproof.fluss;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A fault the streamhouse proof injects while it writes: just before operation {@code at} (1 is
 * the first) is handed to the writer, with the writes before it possibly still in flight.
 *
 * @param kind what fails
 * @param at the operation it comes before
 */
public record Fault(Kind kind, int at) {
    /** What can fail. */
    public enum Kind {
        /** Tablet server 0 stops and starts again with the same id, data and port (its buckets go away meanwhile). */
        RESTART_TABLET("restart-tablet"),
        /** As {@link #RESTART_TABLET}, but the server comes back on a new port (a pod at a new address). */
        MOVE_TABLET("move-tablet"),
        /** The lake tiering job is cancelled and a new one started, as an operator would. */
        RESTART_TIERING("restart-tiering");

        final String text;

        Kind(String text) {
            this.text = text;
        }
    }

    @Override
    public String toString() {
        return kind.text + "@" + at;
    }

    /**
     * Parses a schedule such as {@code restart-tablet@12,restart-tiering@30}; an empty text is no
     * fault. Bad input names the value and what is allowed.
     */
    public static List<Fault> parse(String schedule, int operations) {
        List<Fault> faults = new ArrayList<>();
        if (schedule == null || schedule.isBlank()) {
            return faults;
        }
        for (String item : schedule.split(",")) {
            String[] parts = item.trim().split("@", -1);
            Kind kind = null;
            for (Kind k : Kind.values()) {
                if (k.text.equals(parts[0].toLowerCase(Locale.ROOT))) {
                    kind = k;
                }
            }
            int at;
            try {
                at = parts.length == 2 ? Integer.parseInt(parts[1]) : -1;
            } catch (NumberFormatException e) {
                at = -1;
            }
            if (kind == null || at < 1 || at > operations) {
                throw new IllegalArgumentException("--faults " + item.trim() + " is not KIND@N with KIND one of"
                        + " restart-tablet, move-tablet, restart-tiering and N an operation from 1 to " + operations);
            }
            faults.add(new Fault(kind, at));
        }
        faults.sort(java.util.Comparator.comparingInt(Fault::at));
        return faults;
    }
}
