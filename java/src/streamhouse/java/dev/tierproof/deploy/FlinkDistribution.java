package dev.tierproof.deploy;

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

    /** The jars a user's HADOOP_CLASSPATH gives Flink, by name, from this JVM's class path. */
    private static final java.util.regex.Pattern HADOOP = java.util.regex.Pattern.compile(
            "(hadoop-client-(api|runtime)|gcs-connector|commons-logging)-[^/]*\\.jar");

    /** Hadoop's jars of this JVM's class path; refused if there are none (Paimon's writers need them). */
    static String hadoopJars() {
        String jars = Arrays.stream(dev.tierproof.util.ChildJvm.classPath().split(File.pathSeparator))
                .filter(e -> HADOOP.matcher(Path.of(e).getFileName().toString()).matches())
                .collect(Collectors.joining(File.pathSeparator));
        if (jars.isEmpty()) {
            throw new dev.tierproof.core.TierproofException("no Hadoop jar on tierproof's class path to give the"
                    + " Flink session cluster as HADOOP_CLASSPATH (hadoop-client-api, hadoop-client-runtime)");
        }
        return jars;
    }

    /**
     * Writes a part's class path into its configuration directory {@code conf}: the directory
     * itself first (Flink's log4j settings, as its {@code conf/} holds them), Flink's jars, Hadoop.
     */
    static void configure(Path conf) throws IOException {
        try (InputStream logging = FlinkDistribution.class.getResourceAsStream("/log4j2.properties")) {
            if (logging == null) {
                throw new IOException("tierproof's log4j2.properties is not on its class path");
            }
            Files.copy(logging, conf.resolve("log4j2.properties"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Files.writeString(conf.resolve(ProcessCluster.CLASS_PATH), String.join(File.pathSeparator, conf.toString(),
                flinkJars(), hadoopJars()));
    }
}
