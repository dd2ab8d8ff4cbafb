package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.fluss.cluster.Endpoint;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.server.ServerBase;
import org.apache.fluss.server.coordinator.CoordinatorServer;
import org.apache.fluss.server.tablet.TabletServer;
import org.apache.fluss.utils.clock.SystemClock;

/**
 * A real Fluss cluster in this JVM, as Fluss's own test extension builds it: ZooKeeper (Curator's
 * TestingServer), one CoordinatorServer and one or more TabletServers, every one listening on a
 * free loopback port and keeping its data in a temporary directory. {@link #close()} stops them in
 * order and removes the directory; two clusters can run side by side.
 */
public final class LocalFlussCluster implements FlussCluster, AutoCloseable {
    private static final Duration READY_DEADLINE = Duration.ofSeconds(60);
    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration STOP_DEADLINE = Duration.ofSeconds(60);

    private final Path root;
    private final TestingServer zookeeper;
    private CoordinatorServer coordinator;
    private final Configuration coordinatorConfig;
    private boolean coordinatorRunning = true;
    private final List<TabletServer> tabletServers;
    private final List<Configuration> tabletConfigs;
    private final String bootstrapServers;
    private final List<Integer> ports;
    private boolean closed;

    private LocalFlussCluster(Path root, TestingServer zookeeper, CoordinatorServer coordinator,
            Configuration coordinatorConfig, List<TabletServer> tabletServers, List<Configuration> tabletConfigs,
            String bootstrapServers, List<Integer> ports) {
        this.root = root;
        this.zookeeper = zookeeper;
        this.coordinator = coordinator;
        this.coordinatorConfig = coordinatorConfig;
        this.tabletServers = new ArrayList<>(tabletServers);
        this.tabletConfigs = List.copyOf(tabletConfigs);
        this.bootstrapServers = bootstrapServers;
        this.ports = new ArrayList<>(ports);
    }

