package dev.tierproof.fluss;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TablePath;

/**
 * Fluss connections whose close does not hold the run up. Fluss 0.9.1's {@code Connection.close()}
 * ends with Netty's graceful shutdown and waits out its 2 s quiet period (not configurable); it
 * also waits without end for writes it cannot deliver while a bucket has no leader. A proof opens
 * several connections, a search hundreds. Here the close runs on a daemon thread of its own: by
 * then every write was answered or judged of unknown outcome, so no verdict waits on it, and one
 * that never ends is left to the end of the JVM.
 */
public final class Clients {
    private Clients() {}

    /** A connection to the cluster {@code conf} names, closed in the background. */
    public static Connection open(Configuration conf) {
        return new QuietlyClosed(ConnectionFactory.createConnection(conf));
    }

    /** Fluss's own connection behind {@code connection} (its metadata is Fluss's internal API). */
    static FlussConnection fluss(Connection connection) {
        return (FlussConnection) (connection instanceof QuietlyClosed q ? q.inner() : connection);
    }

    /** Closes {@code connection} (in the background, when {@link #open} made it). */
    public static void close(Connection connection) {
        try {
            connection.close();
        } catch (Exception e) {
            // Only Fluss's own connections throw here; this one is gone with what it held.
        }
    }

    private record QuietlyClosed(Connection inner) implements Connection {
        @Override
        public Configuration getConfiguration() {
            return inner.getConfiguration();
        }

        @Override
        public Admin getAdmin() {
            return inner.getAdmin();
        }

        @Override
        public Table getTable(TablePath path) {
            return inner.getTable(path);
        }

        @Override
        public void close() {
            Thread closing = new Thread(() -> {
                try {
                    inner.close();
                } catch (Exception e) {
                    // Closing is all that was left of it: its threads end with the JVM.
                }
            }, "closing a Fluss connection");
            closing.setDaemon(true);
            closing.start();
        }
    }
}
