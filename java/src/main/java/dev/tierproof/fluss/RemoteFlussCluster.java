package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.HostPort;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * A Fluss cluster tierproof did not start ({@code --fluss HOST:PORT}): it is only connected to.
 * tierproof creates its own tables there and restarts nothing.
 */
public final class RemoteFlussCluster implements FlussCluster {
    private final String bootstrap;

    private RemoteFlussCluster(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    /**
     * {@code HOST:PORT} checked (a port in range) and reachable within {@code timeout}; a bad
     * value is named before anything starts.
     */
    public static RemoteFlussCluster connect(String hostPort, Duration timeout) {
        HostPort address = HostPort.parse("--fluss", hostPort, "a coordinator's address");
        String host = address.host();
        int port = address.port();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
        } catch (Exception e) {
            throw new TierproofException("no Fluss coordinator answers at --fluss " + hostPort + ": " + e.getMessage(),
                    e);
        }
        return new RemoteFlussCluster(host + ":" + port);
    }

    /**
     * Refuses a cluster that holds lake-enabled tables: the tiering job tierproof runs tiers every
     * table the coordinator hands it, so it would write those tables into {@code --warehouse} and
     * commit their lake snapshots to that cluster — tables tierproof did not create.
     */
    public RemoteFlussCluster refuseIfOthersWouldBeTiered(Duration timeout) {
        List<String> lake = new ArrayList<>();
        try (Connection connection = ConnectionFactory.createConnection(clientConfig())) {
            Admin admin = connection.getAdmin();
            for (String db : admin.listDatabases().get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                for (String t : admin.listTables(db).get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    TableInfo info = admin.getTableInfo(TablePath.of(db, t)).get(timeout.toMillis(),
                            TimeUnit.MILLISECONDS);
                    if (info.getTableConfig().isDataLakeEnabled()) {
                        lake.add(db + "." + t);
                    }
                }
            }
        } catch (Exception e) {
            throw new TierproofException("could not list the tables of the Fluss cluster at --fluss " + bootstrap
                    + ": " + e.getMessage(), e);
        }
        java.util.Collections.sort(lake);
        if (!lake.isEmpty()) {
            throw new IllegalArgumentException("the Fluss cluster at --fluss " + bootstrap + " has lake-enabled tables ("
                    + String.join(", ", lake.subList(0, Math.min(5, lake.size()))) + (lake.size() > 5 ? ", …" : "")
                    + "): the tiering job tierproof runs would tier them too, into --warehouse, and commit their lake"
                    + " snapshots to that cluster; tierproof proves only on a cluster whose lake tables are its own"
                    + " (./build.sh cluster up, then --cluster DIR)");
        }
        return this;
    }

    @Override
    public String bootstrapServers() {
        return bootstrap;
    }

    @Override
    public boolean startedForThisRun() {
        return false;
    }

    private static IllegalArgumentException noFaults() {
        return new IllegalArgumentException("faults restart servers, which tierproof does only on the cluster it"
                + " starts itself: leave --fluss out to run them");
    }

    @Override
    public void restartTabletServer(int id, boolean samePort) {
        throw noFaults();
    }

    @Override
    public void restartCoordinator() {
        throw noFaults();
    }

    @Override
    public void restartZooKeeper() {
        throw noFaults();
    }
}