    /**
     * Starts a cluster with {@code tabletServerCount} tablet servers. {@code extra} is added to
     * every server's configuration (e.g. the datalake options). A failed start stops what it had
     * started and names the part that failed.
     */
    public static LocalFlussCluster start(int tabletServerCount, Map<String, String> extra) {
        return start(tabletServerCount, extra, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * As {@link #start(int, Map)}, with the cluster's directory (ZooKeeper's data, the servers'
     * data and remote directories) made below {@code parent}.
     */
    public static LocalFlussCluster start(int tabletServerCount, Map<String, String> extra, Path parent) {
        if (tabletServerCount < 1) {
            throw new IllegalArgumentException("a Fluss cluster needs at least one tablet server, not " + tabletServerCount);
        }
        Path root;
        try {
            Files.createDirectories(parent);
            root = Files.createTempDirectory(parent, "tierproof-fluss-");
        } catch (IOException e) {
            throw new TierproofException("could not create a directory for the Fluss cluster: " + e.getMessage(), e);
        }
        List<AutoCloseable> started = new ArrayList<>();
        String part = "ZooKeeper";
        try {
            // Random free ports (-1); a session timeout cap above ZooKeeper's derived minimum, as
            // Fluss's own tests set it (Curator's default spec is refused by ZooKeeper 3.7); the
            // client port bound to loopback only (ZooKeeper binds every interface by default).
            InstanceSpec spec = new InstanceSpec(root.resolve("zookeeper").toFile(), -1, -1, -1, false, -1, -1, -1,
                    Map.of("maxSessionTimeout", "60000", "clientPortAddress", LOOPBACK), LOOPBACK);
            TestingServer zk = new TestingServer(spec, true);
            started.add(zk);
            Configuration common = new Configuration();
            common.setString("zookeeper.address", zk.getConnectString());
            common.setString("bind.listeners", "FLUSS://" + LOOPBACK + ":0");
            common.setString("remote.data.dir", root.resolve("remote").toUri().toString());
            // Small thread pools keep a 2-core machine responsive.
            common.setString("netty.server.num-network-threads", "1");
            common.setString("netty.server.num-worker-threads", "3");
            // A lone tablet server can hand its leadership to no one: shut down without retrying.
            common.setString("tablet-server.controlled-shutdown.max-retries", "0");
            extra.forEach(common::setString);

            part = "the coordinator server";
            Configuration coordinatorConfig = new Configuration(common);
            CoordinatorServer coordinator = new CoordinatorServer(new Configuration(coordinatorConfig),
                    SystemClock.getInstance());
            started.add(0, () -> closeServer(coordinator));
            coordinator.start();
            Endpoint endpoint = coordinator.getRpcServer().getBindEndpoints().get(0);
            String bootstrap = endpoint.getHost() + ":" + endpoint.getPort();
            List<Integer> ports = new ArrayList<>(List.of(zk.getPort(), endpoint.getPort()));

            List<TabletServer> tablets = new ArrayList<>();
            List<Configuration> tabletConfigs = new ArrayList<>();
            for (int id = 0; id < tabletServerCount; id++) {
                part = "tablet server " + id;
                Configuration conf = new Configuration(common);
                conf.setString("tablet-server.id", String.valueOf(id));
                conf.setString("data.dir", root.resolve("tablet-" + id).toString());
                tabletConfigs.add(conf);
                TabletServer tablet = new TabletServer(conf, SystemClock.getInstance());
                started.add(0, () -> closeServer(tablet));
                tablet.start();
                tablets.add(tablet);
                ports.add(tablet.getRpcServer().getBindEndpoints().get(0).getPort());
            }

            part = "the readiness check";
            // A restarted coordinator comes back where clients look for it: the same port.
            coordinatorConfig.setString("bind.listeners", "FLUSS://" + LOOPBACK + ":" + endpoint.getPort());
            LocalFlussCluster cluster = new LocalFlussCluster(root, zk, coordinator, coordinatorConfig, tablets,
                    tabletConfigs, bootstrap, ports);
            cluster.awaitServers(tabletServerCount);
            return cluster;
        } catch (Exception e) {
            for (AutoCloseable c : started) {
                try {
                    c.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            Directories.deleteRecursively(root);
            throw new TierproofException("the Fluss cluster failed to start at " + part + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean startedForThisRun() {
        return true;
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public java.util.Optional<String> zookeeper() {
        return java.util.Optional.of(zookeeper.getConnectString());
    }

    @Override
    public Map<String, String> serverSettings() {
        return tabletConfigs.get(0).toMap();
    }

    @Override
    public synchronized int tabletServerCount() {
        return tabletServers.size();
    }

    /** A tablet server's close in Fluss 0.9.1 is a controlled shutdown: its leaderships are handed over first. */
    @Override
    public synchronized void rollTabletServer(int id) {
        restartTabletServer(id, true);
    }


    /**
     * A fault: stops tablet server {@code id} and starts it again with the same id, data
     * directory and port, then waits until clients see it. Its buckets are
     * unavailable meanwhile: writers retry, readers wait.
     */
    public synchronized void restartTabletServer(int id) {
        restartTabletServer(id, true);
    }

    /**
     * As {@link #restartTabletServer(int)}; with {@code samePort} false the server comes back on a
     * new port, as a restarted pod comes back at a new address.
     */
    @Override
    public synchronized void restartTabletServer(int id, boolean samePort) {
        if (id < 0 || id >= tabletServers.size()) {
            throw new IllegalArgumentException("tablet server " + id + " does not exist; the cluster has "
                    + tabletServers.size());
        }
        try {
            TabletServer old = tabletServers.get(id);
            int port = old.getRpcServer().getBindEndpoints().get(0).getPort();
            closeServer(old);
            Configuration conf = new Configuration(tabletConfigs.get(id));
            conf.setString("bind.listeners", "FLUSS://" + LOOPBACK + ":" + (samePort ? port : 0));
            TabletServer fresh = new TabletServer(conf, SystemClock.getInstance());
            tabletServers.set(id, fresh);
            fresh.start();
            ports.add(fresh.getRpcServer().getBindEndpoints().get(0).getPort());
            awaitServers(tabletServers.size());
        } catch (TierproofException e) {
            throw e;
        } catch (Exception e) {
            throw new ClusterBroken("restarting tablet server " + id + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * A fault: stops the coordinator server and starts it again on the same port (clients'
     * bootstrap address), then waits until clients see every server. Metadata requests, tiering's
     * table requests and lake commits fail or wait meanwhile.
     */
    @Override
    public synchronized void restartCoordinator() {
        stopCoordinator();
        startCoordinator();
    }

    /** Asks the coordinator itself, on its event thread (its state is not thread-safe). */
    @Override
    public java.util.Optional<Boolean> coordinatorKnows(org.apache.fluss.metadata.TablePath path, long tableId) {
        var ask = new org.apache.fluss.server.coordinator.event.AccessContextEvent<>(
                context -> context.containsTableId(tableId));
        synchronized (this) {
            if (!coordinatorRunning) {
                return java.util.Optional.empty();
            }
            coordinator.getCoordinatorEventProcessor().getCoordinatorEventManager().put(ask);
        }
        try {
            return java.util.Optional.of(ask.getResultFuture().get(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return java.util.Optional.empty();
        }
    }

    /** The first half of {@link #restartCoordinator()}: the coordinator is down until {@link #startCoordinator()}. */
    synchronized void stopCoordinator() {
        try {
            coordinatorRunning = false;
            closeServer(coordinator);
        } catch (Exception e) {
            throw new TierproofException("stopping the coordinator server failed: " + e.getMessage(), e);
        }
    }

    /** For a test that stopped the coordinator: starts it again unless it runs. */
    synchronized void startCoordinatorIfStopped() {
        if (!coordinatorRunning) {
            startCoordinator();
        }
    }

    /** Starts the coordinator again on its port and waits until clients see every server. */
    synchronized void startCoordinator() {
        try {
            coordinator = new CoordinatorServer(new Configuration(coordinatorConfig), SystemClock.getInstance());
            coordinator.start();
            coordinatorRunning = true;
            awaitServers(tabletServers.size());
        } catch (TierproofException e) {
            throw e;
        } catch (Exception e) {
            throw new ClusterBroken("starting the coordinator server again failed: " + e.getMessage(), e);
        }
    }

    /**
     * A fault: stops ZooKeeper and starts it again on the same port with the same data; the
     * servers' sessions are cut and reconnect. Waits until clients see every server.
     */
    @Override
    public synchronized void restartZooKeeper() {
        try {
            zookeeper.restart();
            awaitServers(tabletServers.size());
        } catch (TierproofException e) {
            throw e;
        } catch (Exception e) {
            throw new ClusterBroken("restarting ZooKeeper failed: " + e.getMessage(), e);
        }
    }

    /** ZooKeeper's, the coordinator's and each tablet server's port. */
    public synchronized List<Integer> ports() {
        return List.copyOf(ports);
    }

    public Path directory() {
        return root;
    }

    /** Waits until a client sees the coordinator and every tablet server. */
    private void awaitServers(int tabletServerCount) throws InterruptedException {
        FlussCluster.awaitServers(bootstrapServers, tabletServerCount, READY_DEADLINE);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Exception> failures = new ArrayList<>();
        for (TabletServer t : tabletServers) {
            run(failures, () -> closeServer(t));
        }
        run(failures, () -> closeServer(coordinator));
        run(failures, zookeeper::close);
        run(failures, () -> Directories.deleteRecursively(root));
        if (!failures.isEmpty()) {
            TierproofException e = new TierproofException("stopping the Fluss cluster failed: " + failures.get(0));
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static void run(List<Exception> failures, Step step) {
        try {
            step.run();
        } catch (Exception e) {
            failures.add(e);
        }
    }

    private static void closeServer(ServerBase server) throws Exception {
        server.closeAsync().get(STOP_DEADLINE.toSeconds(), TimeUnit.SECONDS);
    }
}
