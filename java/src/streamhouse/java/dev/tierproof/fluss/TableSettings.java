package dev.tierproof.fluss;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Predicate;
import dev.tierproof.core.Workload;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.options.Options;

/**
 * The table options a search draws from, read from Fluss's own option definitions (its
 * {@code table.*} options) and Paimon's ({@link CoreOptions}, passed through Fluss as
 * {@code paimon.*} to the lake table), so the catalogue is the versions' own, never a list of ours.
 * Values by type, other than the default: each setting of an enum, the other side of a boolean,
 * small and large numbers (1 and 1000), sizes (1 kb and 64 mb) and durations (1 s and 1 h); each
 * checked by the engine's own parser. Left out, by key and with the
 * reason: what the table's spec sets itself, what changes a table's meaning in ways the core does
 * not model, and what makes the proof's reads impossible by design (retention, expiry); and what
 * the core refuses (an option naming a location outside the warehouse).
 */
public final class TableSettings {
    /** One option a trial may set, and the values it draws from. */
    public record Choice(String key, List<String> values) {}

    /** Fluss table options left out, each prefix with why. */
    static final Map<String, String> FLUSS_LEFT_OUT = Map.of(
            "table.replication.factor", "the table's shape (the search sets the replicas)",
            "table.datalake.", "the table is tiered by construction; a freshness of hours makes every trial wait"
                    + " out its deadline",
            "table.merge-engine", "the spec's engine, which the core models",
            "table.delete.behavior", "changes what a delete does, which the core does not model",
            "table.changelog.image", "changes what the changelog read holds, which the core does not model",
            "table.auto-partition.", "a table's life (issue 26 section 3), not a setting",
            "table.log.ttl", "expiry deletes data by design");

    /** Paimon options left out (keys without the {@code paimon.} prefix), each prefix with why. */
    static final Map<String, String> PAIMON_LEFT_OUT = Map.ofEntries(
            Map.entry("bucket", "the table's shape, which Fluss sets"),
            Map.entry("primary-key", "the table's shape, which Fluss sets"),
            Map.entry("partition", "the table's shape, which Fluss sets; partition expiry deletes by design"),
            Map.entry("merge-engine", "the spec's engine, which the core models"),
            Map.entry("changelog-producer", "the lake's changelog is Fluss's to choose"),
            Map.entry("sequence.", "orders merges in ways the core does not model"),
            Map.entry("partial-update.", "merge behaviour the core does not model"),
            Map.entry("fields.", "per-field merge behaviour the core does not model"),
            Map.entry("aggregation.", "merge behaviour the core does not model"),
            Map.entry("ignore-", "drops changes, which the core does not model"),
            Map.entry("first-row.", "merge behaviour the core does not model"),
            Map.entry("snapshot.", "expiry: the proof replays the lake from its first snapshot"),
            Map.entry("changelog.", "expiry: the proof replays the lake from its first snapshot"),
            Map.entry("tag.", "a table's life (issue 26 section 3), not a setting"),
            Map.entry("consumer", "a reader's setting, not the table's"),
            Map.entry("scan.", "a reader's setting, not the table's"),
            Map.entry("streaming-read", "a reader's setting, not the table's"),
            Map.entry("continuous.", "a reader's setting, not the table's"),
            Map.entry("record-level.", "expiry deletes data by design"),
            Map.entry("write-only", "no compaction ever: a user runs a compaction job beside it"),
            Map.entry("type", "another kind of table than a primary-key table"),
            Map.entry("materialized-table.", "another kind of table than a primary-key table"),
            Map.entry("log.ignore-delete", "drops changes, which the core does not model"),
            Map.entry("incremental-between", "a reader's setting, not the table's"),
            Map.entry("batch-scan-mode", "a reader's setting, not the table's"),
            Map.entry("streaming.", "a reader's setting, not the table's"),
            Map.entry("source.", "a reader's setting, not the table's"),
            Map.entry("query-auth.", "access control, not data"));

    /**
     * Words of keys whose extremes are no setting a user would make but a way to exhaust the
     * machine or wait out a trial's deadline: threads and parallelism (a hundred thousand
     * threads), compression levels (out of every codec's range), retries, waits and timeouts.
     */
    static final List<String> RISKY = List.of("thread", "parallelism", "level", "retry", "wait", "timeout",
            "interval");

    private static final String PAIMON = "paimon.";
    private static List<Choice> choices;

    private TableSettings() {}

