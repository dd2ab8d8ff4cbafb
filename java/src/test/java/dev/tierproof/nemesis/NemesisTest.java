package dev.tierproof.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.paimon.LakeLocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("quick")
class NemesisTest {
    /** The servers' calls, in order. */
    private static final class Recorded implements Servers {
        final List<String> calls = new ArrayList<>();

        @Override
        public void restartTabletServer(int id, boolean samePort) {
            calls.add("tablet " + id + (samePort ? " same port" : " new port"));
        }

        @Override
        public void restartCoordinator() {
            calls.add("coordinator");
        }

        @Override
        public void restartZooKeeper() {
            calls.add("zookeeper");
        }

        @Override
        public void restartLake() {
            calls.add("lake");
        }

        @Override
        public int tabletServerCount() {
            return 3;
        }

        @Override
        public void rollTabletServer(int id) {
            calls.add("roll tablet " + id);
        }

        @Override
        public Runnable cut(String part, Cut cut) {
            calls.add("cut " + part + " " + cut);
            return () -> calls.add("heal " + part);
        }

        @Override
        public Runnable fillDisk(int id) {
            calls.add("fill tablet " + id);
            return () -> calls.add("free tablet " + id);
        }

        @Override
        public Runnable skewClock(int id, java.time.Duration offset) {
            calls.add("clock tablet " + id + " " + offset);
            return () -> calls.add("true clock tablet " + id);
        }

        @Override
        public Runnable pauseTabletServer(int id) {
            calls.add("pause tablet " + id);
            return () -> calls.add("continue tablet " + id);
        }
    }

    /** Server 2 leads, server 1 follows; a wait for the replicas is recorded among the servers' calls. */
    private static Target target(Recorded servers, List<String> tiering) {
        Roles roles = new Roles() {
            @Override
            public int leader() {
                return 2;
            }

            @Override
            public int follower() {
                return 1;
            }

            @Override
            public String awaitInSync() {
                servers.calls.add("await in sync");
                return "in sync 5 ms later";
            }
        };
        TableOptions options = new TableOptions() {
            @Override
            public String get(String key) {
                return key.equals("table.datalake.freshness") ? "1s" : null;
            }

            @Override
            public void set(String key, String value) {
                servers.calls.add("set " + key + "=" + value);
            }
        };
        TableSchema schema = () -> {
            servers.calls.add("add column");
            return "ALTER TABLE t ADD c INT";
        };
        return new Target(servers, new TieringService(() -> tiering.add("tiering"), () -> {
            tiering.add("tiering with other settings");
            return "checkpoints none -> every 2000 ms, tables polled every 500 ms -> 2000 ms";
        }), null, "db", "t", roles, options, schema);
    }

