package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The state file `cluster up` leaves in its directory ({@link ProcessCluster#STATE}): the parts it
 * started, their pids and endpoints, written whole or not at all; read by status, down and restarts.
 */
final class StateFile {
    private StateFile() {}

    static void write(ProcessCluster.State state) throws IOException {
        Properties p = new Properties();
        p.setProperty("zookeeper", state.zookeeper());
        p.setProperty("fluss", state.fluss());
        p.setProperty("flink", state.flink());
        p.setProperty("warehouse", state.warehouse());
        p.setProperty("flink.connectors", state.flinkHasConnectors() ? "lib" : "shipped");
        p.setProperty("parts", String.join(",", state.parts().keySet()));
        state.parts().forEach((name, part) -> {
            p.setProperty(name + ".pid", String.valueOf(part.pid()));
            p.setProperty(name + ".main", part.mainClass());
            p.setProperty(name + ".endpoint", part.endpoint());
            p.setProperty(name + ".marker", part.marker());
        });
        // Whole or not at all: a reader never sees half a state file.
        Path next = state.dir().resolve(ProcessCluster.STATE + ".next");
        try (OutputStream out = Files.newOutputStream(next)) {
            p.store(out, "tierproof cluster: written by ./build.sh cluster up, read by status and down");
        }
        Files.move(next, state.dir().resolve(ProcessCluster.STATE), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    static String required(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("it has no " + key);
        }
        return v;
    }

    /** The lake's store's parts, in the order {@code up} starts them: SeaweedFS, fake-gcs-server, HDFS's NameNode and DataNode. */
    static final java.util.List<String> STORE_PARTS = java.util.List.of("s3", "gcs", Hdfs.NAMENODE_PART,
            Hdfs.DATANODE_PART);

    /** The lake's store, ZooKeeper, the coordinator, the tablet servers by id, then Flink: the order {@code down} reverses. */
    static Map<String, ProcessCluster.State.Part> ordered(Map<String, ProcessCluster.State.Part> parts) {
        Map<String, ProcessCluster.State.Part> out = new LinkedHashMap<>();
        java.util.stream.Stream.of(STORE_PARTS.stream(), java.util.stream.Stream.of("zookeeper", "coordinator"),
                parts.keySet().stream().filter(n -> n.startsWith("tablet-")).sorted(),
                java.util.stream.Stream.of("jobmanager", "taskmanager")).flatMap(x -> x)
                .filter(parts::containsKey).forEach(n -> out.put(n, parts.get(n)));
        return out;
    }

    /** The parts started so far, so that {@code down} can stop a start that was cut short. */
    static void recordSoFar(Path dir, String zookeeper, String warehouse, boolean flinkConnectors,
            Map<String, ProcessCluster.State.Part> parts) {
        try {
            ProcessCluster.State.Part coordinator = parts.get("coordinator");
            ProcessCluster.State.Part jobmanager = parts.get("jobmanager");
            write(new ProcessCluster.State(dir, zookeeper, coordinator != null ? coordinator.endpoint() : "none (not started)",
                    jobmanager != null ? jobmanager.endpoint() : ProcessCluster.NONE, warehouse, flinkConnectors, ordered(parts)));
        } catch (IOException e) {
            throw new TierproofException("could not write " + dir.resolve(ProcessCluster.STATE) + ": " + e.getMessage(), e);
        }
    }
}
