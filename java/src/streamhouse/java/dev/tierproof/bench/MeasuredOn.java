package dev.tierproof.bench;

import dev.tierproof.core.Versions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/** When and on what a figure was measured: the date, the processor, cores, memory, the versions. */
public record MeasuredOn(String when, String cpu, int cores, long memoryMiB, String javaVersion, String versions) {
    public static MeasuredOn here() {
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory
                .getOperatingSystemMXBean()).getTotalMemorySize() >> 20;
        return new MeasuredOn(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME.withLocale(Locale.ROOT)),
                cpuModel().orElse(System.getProperty("os.arch")), Runtime.getRuntime().availableProcessors(), memory,
                System.getProperty("java.version"), Versions.all().toString());
    }

    /** The processor's model name as Linux reports it, where it does. */
    static Optional<String> cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst();
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /** A short list for a page. */
    public String markdown() {
        return "- measured: " + when + "\n- machine: " + cores + " cores (" + cpu + "), " + memoryMiB + " MiB of memory\n"
                + "- Java " + javaVersion + "; " + versions + "\n";
    }
}
