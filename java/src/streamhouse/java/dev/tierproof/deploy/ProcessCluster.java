package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.run.Progress;
import dev.tierproof.util.Directories;
import dev.tierproof.util.HttpPoll;
import dev.tierproof.util.Processes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * A Fluss cluster as users deploy one, on this machine: a lake store (SeaweedFS as S3, HDFS: a
 * NameNode and a DataNode, or fake-gcs-server as GCS), a ZooKeeper server, a coordinator and
 * tablet servers and a Flink session cluster, each a process of its own, listening on loopback
 * only, tiering into a Paimon warehouse in that store. {@code ./build.sh cluster up} starts it in a
 * directory that then holds everything of it (data, logs, configuration, the state file);
 * {@code down} stops its processes and removes that directory. It never touches a directory it did
 * not make.
 */
public final class ProcessCluster {
    /** The state file {@code up} writes last: a directory without it is not a cluster's. */
    static final String STATE = "cluster.properties";
    static final String LOOPBACK = "127.0.0.1";
    private static final String ZOOKEEPER = "org.apache.zookeeper.server.ZooKeeperServerMain";
    private static final String COORDINATOR = "org.apache.fluss.server.coordinator.CoordinatorServer";
    private static final String TABLET = "org.apache.fluss.server.tablet.TabletServer";
    private static final String JOBMANAGER = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String TASKMANAGER = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    /** Where the cluster's Paimon warehouse is kept. */
    public enum Lake {
        /** An S3 store: SeaweedFS, one process. */
        S3("s3", SeaweedFs.SETTINGS, "SeaweedFS"),
        /** HDFS: a NameNode and a DataNode; no settings file. */
        HDFS("hdfs", null, "HDFS's NameNode"),
        /** Google Cloud Storage: fake-gcs-server, one process, reached through Google's GCS connector. */
        GCS("gs", FakeGcs.SETTINGS, "fake-gcs-server");

        private final String scheme;
        private final String settings;
        /** The part {@code up} starts first (a failed start names it). */
        private final String firstPart;

        Lake(String scheme, String settings, String firstPart) {
            this.scheme = scheme;
            this.settings = settings;
            this.firstPart = firstPart;
        }

        /** The store a cluster's warehouse is in, by its scheme. */
        static Lake of(String warehouse) {
            return java.util.Arrays.stream(values()).filter(l -> warehouse.startsWith(l.scheme + "://")).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("the warehouse " + warehouse
                            + " is in no store cluster up starts"));
        }

