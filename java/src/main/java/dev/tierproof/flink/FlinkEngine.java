package dev.tierproof.flink;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.Directories;
import dev.tierproof.util.HostPort;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.BlobServerOptions;
import org.apache.flink.configuration.ClusterOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.SecurityOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * One Flink MiniCluster in this JVM, shared by every job tierproof runs (DDL, inserts, reads, the
 * tiering job): a per-job local cluster would cost a start-up per statement.
 */
public final class FlinkEngine implements AutoCloseable {
    private static final String EXECUTOR = "tierproof-minicluster";
    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration STOP_DEADLINE = Duration.ofSeconds(60);
    /** The MiniCluster this engine started, or null for a session cluster it only submits to. */
    private final MiniCluster cluster;
    /** A session cluster's REST endpoint, or null for a MiniCluster. */
    private final HostPort remote;
    /** The jars every job takes along to a session cluster ({@code pipeline.jars}); empty: none. */
    private final List<String> shipped;
    private final Path ownDirectory;
    private boolean closed;

    private FlinkEngine(MiniCluster cluster, HostPort remote, List<String> shipped, Path ownDirectory) {
        this.cluster = cluster;
        this.remote = remote;
        this.shipped = List.copyOf(shipped);
        this.ownDirectory = ownDirectory;
    }

    /**
     * A Flink session cluster tierproof did not start, at its REST endpoint {@code HOST:PORT}:
     * jobs are submitted there and results collected back; {@link #close()} stops nothing. The
     * cluster's TaskManagers need the Paimon and Fluss connectors on their class path (in its
     * {@code lib/}), as Fluss's tiering service needs them anyway.
     */
    public static FlinkEngine remote(String hostPort) {
        return remote(hostPort, false);
    }

    /**
     * As above; with {@code shipConnectors}, every job takes the Paimon and Fluss connectors along
     * ({@code pipeline.jars}: uploaded with the job, loaded child-first by its class loader), for
     * a session cluster whose TaskManagers do not have them, as Flink's distribution comes.
     */
    public static FlinkEngine remote(String hostPort, boolean shipConnectors) {
        return new FlinkEngine(null, HostPort.parse("--flink", hostPort, "a JobManager's REST endpoint"),
                shipConnectors ? Connectors.jars() : List.of(), null);
    }

    /**
     * Starts a MiniCluster with {@code slots} task slots in a temporary directory of its own,
     * removed on {@link #close()}.
     */
    public static FlinkEngine start(int slots) {
        Path dir;
        try {
            dir = Files.createTempDirectory("tierproof-flink-");
        } catch (IOException e) {
            throw new TierproofException("could not create a directory for Flink: " + e.getMessage(), e);
        }
        try {
            return start(slots, dir, dir);
        } catch (RuntimeException e) {
            Directories.deleteRecursively(dir);
            throw e;
        }
    }

    /**
     * Starts a MiniCluster with {@code slots} task slots (concurrent jobs need one each). Every
     * file Flink writes (I/O spill, blobs, its working directory, web uploads) goes below
     * {@code workDir}, but the RPC jar the JVM's first MiniCluster unpacks ({@link SharedRpcSystem},
     * in the JVM's own run directory); every server it opens (REST, blob server, RPC, shuffle)
     * listens on 127.0.0.1 only.
     */
    public static FlinkEngine start(int slots, Path workDir) {
        return start(slots, workDir, null);
    }

