package dev.tierproof.fluss;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A tablet server saying in its own log that it cut a bucket's log below the high watermark it had
 * been given: the changes between are committed, so acknowledged to every writer that asked for all
 * replicas, and now gone (docs/findings/fluss-0.9-killed-tablet-server-restart.md). Later writes may
 * hide the loss from every read; the server's word does not depend on that. Read only where the
 * servers' logs are in sight ({@code cluster up}'s); a log that cannot be read says nothing.
 */
public final class CommittedTruncation {
    static final String DOC = "docs/findings/fluss-0.9-killed-tablet-server-restart.md";
    private static final String MARK = "below high watermark";
    private static final Pattern LINE = Pattern.compile(
            "Truncating (TableBucket\\{tableId=(\\d+),[^}]*}) to offset (\\d+) below high watermark (\\d+)");

    private CommittedTruncation() {}

    /**
     * Each cut of table {@code tableId}'s buckets below their high watermark the servers' logs tell
     * of, once per bucket and range, with the servers that made it: a failure each.
     */
    public static List<String> of(List<Path> serverLogs, long tableId) {
        Map<String, List<String>> servers = new LinkedHashMap<>();
        for (Path log : serverLogs) {
            String server = log.getFileName().toString().replaceFirst("\\.log$", "");
            for (String line : lines(log)) {
                Matcher m = LINE.matcher(line);
                if (m.find() && Long.parseLong(m.group(2)) == tableId) {
                    String cut = m.group(1) + " to offset " + m.group(3) + " below its high watermark " + m.group(4);
                    servers.computeIfAbsent(cut, k -> new ArrayList<>()).add(server);
                }
            }
        }
        List<String> out = new ArrayList<>();
        servers.forEach((cut, by) -> out.add("committed changes lost: the log of " + String.join(" and ", by)
                + " says it cut " + cut + " (Fluss 0.9.1's truncation of a restarted server: " + DOC + ")"));
        return out;
    }

    private static List<String> lines(Path log) {
        try (Stream<String> lines = Files.lines(log, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> l.contains(MARK)).toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }
}
