package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

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
        int colon = hostPort == null ? -1 : hostPort.lastIndexOf(':');
        int port;
        try {
            port = colon > 0 ? Integer.parseInt(hostPort.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--fluss " + hostPort + " is not HOST:PORT (a coordinator's address)");
        }
        String host = hostPort.substring(0, colon);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
        } catch (Exception e) {
            throw new TierproofException("no Fluss coordinator answers at --fluss " + hostPort + ": " + e.getMessage(),
                    e);
        }
        return new RemoteFlussCluster(host + ":" + port);
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