    private static FlinkEngine start(int slots, Path workDir, Path ownDirectory) {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_PORT, "0"); // two engines can run at once
        conf.set(RestOptions.BIND_ADDRESS, LOOPBACK);
        conf.set(RestOptions.ADDRESS, LOOPBACK);
        conf.set(JobManagerOptions.BIND_HOST, LOOPBACK);
        conf.set(JobManagerOptions.ADDRESS, LOOPBACK);
        conf.set(TaskManagerOptions.BIND_HOST, LOOPBACK);
        conf.set(TaskManagerOptions.HOST, LOOPBACK);
        conf.set(CoreOptions.TMP_DIRS, workDir.resolve("io").toString());
        conf.set(BlobServerOptions.STORAGE_DIRECTORY, workDir.resolve("blob").toString());
        conf.set(ClusterOptions.PROCESS_WORKING_DIR_BASE, workDir.resolve("work").toString());
        conf.set(WebOptions.TMP_DIR, workDir.resolve("web").toString());
        conf.set(WebOptions.UPLOAD_DIR, workDir.resolve("web-upload").toString());
        // A local warehouse needs no Kerberos tokens; asking Hadoop for them only costs start-up.
        conf.set(SecurityOptions.DELEGATION_TOKENS_ENABLED, false);
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(256));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.ofMebiBytes(64));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.ofMebiBytes(64));
        java.util.concurrent.atomic.AtomicBoolean borrowed = new java.util.concurrent.atomic.AtomicBoolean();
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build(),
                        () -> {
                            borrowed.set(true);
                            return SharedRpcSystem.borrow();
                        });
        try {
            cluster.start();
        } catch (Exception e) {
            if (borrowed.get()) {
                SharedRpcSystem.giveBack();
            }
            throw new TierproofException("could not start the Flink MiniCluster: " + e.getMessage(), e);
        }
        return new FlinkEngine(cluster, null, List.of(), ownDirectory);
    }

    /** A stream environment whose jobs run on this cluster, at parallelism 1. */
    public StreamExecutionEnvironment streamEnvironment() {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        if (remote != null) {
            conf.set(DeploymentOptions.TARGET, "remote");
            conf.set(RestOptions.ADDRESS, remote.host());
            conf.set(RestOptions.PORT, remote.port());
            if (!shipped.isEmpty()) {
                conf.set(PipelineOptions.JARS, shipped);
            }
            return new StreamExecutionEnvironment(conf);
        }
        conf.set(DeploymentOptions.TARGET, EXECUTOR);
        return new StreamExecutionEnvironment(new Loader(), conf, getClass().getClassLoader());
    }

    public StreamTableEnvironment batchTables() {
        return StreamTableEnvironment.create(streamEnvironment(), EnvironmentSettings.inBatchMode());
    }

    public StreamTableEnvironment streamingTables() {
        return StreamTableEnvironment.create(streamEnvironment(), EnvironmentSettings.inStreamingMode());
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (cluster == null) {
            return; // a session cluster tierproof did not start: its jobs were cancelled by their owners
        }
        try {
            cluster.closeAsync().get(STOP_DEADLINE.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new TierproofException("could not stop the Flink MiniCluster within " + STOP_DEADLINE.toSeconds()
                    + " s: " + e.getMessage(), e);
        } finally {
            SharedRpcSystem.giveBack(); // every MiniCluster that started borrowed it
            if (ownDirectory != null) {
                Directories.deleteRecursively(ownDirectory);
            }
        }
    }

    /** Submits every pipeline of an environment to this cluster. */
    private final class Loader implements PipelineExecutorServiceLoader, PipelineExecutorFactory, PipelineExecutor {
        @Override
        public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
            return this;
        }

        @Override
        public Stream<String> getExecutorNames() {
            return Stream.of(EXECUTOR);
        }

        @Override
        public String getName() {
            return EXECUTOR;
        }

        @Override
        public boolean isCompatibleWith(Configuration configuration) {
            return true;
        }

        @Override
        public PipelineExecutor getExecutor(Configuration configuration) {
            return this;
        }

        @Override
        public CompletableFuture<JobClient> execute(Pipeline pipeline, Configuration conf, ClassLoader loader)
                throws Exception {
            JobGraph graph = PipelineExecutorUtils.getJobGraph(pipeline, conf, loader);
            return cluster.submitJob(graph)
                    .thenApply(
                            submitted ->
                                    new MiniClusterJobClient(
                                            submitted.getJobID(),
                                            cluster,
                                            loader,
                                            MiniClusterJobClient.JobFinalizationBehavior.NOTHING));
        }
    }
}