    @Test
    void eachKindStrikesWhatItNames() {
        // The leader (server 2 here) is whom the leader's faults strike, the follower (1) the follower's;
        // a pause holds until healed; a rolling restart waits for the replicas after each server.
        List<String> expected = List.of("tablet 0 same port", "tablet 0 new port", "tablet 2 same port",
                "tablet 1 same port", "pause tablet 2", "continue tablet 2", "pause tablet 1", "continue tablet 1",
                "roll tablet 0", "await in sync", "roll tablet 1", "await in sync", "roll tablet 2", "await in sync",
                "cut tablet-2 ISOLATE", "heal tablet-2", "cut tablet-2 FROM_ZOOKEEPER", "heal tablet-2",
                "cut tablet-2 FROM_CLIENTS", "heal tablet-2", "cut tablet-2 FROM_SERVERS", "heal tablet-2",
                "cut zookeeper ISOLATE", "heal zookeeper", "cut tablet-2 SLOW", "heal tablet-2", "fill tablet 2",
                "free tablet 2", "fill tablet 1", "free tablet 1", "clock tablet 2 PT10M", "true clock tablet 2",
                "clock tablet 2 PT-10M", "true clock tablet 2", "tiering", "tiering with other settings", "coordinator",
                "zookeeper",
                "add column", "set table.datalake.freshness=2s", "lake");
        List<String> struck = new ArrayList<>();
        for (Fault.Kind kind : Fault.Kind.values()) {
            if (kind == Fault.Kind.LAKE_OUTAGE) {
                continue; // moves a directory of a real lake table aside: StreamhouseProofTest runs it
            }
            if (kind == Fault.Kind.COMPACT_LAKE || kind == Fault.Kind.TAG_LAKE || kind == Fault.Kind.EXPIRE_LAKE) {
                continue; // maintain a real lake table: ClusterCommandTest runs them on its S3 lake
            }
            Recorded servers = new Recorded();
            List<String> tiering = new ArrayList<>();
            Struck s = kind.nemesis().strike(target(servers, tiering));
            assertThat(servers.calls.stream().noneMatch(c -> c.startsWith("continue") || c.startsWith("heal")
                    || c.startsWith("free") || c.startsWith("true")))
                    .as(kind.name()).isTrue();
            s.heal().run();
            struck.addAll(servers.calls);
            struck.addAll(tiering);
            assertThat(kind.nemesis().lasts()).as(kind.name()).isEqualTo(kind == Fault.Kind.PAUSE_LEADER
                    || kind == Fault.Kind.PAUSE_FOLLOWER || network(kind));
        }
        assertThat(struck).containsExactlyElementsOf(expected);
        assertThat(Fault.Kind.RETUNE_TIERING.nemesis().strike(target(new Recorded(), new ArrayList<>())).what())
                .isEqualTo("checkpoints none -> every 2000 ms, tables polled every 500 ms -> 2000 ms");
        assertThat(java.util.Arrays.stream(Fault.Kind.values()).filter(k -> k.nemesis().changesSchema()))
                .containsExactly(Fault.Kind.ADD_COLUMN);
        // What a search's next trial may share the tiering job after: steps that strike no server or store.
        assertThat(java.util.Arrays.stream(Fault.Kind.values()).filter(k -> !k.nemesis().touchesServers()))
                .containsExactlyInAnyOrder(Fault.Kind.RESTART_TIERING, Fault.Kind.RETUNE_TIERING, Fault.Kind.COMPACT_LAKE,
                        Fault.Kind.TAG_LAKE, Fault.Kind.EXPIRE_LAKE, Fault.Kind.ADD_COLUMN, Fault.Kind.RETUNE_FRESHNESS);
        // A tiering job restarted with other settings is not the one the next trial asked for.
        assertThat(java.util.Arrays.stream(Fault.Kind.values()).filter(k -> !k.nemesis().leavesRunAsItWas()))
                .contains(Fault.Kind.RETUNE_TIERING).doesNotContain(Fault.Kind.RESTART_TIERING, Fault.Kind.COMPACT_LAKE);
        Recorded servers = new Recorded();
        assertThat(Fault.Kind.KILL_LEADER.nemesis().strike(target(servers, new ArrayList<>())).what())
                .isEqualTo("tablet server 2, the leader of a bucket written");
        assertThat(Fault.Kind.CLOCK_BEHIND_LEADER.nemesis().strike(target(servers, new ArrayList<>())).what())
                .isEqualTo("tablet server 2, the leader of a bucket written, its clock 10 min behind");
        assertThat(Fault.Kind.PAUSE_FOLLOWER.nemesis().strike(target(servers, new ArrayList<>())).what())
                .isEqualTo("tablet server 1, an in-sync follower of a bucket written");
        assertThat(Fault.Kind.ROLLING_RESTART.nemesis().strike(target(servers, new ArrayList<>())).what())
                .isEqualTo("tablet servers in turn: 0 (0 ms, in sync 5 ms later), 1 (0 ms, in sync 5 ms later),"
                        + " 2 (0 ms, in sync 5 ms later)");
    }

    private static boolean network(Fault.Kind kind) {
        return kind.text().startsWith("partition-") || kind.text().startsWith("clock-")
                || kind == Fault.Kind.SLOW_LEADER || kind == Fault.Kind.FILL_LEADER_DISK
                || kind == Fault.Kind.FILL_FOLLOWER_DISK;
    }

    @Test
    void networkFaultsNeedTheIsolatedNetworkOfClusterUp() {
        assertThat(Fault.Kind.PARTITION_LEADER.nemesis().refusal(Deployment.embedded())).hasValueSatisfying(r ->
                assertThat(r).contains("cluster up --network isolated"));
        assertThat(Fault.Kind.SLOW_LEADER.nemesis().refusal(Deployment.clusterUp(Optional.empty(),
                Optional.of("the cluster runs on loopback"), Optional.empty(), Optional.empty()))).contains("--faults slow-leader: the cluster runs on"
                        + " loopback");
        assertThat(Fault.Kind.PARTITION_ZOOKEEPER.nemesis().refusal(Deployment.clusterUp(Optional.empty(),
                Optional.empty(), Optional.of("no disks"), Optional.empty()))).isEmpty();
        assertThat(Fault.Kind.CLOCK_AHEAD_LEADER.nemesis().refusal(Deployment.embedded())).hasValueSatisfying(r ->
                assertThat(r).contains("clock-ahead-leader moves a server's own clock").contains("--clocks"));
        assertThat(Fault.Kind.CLOCK_AHEAD_LEADER.nemesis().refusal(Deployment.clusterUp(Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("no clocks of its own")))).contains("--faults"
                        + " clock-ahead-leader: no clocks of its own");
        assertThat(Fault.Kind.FILL_LEADER_DISK.nemesis().refusal(Deployment.clusterUp(Optional.empty(),
                Optional.empty(), Optional.of("no disks of its own"), Optional.empty()))).contains("--faults fill-leader-disk: no disks"
                        + " of its own");
        Recorded servers = new Recorded();
        assertThat(Fault.Kind.PARTITION_LEADER_ZOOKEEPER.nemesis().strike(target(servers, new ArrayList<>())).what())
                .isEqualTo("tablet server 2, the leader of a bucket written, cut off from ZooKeeper only");
    }

