package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * Leaders and in-sync replicas read from Fluss's own ZooKeeper state, on a real 3-server cluster
 * with a 3-replica table: all in sync at rest; a server rolled (controlled shutdown) hands its
 * leaderships over, and its replicas come back in sync.
 */
class ReplicationTest {
    private static final TablePath PATH = TablePath.of("tierproof", "replicated");

    @Test
    void aRolledServerHandsItsLeadershipOverAndComesBackInSync() throws Exception {
        try (LocalFlussCluster cluster = LocalFlussCluster.start(3, Map.of());
                Connection conn = ConnectionFactory.createConnection(cluster.clientConfig())) {
            create(conn);
            write(conn, 0);
            try (Replication replication = Replication.of(cluster, conn, PATH);
                    ReplicationWatch watch = ReplicationWatch.start(Replication.of(cluster, conn, PATH),
                            Duration.ofMillis(200))) {
                List<Replication.BucketState> before = awaitInSync(replication, Duration.ofSeconds(60));
                assertThat(before).hasSize(2).allSatisfy(b -> {
                    assertThat(b.replicas()).containsExactlyInAnyOrder(0, 1, 2);
                    assertThat(b.isr()).containsExactlyInAnyOrder(0, 1, 2);
                });
                int leader = replication.leaderOfWritten();
                int follower = replication.followerOfWritten();
                assertThat(follower).isNotEqualTo(leader);
                cluster.rollTabletServer(leader);
                write(conn, 100);
                List<Replication.BucketState> after = awaitInSync(replication, Duration.ofSeconds(120));
                watch.sampleNow();
                assertThat(after).allSatisfy(b -> assertThat(b.isr()).containsExactlyInAnyOrder(0, 1, 2));
                assertThat(after.get(0).leaderEpoch()).as("a new leader was elected")
                        .isGreaterThan(before.get(0).leaderEpoch());
                assertThat(watch.changes()).as("the watch kept the change").hasSizeGreaterThan(1);
            }
        }
    }

    private static List<Replication.BucketState> awaitInSync(Replication replication, Duration within)
            throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        List<Replication.BucketState> states = replication.sample();
        while (!states.stream().allMatch(Replication.BucketState::inSync) && System.nanoTime() < end) {
            Thread.sleep(250);
            states = replication.sample();
        }
        System.out.println(states.stream().map(Replication.BucketState::text).toList());
        return states;
    }

    private static void create(Connection conn) throws Exception {
        conn.getAdmin().createDatabase(PATH.getDatabaseName(), DatabaseDescriptor.EMPTY, true).get();
        Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("bal", DataTypes.INT())
                .primaryKey("id").build();
        conn.getAdmin().createTable(PATH, TableDescriptor.builder().schema(schema).distributedBy(2)
                .property("table.replication.factor", "3").build(), false).get();
    }

    private static void write(Connection conn, int from) throws Exception {
        try (Table table = conn.getTable(PATH)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = from; i < from + 20; i++) {
                writer.upsert(GenericRow.of(i, i));
            }
            writer.flush();
        }
    }
}