        /** Its settings file ({@code --conf}) in the cluster's directory, or null for a store that needs none. */
        Path settingsIn(Path dir) {
            return settings == null ? null : dir.resolve(settings);
        }
    }

    /**
     * A running cluster: its endpoints (the Flink session cluster's REST address, {@code flink},
     * is "none" for a cluster started without one), its warehouse, and its processes (name → pid
     * and main class).
     */
    public record State(Path dir, String zookeeper, String fluss, String flink, String warehouse,
            boolean flinkHasConnectors, Map<String, Part> parts) {
        /** Whether a Flink session cluster runs with it. */
        public boolean hasFlink() {
            return !flink.equals(NONE);
        }

        /** The store its lake is in. */
        public Lake store() {
            return Lake.of(warehouse);
        }

        /** The settings file of its lake's store ({@code --conf}), or null for a lake that needs none (HDFS). */
        public Path conf() {
            return store().settingsIn(dir);
        }

        /** Its lake: where its servers tier into, and how to reach it. */
        public LakeLocation lake() {
            return LakeLocation.parse("the cluster's warehouse", warehouse, conf(), Map.of());
        }

        /** One process of the cluster. */
        public record Part(long pid, String mainClass, String endpoint, String marker) {
            boolean alive() {
                return ours().isPresent();
            }

            /**
             * The process, if it is still there and still runs this part: its main class and its
             * own configuration in the cluster's directory (pids are reused).
             */
            Optional<ProcessHandle> ours() {
                return ProcessHandle.of(pid).filter(Processes::running).filter(h -> {
                    String line = commandLine(h);
                    return line.contains(" " + mainClass + " ") && line.contains(" " + marker + " ");
                });
            }

            /**
             * Its command line: from /proc, since the JDK gives none for one as long as a server's
             * (its class path is long); else what the JDK says.
             */
            private static String commandLine(ProcessHandle h) {
                try {
                    byte[] raw = Files.readAllBytes(Path.of("/proc", String.valueOf(h.pid()), "cmdline"));
                    return new String(raw, java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
                } catch (IOException | RuntimeException e) {
                    return h.info().commandLine().orElse("") + " ";
                }
            }
        }
    }

    static final String NONE = "none";

    private ProcessCluster() {}

    /**
     * Starts ZooKeeper, the coordinator and {@code tablets} tablet servers in {@code dir} (made
     * here; it must not exist or be empty), each within {@code deadline}. A failed start stops
     * what it had started, removes {@code dir}, and names the part, with the end of its log.
     */
    public static State up(Path dir, int tablets, Duration deadline, Progress progress) {
        return up(dir, tablets, true, Lake.S3, Map.of(), deadline, progress);
    }

    /**
     * As above; without {@code flinkConnectors}, the Flink session cluster runs as Flink's
     * distribution comes: no Paimon or Fluss on its class path, so every job ships them. The lake
     * is kept in {@code lake}'s store; {@code serverOptions} go into every Fluss server's
     * server.yaml (checked by {@link ServerOptions} first).
     */
    public static State up(Path dir, int tablets, boolean flinkConnectors, Lake lakeStore,
            Map<String, String> serverOptions, Duration deadline, Progress progress) {
        return up(dir, tablets, flinkConnectors, lakeStore, serverOptions, FaultRoom.NONE, deadline, progress);
    }

    /** As above, with what {@code room} prepares so that faults can strike its servers. */
    public static State up(Path dir, int tablets, boolean flinkConnectors, Lake lakeStore,
            Map<String, String> serverOptions, FaultRoom room, Duration deadline, Progress progress) {
        boolean isolated = room.isolatedNetwork();
        int tabletDiskMiB = room.tabletDiskMiB();
        // What a killed JVM left of earlier clusters, whatever this one asks for.
        Disks.sweep();
        Network.sweep();
        room.check(dir, tablets, lakeStore);
        if (tablets < 1 || tablets > 9) {
            throw new IllegalArgumentException("--tablet-servers " + tablets + " must be between 1 and 9");
        }
        ServerOptions.check(serverOptions);
        if (Files.exists(dir.resolve(STATE))) {
            throw new IllegalArgumentException("a cluster is already up in " + dir + " (./build.sh cluster status);"
                    + " bring it down first");
        }
        if (!flinkConnectors) {
            FlinkDistribution.flinkJars(); // resolved, or refused before anything starts
        }
        boolean made = !Files.exists(dir);
        try {
            if (Files.exists(dir) && (!Files.isDirectory(dir) || !Launcher.isEmpty(dir))) {
                throw new IllegalArgumentException(dir + " exists and is not an empty directory; tierproof starts a"
                        + " cluster only in a directory of its own: choose another --dir");
            }
            Files.createDirectories(dir.resolve("logs"));
            // Its configuration and logs hold the S3 store's key pair: the owner's alone.
            Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new TierproofException("could not make the cluster's directory " + dir + ": " + e.getMessage(), e);
        }
        Map<String, State.Part> parts = new java.util.concurrent.ConcurrentHashMap<>();
        // Interrupted (Ctrl-C) while starting: what was started is stopped and its files removed.
        Thread undo = new Thread(() -> undoUp(dir, made, parts), "tierproof-cluster-up");
        Runtime.getRuntime().addShutdownHook(undo);
        String part = lakeStore.firstPart;
        Network net = null;
        try {
            net = isolated ? Network.create(dir) : null;
            String host = net == null ? LOOPBACK : net.hostAddress();
            // The lake's store first (and so stopped last): the lake every other part reaches.
            String warehouse;
            if (lakeStore == Lake.S3) {
                warehouse = startSeaweedFs(dir, parts, flinkConnectors, host, deadline, progress);
            } else if (lakeStore == Lake.GCS) {
                warehouse = startFakeGcs(dir, parts, flinkConnectors, deadline, progress);
            } else {
                Hdfs.Ports hdfs = new Hdfs.Ports(Ports.free(), Ports.free(), Ports.free(), Ports.free(), Ports.free());
                warehouse = startNameNode(dir, hdfs, parts, flinkConnectors, deadline, progress);
                part = "HDFS's DataNode";
                startDataNode(dir, hdfs, warehouse, parts, flinkConnectors, deadline, progress);
            }
            LakeLocation lake = LakeLocation.parse("the cluster's warehouse", warehouse,
                    lakeStore.settingsIn(dir), Map.of());

            // A Flink standalone session cluster, a JobManager and a TaskManager, a JVM each: they need nothing
            // of Fluss, so the JobManager starts now, beside Fluss's servers, and the TaskManager is awaited last.
            part = "the Flink JobManager";
            int flinkRest = Ports.free();
            Map<String, String> flinkConf = FlinkSession.flinkOptions(dir, flinkRest);
            String flink = startJobManager(dir, flinkConf, flinkRest, warehouse, flinkConnectors, parts, progress);

            part = "ZooKeeper";
            int zkPort = Ports.free();
            String zkHost = net == null ? LOOPBACK : net.add("zookeeper");
            Path zkConf = dir.resolve("zookeeper.cfg");
            Files.writeString(zkConf, String.join("\n", "dataDir=" + Files.createDirectories(dir.resolve("zookeeper")),
                    "clientPort=" + zkPort, "clientPortAddress=" + zkHost, "tickTime=2000",
                    "maxSessionTimeout=60000", "admin.enableServer=false", ""));
            String zookeeper = zkHost + ":" + zkPort;
            progress.step("starting ZooKeeper at " + zookeeper);
            parts.put("zookeeper", Launcher.start(dir, "zookeeper", ZOOKEEPER, zookeeper, argsOf(dir, "zookeeper")));
            Runnable record = () -> StateFile.recordSoFar(dir, zookeeper, warehouse, flinkConnectors, parts);
            record.run();
            Launcher.awaitPort(zkHost, zkPort, deadline, "ZooKeeper");

            Map<String, String> common = new LinkedHashMap<>();
            common.put("zookeeper.address", zookeeper);
            common.put("remote.data.dir", Files.createDirectories(dir.resolve("remote")).toString());
            common.put("netty.server.num-network-threads", "1");
            common.put("netty.server.num-worker-threads", "3");
            common.putAll(serverOptions);
            common.putAll(lake.flussClusterOptions());

            part = "the coordinator server";
            int coordinatorPort = Ports.free();
            String coordinatorHost = net == null ? LOOPBACK : net.add("coordinator");
            String fluss = coordinatorHost + ":" + coordinatorPort;
            progress.step("starting the Fluss coordinator at " + fluss);
            Map<String, String> coordinator = new LinkedHashMap<>(common);
            coordinator.put("bind.listeners", "FLUSS://" + fluss);
            configDir(dir, "coordinator", coordinator);
            parts.put("coordinator", Launcher.start(dir, "coordinator", COORDINATOR, fluss, argsOf(dir, "coordinator")));
            record.run();
            Launcher.awaitPort(coordinatorHost, coordinatorPort, deadline, "the coordinator");

            for (int id = 0; id < tablets; id++) {
                part = "tablet server " + id;
                String at = (net == null ? LOOPBACK : net.add("tablet-" + id)) + ":" + Ports.free();
                progress.step("starting Fluss tablet server " + id + " at " + at);
                Map<String, String> tablet = new LinkedHashMap<>(common);
                tablet.put("bind.listeners", "FLUSS://" + at);
                tablet.put("tablet-server.id", String.valueOf(id));
                if (tabletDiskMiB > 0) {
                    Disks.mount(dir, dir.resolve("tablet-" + id), tabletDiskMiB);
                }
                if (room.ownClocks()) {
                    Clocks.give(dir, "tablet-" + id);
                }
                tablet.put("data.dir", Files.createDirectories(dir.resolve("tablet-" + id)).toString());
                configDir(dir, "tablet-" + id, tablet);
                parts.put("tablet-" + id, Launcher.start(dir, "tablet-" + id, TABLET, at, argsOf(dir, "tablet-" + id)));
                record.run();
            }
            part = "the Flink JobManager";
            Launcher.awaitPort(flinkRest, deadline, "the Flink JobManager's REST endpoint");
            part = "the Flink TaskManager";
            // Started once its JobManager listens: before that, it would back off for seconds.
            startTaskManager(dir, flinkConf, flinkConnectors, parts, record, progress);
            part = "the readiness check";
            FlussCluster.awaitServers(fluss, tablets, deadline);

            part = "the Flink TaskManager";
            FlinkSession.awaitTaskManager(flink, deadline);
            State state = new State(dir, zookeeper, fluss, flink, warehouse, flinkConnectors, StateFile.ordered(parts));
            StateFile.write(state);
            Runtime.getRuntime().removeShutdownHook(undo);
            return state;
        } catch (Throwable e) {
            String log = Launcher.logTail(dir, part);
            try {
                Runtime.getRuntime().removeShutdownHook(undo);
            } catch (IllegalStateException shuttingDown) {
                return null; // the JVM is going down: the hook undoes the start
            }
            undoUp(dir, made, parts);
            if (e instanceof Error err) {
                throw err;
            }
            throw new TierproofException("the cluster failed to start at " + part + ": " + e.getMessage()
                    + (log.isEmpty() ? "" : "\n--- the end of its log ---\n" + log), e);
        }
    }

    /**
     * The Flink JobManager, started and not awaited; returns its REST address. The state file names
     * no ZooKeeper yet: ZooKeeper starts after it.
     */
    private static String startJobManager(Path dir, Map<String, String> flinkConf, int restPort, String warehouse,
            boolean flinkConnectors, Map<String, State.Part> parts, Progress progress) throws IOException {
        String flink = LOOPBACK + ":" + restPort;
        progress.step("starting the Flink JobManager (REST at " + flink + ")");
        FlinkSession.flinkConfigDir(dir, "jobmanager", flinkConf, flinkConnectors);
        parts.put("jobmanager", Launcher.start(dir, "jobmanager", JOBMANAGER, flink, argsOf(dir, "jobmanager")));
        StateFile.recordSoFar(dir, "none (not started)", warehouse, flinkConnectors, parts);
        return flink;
    }

    /** The Flink TaskManager, started and not awaited. */
    private static void startTaskManager(Path dir, Map<String, String> flinkConf, boolean flinkConnectors,
            Map<String, State.Part> parts, Runnable record, Progress progress) throws IOException {
        progress.step("starting the Flink TaskManager (" + FlinkSession.FLINK_SLOTS + " slots)");
        FlinkSession.flinkConfigDir(dir, "taskmanager", flinkConf, flinkConnectors);
        parts.put("taskmanager", Launcher.start(dir, "taskmanager", TASKMANAGER, "slots " + FlinkSession.FLINK_SLOTS,
                argsOf(dir, "taskmanager")));
        record.run();
    }

    /** SeaweedFS: one {@code weed server} process; returns the warehouse. */
    private static String startSeaweedFs(Path dir, Map<String, State.Part> parts, boolean flinkConnectors,
            String host, Duration deadline, Progress progress) throws IOException, InterruptedException {
        SeaweedFs.Ports ports = new SeaweedFs.Ports(Ports.free(), Ports.free(), Ports.free(), Ports.free(), Ports.free(),
                Ports.free(), Ports.free(), Ports.free());
        Path weed = SeaweedFs.binary();
        List<String> weedArgs = SeaweedFs.configure(dir, host, ports);
        Files.write(programArgs(dir, "s3"), weedArgs);
        String s3 = host + ":" + ports.s3();
        progress.step("starting SeaweedFS (S3 at " + s3 + ")");
        parts.put("s3", Launcher.start(dir, "s3", weed.toString(), SeaweedFs.SUBCOMMAND, s3, argsOf(dir, "s3")));
        String warehouse = SeaweedFs.WAREHOUSE;
        StateFile.recordSoFar(dir, "none (not started)", warehouse, flinkConnectors, parts);
        Launcher.awaitPort(host, ports.s3(), deadline, "SeaweedFS's S3 gateway");
        SeaweedFs.createBucket(host + ":" + ports.filer(), deadline);
        return warehouse;
    }

    /** fake-gcs-server: one process, its bucket made at start; returns the warehouse. */
    private static String startFakeGcs(Path dir, Map<String, State.Part> parts, boolean flinkConnectors,
            Duration deadline, Progress progress) throws IOException, InterruptedException {
        int port = Ports.free();
        Path binary = FakeGcs.binary();
        List<String> args = FakeGcs.configure(dir, LOOPBACK, port);
        Files.write(programArgs(dir, "gcs"), args);
        String gcs = LOOPBACK + ":" + port;
        progress.step("starting fake-gcs-server (GCS at " + gcs + ")");
        parts.put("gcs", Launcher.start(dir, "gcs", binary.toString(), FakeGcs.BACKEND, gcs, argsOf(dir, "gcs")));
        StateFile.recordSoFar(dir, "none (not started)", FakeGcs.WAREHOUSE, flinkConnectors, parts);
        Launcher.awaitPort(port, deadline, "fake-gcs-server");
        String last = dev.tierproof.util.HttpPoll.until(dev.tierproof.util.HttpPoll.to("http://" + gcs
                + "/storage/v1/b/" + FakeGcs.BUCKET).build(), r -> r.statusCode() == 200, deadline);
        if (last != null) {
            throw new TierproofException("fake-gcs-server at " + gcs + " did not serve the bucket " + FakeGcs.BUCKET
                    + " within " + deadline.toSeconds() + " s (last answer: " + last + ")");
        }
        return FakeGcs.WAREHOUSE;
    }

    /** HDFS's NameNode: its namespace formatted, then started; returns the warehouse. */
    private static String startNameNode(Path dir, Hdfs.Ports ports, Map<String, State.Part> parts,
            boolean flinkConnectors, Duration deadline, Progress progress) throws IOException, InterruptedException {
        Hdfs.configure(dir, LOOPBACK, ports);
        String warehouse = Hdfs.warehouse(LOOPBACK, ports);
        String nameNode = LOOPBACK + ":" + ports.rpc();
        progress.step("formatting HDFS's namespace and starting its NameNode at " + nameNode);
        // Among the parts while it runs: an interrupted start stops it with the rest.
        String format = Hdfs.NAMENODE_PART + "-format";
        String[] formatArgs = Hdfs.formatArgs(dir);
        Process formatting = Launcher.launch(dir, format, Hdfs.NAMENODE_PART, null, Hdfs.NAMENODE, formatArgs);
        parts.put(format, Launcher.part(formatting, Hdfs.NAMENODE, "format", formatArgs));
        try {
            Launcher.awaitEnd(formatting, format, dir, deadline);
        } finally {
            parts.remove(format);
        }
        parts.put(Hdfs.NAMENODE_PART, Launcher.start(dir, Hdfs.NAMENODE_PART, Hdfs.NAMENODE, nameNode,
                argsOf(dir, Hdfs.NAMENODE_PART)));
        StateFile.recordSoFar(dir, "none (not started)", warehouse, flinkConnectors, parts);
        Launcher.awaitPort(ports.rpc(), deadline, "HDFS's NameNode");
        return warehouse;
    }

    /** HDFS's DataNode, awaited until the NameNode serves writes with it. */
    private static void startDataNode(Path dir, Hdfs.Ports ports, String warehouse, Map<String, State.Part> parts,
            boolean flinkConnectors, Duration deadline, Progress progress) throws IOException, InterruptedException {
        String dataNode = LOOPBACK + ":" + ports.data();
        progress.step("starting HDFS's DataNode at " + dataNode);
        parts.put(Hdfs.DATANODE_PART, Launcher.start(dir, Hdfs.DATANODE_PART, Hdfs.DATANODE, dataNode,
                argsOf(dir, Hdfs.DATANODE_PART)));
        StateFile.recordSoFar(dir, "none (not started)", warehouse, flinkConnectors, parts);
        Hdfs.awaitWritable(dir, deadline, parts.get(Hdfs.DATANODE_PART).pid());
    }

    /** Stops what a failed start started and removes what it made (a directory it was given empty stays, empty). */
    private static void undoUp(Path dir, boolean made, Map<String, State.Part> parts) {
        parts.values().forEach(Launcher::stop);
        Network.removeFor(dir);
        Disks.unmount(dir);
        SeaweedFs.removeSockets(dir);
        if (made) {
            Directories.deleteRecursively(dir);
            return;
        }
        try (var entries = Files.list(dir)) {
            entries.forEach(Directories::deleteRecursively);
        } catch (IOException e) {
            // best effort: the message of the failed start is what matters
        }
    }

    /** The cluster {@code up} left in {@code dir}, if any. */
    public static Optional<State> read(Path dir) {
        Path file = dir.resolve(STATE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new TierproofException("could not read " + file + ": " + e.getMessage(), e);
        }
        try {
            Map<String, State.Part> parts = new LinkedHashMap<>();
            for (String name : p.getProperty("parts", "").split(",")) {
                if (name.isEmpty()) {
                    continue;
                }
                String main = StateFile.required(p, name + ".main");
                if (!List.of(SeaweedFs.SUBCOMMAND, FakeGcs.BACKEND, Hdfs.NAMENODE, Hdfs.DATANODE, ZOOKEEPER,
                        COORDINATOR, TABLET, JOBMANAGER, TASKMANAGER).contains(main)) {
                    throw new IllegalArgumentException(name + ".main is " + main + ", not a server of a cluster");
                }
                parts.put(name, new State.Part(Long.parseLong(StateFile.required(p, name + ".pid")), main,
                        StateFile.required(p, name + ".endpoint"), StateFile.required(p, name + ".marker")));
            }
            return Optional.of(new State(dir, StateFile.required(p, "zookeeper"), StateFile.required(p, "fluss"),
                    p.getProperty("flink", NONE), StateFile.required(p, "warehouse"),
                    !"shipped".equals(p.getProperty("flink.connectors")), parts));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + " is not a state file ./build.sh cluster up wrote: "
                    + e.getMessage(), e);
        }
    }

    /** Each part's name and whether its process still runs. */
    public static Map<String, Boolean> alive(State state) {
        Map<String, Boolean> out = new LinkedHashMap<>();
        state.parts().forEach((name, p) -> out.put(name, p.alive()));
        return out;
    }

    /**
     * Stops the cluster in {@code dir} (see {@link ClusterShutdown}: each part asked to stop, killed
     * if it has not within {@code grace}) and removes the directory; a line per part.
     * A directory without the state file is left alone.
     */
    public static List<String> down(Path dir, Duration grace) {
        State state = read(dir).orElseThrow(() -> new IllegalArgumentException("no cluster is up in " + dir
                + " (no " + STATE + " there); nothing to stop"));
        List<String> lines = ClusterShutdown.stop(state.parts(), grace);
        Network.removeFor(dir).ifPresent(bridge -> lines.add("removed its network (namespaces and bridge " + bridge
                + ")"));
        Disks.unmount(dir).forEach(at -> lines.add("unmounted " + at));
        SeaweedFs.removeSockets(dir);
        Directories.deleteRecursively(dir);
        lines.add("removed " + dir);
        return lines;
    }

    /** A part's arguments: its configuration in the cluster's directory (so a restart is the same server). */
    static String[] argsOf(Path dir, String name) throws IOException {
        if (PROGRAM_ARGS.containsKey(name)) {
            return Files.readAllLines(programArgs(dir, name)).toArray(String[]::new);
        }
        if (name.equals(Hdfs.NAMENODE_PART) || name.equals(Hdfs.DATANODE_PART)) {
            return Hdfs.args(dir, name);
        }
        return name.equals("zookeeper") ? new String[] {dir.resolve("zookeeper.cfg").toString()}
                : new String[] {"--configDir", dir.resolve("conf").resolve(name).toString()};
    }

    /** The program parts' argument files (the lake's stores), kept so that a restart is the same server. */
    private static final Map<String, String> PROGRAM_ARGS = Map.of("s3", "weed.args", "gcs", "gcs.args");

    /** Where program part {@code name} keeps its arguments. */
    private static Path programArgs(Path dir, String name) {
        return dir.resolve("conf").resolve(name).resolve(PROGRAM_ARGS.get(name));
    }

    /**
     * A fault as users meet it: part {@code name} killed ({@code kill -9}) and started again
     * with the same configuration (its port, its data), then awaited; the state file follows.
     */
    public static State restart(State state, String name, Duration deadline) {
        return PartRestart.killed(state, name, deadline, note -> {});
    }

    /**
     * Part {@code name} stopped ({@code SIGSTOP}) until what this returns runs ({@code SIGCONT}, safe
     * to run twice): a long GC pause. Should this JVM end first (Ctrl-C, a failure), it continues
     * the part on its way out: no server is left stopped.
     */
    public static Runnable pause(State state, String name) {
        State.Part part = state.parts().get(name);
        ProcessHandle process = part == null ? null : part.ours().orElse(null);
        if (process == null) {
            throw new TierproofException("the cluster in " + state.dir() + " has no running " + name + " to pause");
        }
        Runnable resume = () -> {
            if (part.ours().isPresent()) {
                Launcher.signal("CONT", process.pid());
            }
        };
        Runnable heal = HealOnExit.arm("continue-" + name, resume);
        Launcher.signal("STOP", process.pid());
        return heal;
    }

    /**
     * The lake's store killed ({@code kill -9}) and started again with its data: SeaweedFS, or
     * HDFS's NameNode and DataNode (then awaited until the NameNode serves writes again: out of
     * safe mode, its DataNode back).
     */
    public static State restartLake(State state, Duration deadline) {
        refuseLakeRestart(state);
        if (state.store() == Lake.S3) {
            return restart(state, "s3", deadline);
        }
        // Both down at once (one outage), then the NameNode before its DataNode: the new NameNode
        // knows no DataNode but the new one, so "a live DataNode" below means the restarted one.
        Launcher.stop(state.parts().get(Hdfs.DATANODE_PART));
        Launcher.stop(state.parts().get(Hdfs.NAMENODE_PART));
        State next = restart(restart(state, Hdfs.NAMENODE_PART, deadline), Hdfs.DATANODE_PART, deadline);
        try {
            Hdfs.awaitWritable(state.dir(), deadline, next.parts().get(Hdfs.DATANODE_PART).pid());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("waiting for HDFS after its restart was interrupted", e);
        }
        return next;
    }

    /** Refuses {@code restart-lake} on a store that keeps nothing across a restart (the GCS emulator). */
    public static void refuseLakeRestart(State state) {
        lakeRestartRefusal(state).ifPresent(refusal -> {
            throw new IllegalArgumentException(refusal);
        });
    }

    /** Why a disk fault cannot strike this cluster's tablet servers (no disks of their own), or empty when it can. */
    public static Optional<String> diskRefusal(State state) {
        return Disks.has(state.dir()) ? Optional.empty() : Optional.of("the cluster in " + state.dir() + " keeps its"
                + " tablet servers' data on the machine's disk, which tierproof never fills; bring one up with"
                + " --tablet-disk MIB");
    }

    /** Why a clock fault cannot strike this cluster's tablet servers (no clocks of their own), or empty when it can. */
    public static Optional<String> clockRefusal(State state) {
        return Clocks.has(state.dir(), "tablet-0") ? Optional.empty() : Optional.of("the cluster in " + state.dir()
                + " runs its tablet servers on the machine's clock, which tierproof never moves; bring one up with"
                + " --clocks");
    }

    /** Why a network fault cannot strike this cluster's servers (no isolated network), or empty when it can. */
    public static Optional<String> networkRefusal(State state) {
        return Files.isRegularFile(state.dir().resolve(Network.FILE)) ? Optional.empty()
                : Optional.of("the cluster in " + state.dir() + " runs on loopback; bring one up with --network"
                        + " isolated to cut its servers off");
    }

    /** Why {@code restart-lake} cannot strike this cluster's store, or empty when it can. */
    public static Optional<String> lakeRestartRefusal(State state) {
        if (state.store() == Lake.GCS) {
            return Optional.of("--faults restart-lake: the cluster's GCS store (fake-gcs-server) keeps its objects in"
                    + " memory, so a restart would lose the lake, which no GCS outage does: run restart-lake on"
                    + " cluster up --lake s3 or --lake hdfs");
        }
        return Optional.empty();
    }

    /** A part's own class path, when it is not this JVM's. */
    static final String CLASS_PATH = "classpath";

    /** A Fluss server's configuration: it holds the S3 store's key pair, so it is readable by its owner only. */
    private static void configDir(Path dir, String name, Map<String, String> options) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf").resolve(name));
        StringBuilder yaml = new StringBuilder();
        options.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
        Files.writeString(SeaweedFs.ownerOnly(conf.resolve("server.yaml")), yaml);
    }

}
