package dev.tierproof.flink;

import dev.tierproof.core.TierproofException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The connectors a job of tierproof's needs on a Flink cluster, as the jars this JVM loaded them
 * from: Paimon's Flink connector and its S3 file system, Fluss's Flink connector (with the
 * tiering job) and its Paimon lake plugin. A session cluster that lacks them gets them with each
 * job ({@code pipeline.jars}).
 */
public final class Connectors {
    /** A class of each jar, by the jar's role. */
    private static final List<String> MARKERS = List.of(
            "org.apache.paimon.flink.FlinkCatalogFactory", // paimon-flink
            "org.apache.paimon.s3.S3Loader", // paimon-s3
            "org.apache.fluss.flink.catalog.FlinkCatalogFactory", // fluss-flink (and the tiering job)
            "org.apache.fluss.lake.paimon.PaimonLakeStorage"); // fluss-lake-paimon

    private Connectors() {}

    /** The jars, as {@code file:} URLs, each once. */
    static List<String> jars() {
        return MARKERS.stream().map(Connectors::jarOf).distinct().map(p -> p.toUri().toString()).toList();
    }

    private static Path jarOf(String className) {
        try {
            Class<?> c = Class.forName(className, false, Connectors.class.getClassLoader());
            Path p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(p) || !p.toString().endsWith(".jar")) {
                throw new TierproofException(className + " was not loaded from a jar (" + p + "): nothing to ship");
            }
            return p;
        } catch (ClassNotFoundException | URISyntaxException | NullPointerException e) {
            throw new TierproofException("could not find the jar of " + className + " to ship to Flink: " + e, e);
        }
    }
}
