package dev.tierproof.fluss;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The class path of a Flink session cluster as Flink's distribution comes
 * ({@code cluster up --flink-without-connectors}): Flink's own jars (what {@code lib/} of its
 * binary distribution holds, resolved by build.sh from {@code java/flink/pom.xml}), its
 * configuration directory, and Hadoop as users add it ({@code HADOOP_CLASSPATH}: tierproof's
 * Hadoop client, and Google's GCS connector for a {@code gs://} lake). No Paimon, Fluss or
 * tierproof jar: every job ships those.
 */
final class FlinkDistribution {
    /** The file of Flink's class path build.sh resolves: {@code -Dtierproof.flink.classpath=FILE}. */
    static final String CLASS_PATH_PROPERTY = "tierproof.flink.classpath";

    private FlinkDistribution() {}

    /** Flink's own jars; refused, saying how to get them, when build.sh has not resolved them. */
    static String flinkJars() {
        return ResolvedClassPath.read(CLASS_PATH_PROPERTY, "Flink's distribution jars", "./build.sh cluster up"
                + " --flink-without-connectors resolves them (mvn -f java/flink/pom.xml dependency:build-classpath)");
    }

    /** The Hadoop jars of this JVM's class path: what a user's HADOOP_CLASSPATH gives Flink. */
    static String hadoopJars() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.endsWith(".jar") && (e.contains("/org/apache/hadoop/")
                        || e.contains("/com/google/cloud/bigdataoss/") || e.contains("/commons-logging/")))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * Writes a part's class path into its configuration directory {@code conf}: the directory
     * itself first (Flink's log4j settings, as its {@code conf/} holds them), Flink's jars, Hadoop.
     */
    static void configure(Path conf) throws IOException {
        try (InputStream logging = FlinkDistribution.class.getResourceAsStream("/log4j2.properties")) {
            if (logging != null) {
                Files.copy(logging, conf.resolve("log4j2.properties"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.writeString(conf.resolve(ProcessCluster.CLASS_PATH), String.join(File.pathSeparator, conf.toString(),
                flinkJars(), hadoopJars()));
    }
}
