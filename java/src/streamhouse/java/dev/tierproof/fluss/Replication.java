package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePartition;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.server.zk.data.LeaderAndIsr;
import org.apache.fluss.server.zk.data.TableAssignment;
import org.apache.fluss.server.zk.data.ZkData;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Who leads each bucket of a table and which of its replicas are in sync, as Fluss keeps it: the
 * coordinator writes every bucket's leader, in-sync replicas (ISR) and leader epoch to ZooKeeper
 * (Fluss's own {@link ZkData.LeaderAndIsrZNode}), beside the replicas each bucket is assigned. Faults find their target by role through it, a rolling restart waits on it,
 * and the proof judges availability with it.
 */
public final class Replication implements AutoCloseable {
    /** How long a question to the cluster or to ZooKeeper may take. */
    private static final Duration ASK = Duration.ofSeconds(10);

    /**
     * One bucket at one moment.
     *
     * @param bucket {@code b0}, or {@code p=2025-01-01/b0} in a partitioned table
     * @param leader the leading tablet server, -1 when none leads
     * @param isr the replicas in sync with the leader
     * @param leaderEpoch the leader's epoch (it grows with each election)
     * @param replicas the tablet servers that should hold the bucket
     */
    public record BucketState(String bucket, int leader, List<Integer> isr, int leaderEpoch, List<Integer> replicas) {
        public boolean led() {
            return leader >= 0;
        }

        /** Led, and every replica it should have is in sync. */
        public boolean inSync() {
            return led() && isr.containsAll(replicas);
        }

        /** {@code b0: leader 1 (epoch 2), isr [1, 2] of [0, 1, 2]}. */
        public String text() {
            return bucket + ": " + (led() ? "leader " + leader : "no leader") + " (epoch " + leaderEpoch + "), isr "
                    + isr + " of " + replicas;
        }
    }

    private ZooKeeper zookeeper;
    private final String address;
    private final Connection connection;
    private final TablePath path;
    private TableInfo info;

    private Replication(ZooKeeper zookeeper, String address, Connection connection, TablePath path) {
        this.zookeeper = zookeeper;
        this.address = address;
        this.connection = connection;
        this.path = path;
    }

    /**
     * Watches table {@code path} of {@code cluster} (one whose ZooKeeper tierproof knows) through its
     * ZooKeeper, below Fluss's root there ({@code zookeeper.path.root}), and a client connection.
     */
    public static Replication of(FlussCluster cluster, Connection connection, TablePath path) {
        String root = org.apache.fluss.config.Configuration.fromMap(cluster.serverSettings())
                .get(org.apache.fluss.config.ConfigOptions.ZOOKEEPER_ROOT);
        String address = cluster.zookeeper().orElseThrow(() -> new IllegalArgumentException("tierproof does not"
                + " know the ZooKeeper of the cluster at " + cluster.bootstrapServers()));
        return of(address + root, connection, path);
    }

    /** As {@link #of(FlussCluster, Connection, TablePath)}, at {@code host:port/root}. */
    static Replication of(String zookeeperAddress, Connection connection, TablePath path) {
        return new Replication(connect(zookeeperAddress), zookeeperAddress, connection, path);
    }

    /** A ZooKeeper client at {@code address}, connected within {@link #ASK}. */
    private static ZooKeeper connect(String address) {
        CountDownLatch connected = new CountDownLatch(1);
        try {
            ZooKeeper zk = new ZooKeeper(address, (int) ASK.toMillis() * 3, event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            });
            if (!connected.await(ASK.toMillis(), TimeUnit.MILLISECONDS)) {
                zk.close();
                throw new TierproofException("could not reach the cluster's ZooKeeper at " + address + " within "
                        + ASK.toSeconds() + " s");
            }
            return zk;
        } catch (java.io.IOException e) {
            throw new TierproofException("could not reach the cluster's ZooKeeper at " + address + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while connecting to ZooKeeper at " + address, e);
        }
    }

    /** The client, connected anew if its session has ended (a long cut between this host and ZooKeeper). */
    private synchronized ZooKeeper zk() {
        if (!zookeeper.getState().isAlive()) {
            try {
                zookeeper.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            zookeeper = connect(address);
        }
        return zookeeper;
    }

    /**
     * Every bucket of the table (of each of its partitions) as Fluss holds it now, all from
     * ZooKeeper (the table's id and bucket count from the cluster, once): a server cut off or
     * restarting does not hold a sample up.
     */
    public List<BucketState> sample() {
        try {
            TableInfo info = tableInfo();
            ZooKeeper zookeeper = zk();
            List<BucketState> states = new ArrayList<>();
            if (!info.isPartitioned()) {
                TableAssignment assignment = ZkData.TableIdZNode.decode(zookeeper.getData(
                        ZkData.TableIdZNode.path(info.getTableId()), false, null));
                addBuckets(zookeeper, info.getTableId(), null, "", assignment, states);
                return states;
            }
            String partitions = ZkData.PartitionsZNode.path(path);
            List<String> names = zookeeper.exists(partitions, false) == null ? List.of()
                    : new ArrayList<>(zookeeper.getChildren(partitions, false));
            java.util.Collections.sort(names);
            for (String name : names) {
                TablePartition partition = ZkData.PartitionZNode.decode(zookeeper.getData(
                        ZkData.PartitionZNode.path(path, name), false, null));
                TableAssignment assignment = ZkData.PartitionIdZNode.decode(zookeeper.getData(
                        ZkData.PartitionIdZNode.path(partition.getPartitionId()), false, null));
                addBuckets(zookeeper, info.getTableId(), partition.getPartitionId(), name + "/", assignment, states);
            }
            return states;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while reading the replication of " + path, e);
        } catch (Exception e) {
            throw new TierproofException("reading the replication of " + path + " failed: "
                    + dev.tierproof.run.Steps.rootMessage(e), e);
        }
    }

    private synchronized TableInfo tableInfo() throws Exception {
        if (info == null) {
            info = connection.getAdmin().getTableInfo(path).get(ASK.toMillis(), TimeUnit.MILLISECONDS);
        }
        return info;
    }

    private static void addBuckets(ZooKeeper zookeeper, long tableId, Long partition, String prefix,
            TableAssignment assignment, List<BucketState> states) throws Exception {
        for (int b : new java.util.TreeSet<>(assignment.getBuckets())) {
            TableBucket bucket = new TableBucket(tableId, partition, b);
            String node = ZkData.LeaderAndIsrZNode.path(bucket);
            byte[] data = zookeeper.exists(node, false) == null ? null : zookeeper.getData(node, false, null);
            LeaderAndIsr state = data == null ? null : ZkData.LeaderAndIsrZNode.decode(data);
            states.add(new BucketState(prefix + "b" + b, state == null ? -1 : state.leader(),
                    state == null ? List.of() : List.copyOf(state.isr()), state == null ? -1 : state.leaderEpoch(),
                    List.copyOf(assignment.getBucketAssignment(b).getReplicas())));
        }
    }

    /**
     * The leader of the first bucket written (bucket 0 of the table or of its first partition): a
     * fault aimed at "the leader" strikes it. None to strike is an error of the run, not a finding.
     */
    public int leaderOfWritten() {
        BucketState first = firstWritten();
        if (!first.led()) {
            throw new dev.tierproof.run.RunError("bucket " + first.text() + " of " + path + " has no leader now,"
                    + " so there is none to strike");
        }
        return first.leader();
    }

    /**
     * An in-sync follower of the first bucket written: a replica in its ISR that does not lead; a
     * fault aimed at "a follower" strikes it. None (a table of one replica) is an error of the run.
     */
    public int followerOfWritten() {
        BucketState first = firstWritten();
        return first.isr().stream().filter(r -> r != first.leader()).findFirst().orElseThrow(() ->
                new dev.tierproof.run.RunError("bucket " + first.text() + " of " + path + " has no in-sync follower"
                        + " to strike (a table of one replica has none)"));
    }

    private BucketState firstWritten() {
        return sample().stream().findFirst().orElseThrow(() -> new dev.tierproof.run.RunError(path
                + " has no bucket yet (a partitioned table before its first write), so no replica to strike"));
    }

    @Override
    public synchronized void close() {
        try {
            zookeeper.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
