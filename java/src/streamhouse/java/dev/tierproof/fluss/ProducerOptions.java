package dev.tierproof.fluss;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.fluss.config.ConfigOption;

/**
 * The Fluss client writer's own settings ({@code client.writer.*}: batch size, buffer memory,
 * retries, acks, idempotence, in-flight requests…), as a producer is configured. Keys and values
 * are checked against Fluss's own option definitions, so a bad one is refused before anything
 * starts, naming it.
 */
public final class ProducerOptions {
    private static final String PREFIX = "client.writer.";

    /** Every {@code client.writer.*} option Fluss defines, by key. */
    private static final Map<String, ConfigOption<?>> KNOWN =
            FlussOptionDefinitions.matching(key -> key.startsWith(PREFIX));

    /**
     * What the search draws from: each a setting that changes how writes are batched or sent, from
     * the smallest values users set to the largest that keep a batch under the client's 10 mb
     * request size. Acks, idempotence and retries stay at their defaults: with fewer, the client
     * itself promises less (a write acknowledged by the leader alone, reordered or not retried may
     * be lost by design), and a loss it allows would be no finding.
     */
    private static final List<Map.Entry<String, List<String>>> VARIED = List.of(
            Map.entry("client.writer.batch-size", List.of("1kb", "16kb", "8mb")),
            Map.entry("client.writer.batch-timeout", List.of("0ms", "50ms", "1s")),
            Map.entry("client.writer.max-inflight-requests-per-bucket", List.of("1", "5")),
            Map.entry("client.writer.dynamic-batch-size.enabled", List.of("false")),
            // The client wants a buffer of two batches at least: 16mb holds two of the largest drawn.
            Map.entry("client.writer.buffer.memory-size", List.of("16mb", "256mb")),
            Map.entry("client.writer.bucket.no-key-assigner", List.of("round_robin")));

    private ProducerOptions() {}

    /** Parses {@code KEY=VALUE} items; bad input names the item and what is allowed. */
    public static Map<String, String> parse(List<String> items) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String item : items) {
            int eq = item.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("--producer-option " + item + " is not KEY=VALUE");
            }
            options.put(item.substring(0, eq).trim(), item.substring(eq + 1).trim());
        }
        check(options);
        return options;
    }

    /** Refuses a key Fluss's writer does not have, or a value its option cannot take. */
    public static void check(Map<String, String> options) {
        options.forEach((key, value) -> {
            ConfigOption<?> option = KNOWN.get(key);
            if (option == null) {
                throw new IllegalArgumentException("--producer-option " + key + " is not a Fluss client writer option;"
                        + " known: " + String.join(", ", KNOWN.keySet()));
            }
            FlussOptionDefinitions.checkValue("--producer-option", option, value);
        });
    }

    /** A trial's producer settings: each varied setting left at its default or drawn, from {@code seed}. */
    public static Map<String, String> random(long seed) {
        SplittableRandom random = new SplittableRandom(seed * 0x5DEECE66DL + 11);
        Map<String, String> options = new TreeMap<>();
        for (Map.Entry<String, List<String>> v : VARIED) {
            if (random.nextInt(3) == 0) {
                options.put(v.getKey(), v.getValue().get(random.nextInt(v.getValue().size())));
            }
        }
        return options;
    }

    /**
     * How many Fluss clients write a trial at once, from {@code seed}: one in half the trials, else
     * two or three (each its own keys).
     */
    public static int randomWriters(long seed) {
        SplittableRandom random = new SplittableRandom(seed * 0x2545F4914F6CDD1DL + 23);
        return random.nextBoolean() ? 1 : 2 + random.nextInt(2);
    }

    /** As {@code KEY=VALUE,KEY=VALUE}, for a summary or a reproducer; empty for the defaults. */
    public static String text(Map<String, String> options) {
        return String.join(",", options.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }

    /** Reads {@link #text}'s form back (empty: the defaults). */
    public static Map<String, String> fromText(String text) {
        return text == null || text.isBlank() ? Map.of() : parse(List.of(text.split(",")));
    }
}
