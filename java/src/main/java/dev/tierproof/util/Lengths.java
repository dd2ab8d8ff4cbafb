package dev.tierproof.util;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Lengths of time as people write them on a command line: {@code 500ms}, {@code 8s}, {@code 30m}, {@code 2h}. */
public final class Lengths {
    private static final Pattern LENGTH = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private Lengths() {}

    /** The length {@code text} says, or null when it says none. */
    public static Duration parse(String text) {
        Matcher m = LENGTH.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    /** A length as {@link #parse} reads it: whole seconds as {@code 8s}, else milliseconds. */
    public static String text(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