    /** Every option a trial may set, by key, with its values. */
    public static synchronized List<Choice> choices() {
        if (choices == null) {
            List<Choice> all = new ArrayList<>();
            FlussOptionDefinitions.fields(key -> key.startsWith("table.")).forEach((key, f) -> {
                var o = FlussOptionDefinitions.option(f);
                add(all, key, f, o.defaultValue(), left(FLUSS_LEFT_OUT, key), v -> flussTakes(o, v));
            });
            for (Field f : CoreOptions.class.getFields()) {
                if (option(f, org.apache.paimon.options.ConfigOption.class)) {
                    var o = (org.apache.paimon.options.ConfigOption<?>) get(f);
                    add(all, PAIMON + o.key(), f, o.defaultValue(), left(PAIMON_LEFT_OUT, o.key()),
                            v -> paimonTakes(o, v));
                }
            }
            all.sort(java.util.Comparator.comparing(Choice::key)); // getFields() promises no order
            choices = List.copyOf(all);
        }
        return choices;
    }

    /** Up to {@code max} options for the trial of {@code seed}, a value each (the same seed, the same ones). */
    public static Map<String, String> random(long seed, int max) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 29);
        List<Choice> all = new ArrayList<>(choices());
        Map<String, String> drawn = new TreeMap<>();
        int count = random.nextInt(max + 1);
        for (int i = 0; i < count && !all.isEmpty(); i++) {
            Choice c = all.remove(random.nextInt(all.size()));
            drawn.put(c.key(), c.values().get(random.nextInt(c.values().size())));
        }
        return drawn;
    }

    /** As the options of a table spec: {@code ; key = value} each, in key order. */
    public static String specText(Map<String, String> options) {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(options).forEach((k, v) -> text.append("; ").append(k).append(" = ").append(v));
        return text.toString();
    }

    private static void add(List<Choice> all, String key, Field f, Object defaultValue, boolean leftOut,
            Predicate<String> takes) {
        if (leftOut || RISKY.stream().anyMatch(key::contains)) {
            return;
        }
        List<String> values = new ArrayList<>();
        for (String v : valuesOf(f, defaultValue)) {
            if (takes.test(v) && coreTakes(key, v)) {
                values.add(v);
            }
        }
        if (!values.isEmpty()) {
            all.add(new Choice(key, List.copyOf(values)));
        }
    }

    /** The values of an option of {@code f}'s type other than its default; none for a type tierproof does not vary. */
    static List<String> valuesOf(Field f, Object defaultValue) {
        Type type = ((ParameterizedType) f.getGenericType()).getActualTypeArguments()[0];
        if (!(type instanceof Class<?> c)) {
            return List.of(); // lists, maps
        }
        List<String> values;
        if (c == Boolean.class) {
            values = List.of("true", "false");
        } else if (c == Integer.class || c == Long.class) {
            values = List.of("1", "1000");
        } else if (c == Duration.class) {
            values = List.of("1s", "1h");
        } else if (c.getSimpleName().equals("MemorySize")) {
            values = List.of("1kb", "64mb");
        } else if (c.isEnum()) {
            values = new ArrayList<>();
            for (Object constant : c.getEnumConstants()) {
                values.add(constant.toString());
            }
        } else {
            return List.of(); // strings, passwords, doubles: no domain to draw from
        }
        String none = defaultValue == null ? null : String.valueOf(defaultValue);
        return values.stream().filter(v -> !v.equalsIgnoreCase(none)).toList();
    }

    /**
     * Whether the core takes a table with this option: it alone decides what is safe (no option
     * that names a location outside the warehouse) and what it models.
     */
    private static boolean coreTakes(String key, String value) {
        try {
            Workload.checkTable(Workload.Target.FLUSS, "CREATE TABLE t (id INT, PRIMARY KEY (id) NOT ENFORCED) WITH"
                    + " ('bucket.num' = '1', 'table.datalake.enabled' = 'true', '" + key + "' = '" + value + "')");
            return true;
        } catch (IllegalArgumentException | dev.tierproof.core.TierproofException e) {
            return false;
        }
    }

    private static boolean flussTakes(org.apache.fluss.config.ConfigOption<?> option, String value) {
        try {
            FlussOptionDefinitions.checkValue("table option", option, value);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean paimonTakes(org.apache.paimon.options.ConfigOption<?> option, String value) {
        try {
            Map<String, String> map = new LinkedHashMap<>();
            map.put(option.key(), value);
            Options.fromMap(map).get(option);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean left(Map<String, String> leftOut, String key) {
        return leftOut.keySet().stream().anyMatch(key::startsWith);
    }

    private static boolean option(Field f, Class<?> type) {
        return Modifier.isStatic(f.getModifiers()) && type.isAssignableFrom(f.getType())
                && f.getGenericType() instanceof ParameterizedType;
    }

    private static Object get(Field f) {
        try {
            return f.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
