package dev.tierproof.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code --name value} options after a command word; anything unknown is refused by name. */
final class Args {
    private final Map<String, String> values = new LinkedHashMap<>();

    private Args() {}

    static Args parse(List<String> words, Set<String> allowed) {
        Args a = new Args();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (!w.startsWith("--") || !allowed.contains(w.substring(2))) {
                throw new IllegalArgumentException("unknown option " + w + "; options: --" + String.join(", --", allowed));
            }
            if (i + 1 >= words.size()) {
                throw new IllegalArgumentException("option " + w + " needs a value");
            }
            a.values.put(w.substring(2), words.get(++i));
        }
        return a;
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    int intValue(String name, int fallback) {
        return (int) longValue(name, fallback, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    long longValue(String name, long fallback, long min, long max) {
        String v = values.get(name);
        if (v == null) {
            return fallback;
        }
        long parsed;
        try {
            parsed = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " " + v + " is not a whole number");
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException("--" + name + " " + v + " is outside [" + min + ", " + max + "]");
        }
        return parsed;
    }
}