    @Test
    void clustersRefuseWhatTheyCannotDoBeforeAnythingStarts() {
        List<Fault> moveAndLake = Fault.parse("move-tablet@1,restart-lake@2", 5);
        assertThat(Fault.refusal(moveAndLake, Deployment.embedded())).hasValueSatisfying(r ->
                assertThat(r).startsWith("--faults restart-lake kills the lake's store"));
        assertThat(Fault.refusal(moveAndLake, Deployment.clusterUp(Optional.empty()))).hasValueSatisfying(r ->
                assertThat(r).startsWith("--faults move-tablet brings a tablet server back on a new port"));
        List<Fault> lake = Fault.parse("restart-lake@2", 5);
        assertThat(Fault.refusal(lake, Deployment.clusterUp(Optional.empty()))).isEmpty();
        assertThat(Fault.refusal(lake, Deployment.clusterUp(Optional.of("gcs keeps nothing"))))
                .contains("gcs keeps nothing");
        assertThat(Fault.Kind.RESTART_LAKE.nemesis().refusal(Deployment.forSearch())).hasValueSatisfying(r ->
                assertThat(r).startsWith("restart-lake needs cluster up's cluster"));
        assertThat(Fault.Kind.PAUSE_LEADER.nemesis().refusal(Deployment.embedded())).hasValueSatisfying(r ->
                assertThat(r).startsWith("--faults pause-leader stops a server process (SIGSTOP)"));
        assertThat(Fault.Kind.PAUSE_LEADER.nemesis().refusal(Deployment.forSearch())).hasValueSatisfying(r ->
                assertThat(r).contains("a search runs on an embedded cluster"));
        assertThat(Fault.Kind.PAUSE_FOLLOWER.nemesis().refusal(Deployment.embedded())).hasValueSatisfying(r ->
                assertThat(r).startsWith("--faults pause-follower stops a server process (SIGSTOP)"));
        for (Fault.Kind kind : Fault.Kind.values()) {
            boolean everywhere = kind != Fault.Kind.RESTART_LAKE && kind != Fault.Kind.MOVE_TABLET
                    && kind != Fault.Kind.PAUSE_LEADER && kind != Fault.Kind.PAUSE_FOLLOWER && !network(kind);
            assertThat(kind.nemesis().refusal(Deployment.clusterUp(Optional.empty())).isEmpty()
                    && kind.nemesis().refusal(Deployment.embedded()).isEmpty()).as(kind.name()).isEqualTo(everywhere);
        }
    }

    @Test
    void runsRefuseWhatTheirTieringAndLakeCannotTake() {
        LakeLocation local = LakeLocation.local(Path.of("/tmp/wh"));
        LakeLocation s3 = LakeLocation.parse("--warehouse", "s3://bucket/wh", null,
                java.util.Map.of("AWS_ACCESS_KEY_ID", "id", "AWS_SECRET_ACCESS_KEY", "secret"));
        assertThat(Fault.refusal(Fault.parse("restart-tiering@1", 5), new RunSetup(false, local)))
                .hasValueSatisfying(r -> assertThat(r).contains("there is none to restart"));
        assertThat(Fault.refusal(Fault.parse("restart-tiering@1", 5), new RunSetup(true, local))).isEmpty();
        assertThat(Fault.refusal(Fault.parse("lake-outage@1", 5), new RunSetup(true, s3)))
                .hasValueSatisfying(r -> assertThat(r).endsWith("not in s3://bucket/wh"));
        assertThat(Fault.refusal(Fault.parse("lake-outage@1", 5), new RunSetup(true, local))).isEmpty();
    }
}
