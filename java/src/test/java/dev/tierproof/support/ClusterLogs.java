package dev.tierproof.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * The servers' logs of a cluster a test started with {@code cluster up}, kept in
 * {@code target/cluster-logs/NAME/} before {@code cluster down} removes its directory: a failure
 * on a multi-process cluster is judged against the servers' own logs, not guessed at.
 */
public final class ClusterLogs {
    private ClusterLogs() {}

    /** Copies {@code clusterDir/logs/*.log} to {@code target/cluster-logs/name/}; nothing when there are none. */
    public static void keep(Path clusterDir, String name) {
        Path logs = clusterDir.resolve("logs");
        if (!Files.isDirectory(logs)) {
            return;
        }
        Path kept = Path.of("target", "cluster-logs", name);
        try (Stream<Path> files = Files.list(logs)) {
            Files.createDirectories(kept);
            for (Path log : files.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                Files.copy(log, kept.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the cluster's logs in " + kept, e);
        }
    }
}
