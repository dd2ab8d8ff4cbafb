package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.HttpPoll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Flink standalone session cluster `cluster up` starts (a JobManager and a TaskManager, a JVM
 * each): its configuration, every listener on loopback and every file in the cluster's directory.
 */
final class FlinkSession {
    private FlinkSession() {}

    /** Task slots of the session cluster's TaskManager: the tiering job and a proof's reads side by side. */
    static final int FLINK_SLOTS = 8;

    /**
     * The session cluster's configuration: every listener on loopback, every file in the cluster's
     * directory, and the TaskManager's resources given outright (the scripts of a Flink
     * distribution would otherwise work them out).
     */
    static Map<String, String> flinkOptions(Path dir, int restPort) throws IOException {
        Path flink = Files.createDirectories(dir.resolve("flink"));
        Map<String, String> o = new LinkedHashMap<>();
        o.put("jobmanager.rpc.address", ProcessCluster.LOOPBACK);
        o.put("jobmanager.rpc.port", String.valueOf(Ports.free()));
        o.put("jobmanager.bind-host", ProcessCluster.LOOPBACK);
        o.put("rest.address", ProcessCluster.LOOPBACK);
        o.put("rest.bind-address", ProcessCluster.LOOPBACK);
        o.put("rest.port", String.valueOf(restPort));
        o.put("taskmanager.host", ProcessCluster.LOOPBACK);
        o.put("taskmanager.bind-host", ProcessCluster.LOOPBACK);
        o.put("taskmanager.numberOfTaskSlots", String.valueOf(FLINK_SLOTS));
        o.put("taskmanager.cpu.cores", "2");
        o.put("taskmanager.memory.task.heap.size", "192m");
        o.put("taskmanager.memory.task.off-heap.size", "0m");
        o.put("taskmanager.memory.framework.heap.size", "64m");
        o.put("taskmanager.memory.framework.off-heap.size", "64m");
        o.put("taskmanager.memory.network.min", "64m");
        o.put("taskmanager.memory.network.max", "64m");
        o.put("taskmanager.memory.managed.size", "128m");
        o.put("taskmanager.memory.jvm-metaspace.size", "256m");
        o.put("taskmanager.memory.jvm-overhead.min", "64m");
        o.put("taskmanager.memory.jvm-overhead.max", "64m");
        o.put("jobmanager.memory.process.size", "768m");
        o.put("io.tmp.dirs", Files.createDirectories(flink.resolve("io")).toString());
        o.put("blob.storage.directory", Files.createDirectories(flink.resolve("blob")).toString());
        o.put("process.working-dir", Files.createDirectories(flink.resolve("work")).toString());
        o.put("web.tmpdir", Files.createDirectories(flink.resolve("web")).toString());
        o.put("web.upload.dir", Files.createDirectories(flink.resolve("web-upload")).toString());
        o.put("security.delegation.tokens.enabled", "false");
        return o;
    }

    static void flinkConfigDir(Path dir, String name, Map<String, String> options, boolean connectors)
            throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf").resolve(name));
        if (!connectors) {
            FlinkDistribution.configure(conf);
        }
        StringBuilder yaml = new StringBuilder();
        options.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml);
    }

    /** Waits until the JobManager's REST endpoint lists a TaskManager. */
    static void awaitTaskManager(String rest, Duration deadline) throws InterruptedException {
        String last = HttpPoll.until(HttpPoll.to("http://" + rest + "/taskmanagers").build(),
                r -> r.body().contains("\"slotsNumber\""), deadline);
        if (last != null) {
            throw new TierproofException("no Flink TaskManager registered with the JobManager at " + rest + " within "
                    + deadline.toSeconds() + " s (last answer: " + last + ")");
        }
    }
}
