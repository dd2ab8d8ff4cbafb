package dev.tierproof.fluss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/** A real Fluss cluster in this JVM: start, use, stop, and nothing left behind. */
class LocalFlussClusterTest {

    @Test
    void startWriteReadStopLeavesNothingBehind() throws Exception {
        Set<String> threadsBefore = nonDaemonThreads();
        Path dir;
        List<Integer> ports;
        try (LocalFlussCluster cluster = LocalFlussCluster.start(1, Map.of())) {
            dir = cluster.directory();
            ports = cluster.ports();
            assertEquals(3, ports.size(), "ZooKeeper, coordinator, tablet server");
            assertTrue(cluster.bootstrapServers().matches("[\\w.-]+:\\d+"), cluster.bootstrapServers());
            assertTrue(Files.isDirectory(dir));
            writeAndLookUp(cluster);
        }
        assertFalse(Files.exists(dir), "the cluster's directory is removed");
        for (int port : ports) {
            assertFalse(accepts(port), "port " + port + " still accepts connections");
        }
        awaitNoNewNonDaemonThreads(threadsBefore);
    }

    @Test
    void twoClustersRunAtOnce() throws Exception {
        try (LocalFlussCluster a = LocalFlussCluster.start(1, Map.of());
                LocalFlussCluster b = LocalFlussCluster.start(2, Map.of())) {
            assertNotEquals(a.bootstrapServers(), b.bootstrapServers());
            assertNotEquals(a.directory(), b.directory());
            Set<Integer> shared = new HashSet<>(a.ports());
            shared.retainAll(b.ports());
            assertTrue(shared.isEmpty(), "ports in common: " + shared);
            assertEquals(4, b.ports().size());
            writeAndLookUp(a);
            writeAndLookUp(b);
        }
    }

    @Test
    void aBadConfigurationFailsNamingThePart() {
        Exception e = assertThrows(RuntimeException.class,
                () -> LocalFlussCluster.start(1, Map.of("bind.listeners", "NOPE")));
        assertTrue(e.getMessage().contains("the Fluss cluster failed to start at the coordinator server"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LocalFlussCluster.start(0, Map.of()));
    }

    /** Creates a database and a primary-key table, upserts, and reads the latest values back. */
    static void writeAndLookUp(LocalFlussCluster cluster) throws Exception {
        try (Connection conn = ConnectionFactory.createConnection(cluster.clientConfig())) {
            Admin admin = conn.getAdmin();
            admin.createDatabase("tierproof", DatabaseDescriptor.EMPTY, true).get();
            TablePath path = TablePath.of("tierproof", "accounts");
            Schema schema = Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("bal", DataTypes.INT())
                    .primaryKey("id")
                    .build();
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(1).build(), false).get();
            try (Table table = conn.getTable(path)) {
                UpsertWriter writer = table.newUpsert().createWriter();
                writer.upsert(GenericRow.of(1, 10));
                writer.upsert(GenericRow.of(2, 20));
                writer.upsert(GenericRow.of(1, 11));
                writer.flush();
                Lookuper lookuper = table.newLookup().createLookuper();
                InternalRow one = lookuper.lookup(GenericRow.of(1)).get().getSingletonRow();
                assertEquals(11, one.getInt(1));
                assertEquals(20, lookuper.lookup(GenericRow.of(2)).get().getSingletonRow().getInt(1));
            }
        }
    }

    static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("localhost", port), 500);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    static Set<String> nonDaemonThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !t.isDaemon())
                .map(t -> t.getName() + "#" + t.getId())
                .collect(Collectors.toSet());
    }

    /** Threads may take a moment to finish after their pools shut down. */
    static void awaitNoNewNonDaemonThreads(Set<String> before) throws InterruptedException {
        Set<String> extra = Set.of();
        for (int i = 0; i < 100; i++) {
            extra = new HashSet<>(nonDaemonThreads());
            extra.removeAll(before);
            if (extra.isEmpty()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("non-daemon threads left behind: " + extra);
    }
}
