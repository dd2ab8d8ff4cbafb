package dev.tierproof.fluss;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.fluss.config.ConfigOption;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;

/**
 * Fluss's own option definitions ({@link ConfigOptions}), read by reflection: a setting a user
 * gives tierproof is checked against the version on the class path, never against a list of ours.
 */
public final class FlussOptionDefinitions {
    private FlussOptionDefinitions() {}

    /** Every option Fluss defines whose key {@code keys} accepts, by key. */
    public static Map<String, ConfigOption<?>> matching(Predicate<String> keys) {
        Map<String, ConfigOption<?>> known = new TreeMap<>();
        fields(keys).forEach((key, f) -> known.put(key, option(f)));
        return known;
    }

    /**
     * The fields of {@link ConfigOptions} that define them, by key: their generic type says what
     * kind of value each option takes.
     */
    public static Map<String, Field> fields(Predicate<String> keys) {
        Map<String, Field> known = new TreeMap<>();
        for (Field f : ConfigOptions.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && ConfigOption.class.isAssignableFrom(f.getType())) {
                String key = option(f).key();
                if (keys.test(key)) {
                    known.put(key, f);
                }
            }
        }
        return known;
    }

    /** The option a field of {@link ConfigOptions} holds. */
    public static ConfigOption<?> option(Field f) {
        try {
            return (ConfigOption<?>) f.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Refuses a value {@code option} cannot take, as Fluss itself would read it, naming {@code flag}. */
    public static void checkValue(String flag, ConfigOption<?> option, String value) {
        Configuration conf = new Configuration();
        conf.setString(option.key(), value);
        try {
            conf.get(option);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(flag + " " + option.key() + "=" + value + ": " + e.getMessage(), e);
        }
    }
}
