package dev.tierproof.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import picocli.CommandLine.Command;

/**
 * The parts this build has, and the commands each part beyond the core adds, from
 * {@code tierproof-parts.properties} (the one list, which ./build.sh reads too).
 */
final class Parts {
    private static final String FILE = "tierproof-parts.properties";
    private static final String COMMANDS = ".commands";

    private Parts() {}

    /** Each part beyond the core, with its commands by name. */
    static Map<String, List<String>> declared() {
        Properties p = new Properties();
        try (InputStream in = Parts.class.getClassLoader().getResourceAsStream(FILE)) {
            if (in == null) {
                throw new IllegalStateException(FILE + " is missing from the jar");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, List<String>> parts = new LinkedHashMap<>();
        p.stringPropertyNames().stream().filter(key -> key.endsWith(COMMANDS)).sorted().forEach(key ->
                parts.put(key.substring(0, key.length() - COMMANDS.length()),
                        Arrays.asList(p.getProperty(key).trim().split("\\s+"))));
        return parts;
    }

    /** The commands of the parts this build has, by name. */
    static Map<String, Class<?>> loaded() {
        Map<String, Class<?>> commands = new LinkedHashMap<>();
        for (CommandPart part : ServiceLoader.load(CommandPart.class, Parts.class.getClassLoader())) {
            for (Class<?> c : part.commands()) {
                commands.put(c.getAnnotation(Command.class).name(), c);
            }
        }
        return commands;
    }
}
