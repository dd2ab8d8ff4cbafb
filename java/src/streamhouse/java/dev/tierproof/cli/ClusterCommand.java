package dev.tierproof.cli;

import dev.tierproof.deploy.FaultRoom;
import dev.tierproof.deploy.ProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tierproof cluster up|down|status}: a Fluss cluster of separate processes on this machine. */
@Command(name = "cluster", mixinStandardHelpOptions = true, description = "Start (up), stop and remove (down) or"
        + " show (status) a Fluss cluster as users deploy one: a lake store (SeaweedFS as S3, HDFS, or"
        + " fake-gcs-server as GCS), ZooKeeper, a coordinator and tablet servers and a Flink session cluster,"
        + " each a process of its own on loopback, tiering into a Paimon warehouse in that store.")
final class ClusterCommand extends TierproofCommand {
    @Parameters(index = "0", paramLabel = "up|down|status", description = "what to do")
    String action;

    @Option(names = "--dir", paramLabel = "DIR", description = "the cluster's directory: data, logs, configuration"
            + " (default: tierproof-cluster in the temporary directory)")
    Path dir;

    @Option(names = "--tablet-servers", paramLabel = "N", defaultValue = "2",
            description = "tablet servers to start (default ${DEFAULT-VALUE})")
    int tablets;

    @Option(names = "--flink-without-connectors", description = "run the Flink session cluster as Flink's"
            + " distribution comes, without Paimon and Fluss on its class path: every job then ships them")
    boolean flinkWithoutConnectors;

    @Option(names = "--lake", paramLabel = "s3|hdfs|gcs", defaultValue = "s3", description = "where the Paimon"
            + " warehouse is kept: s3 (SeaweedFS, one process), hdfs (a NameNode and a DataNode) or gcs"
            + " (fake-gcs-server, one process, through Google's GCS connector); default ${DEFAULT-VALUE}")
    String lake;

    @Option(names = "--server-option", paramLabel = "KEY=VALUE", description = "a setting for every Fluss"
            + " server, as server.yaml takes it (repeatable; checked against Fluss's own options), e.g."
            + " log.replica.high-watermark.checkpoint-interval=1min")
    Map<String, String> serverOptions = new java.util.LinkedHashMap<>();

    @Option(names = "--network", paramLabel = "loopback|isolated", defaultValue = "loopback", description = "loopback:"
            + " every server on 127.0.0.1; isolated: each Fluss server (ZooKeeper, coordinator, tablet servers) in a"
            + " network namespace of its own on a bridge the cluster makes, so that partition faults can cut it off"
            + " (root only; --lake s3); default ${DEFAULT-VALUE}")
    String network;

    @Option(names = "--tablet-disk", paramLabel = "MIB", defaultValue = "0", description = "each tablet server's data"
            + " on a filesystem of its own of MIB mebibytes (a tmpfs the cluster mounts, root only), so that"
            + " fill-leader-disk can fill it; 0 for the cluster's directory (default ${DEFAULT-VALUE})")
    int tabletDiskMiB;

    @Option(names = "--clocks", description = "each tablet server on a clock of its own (libfaketime), so that"
            + " clock faults (clock-ahead-leader, clock-behind-leader) can move it; the machine's clock is never"
            + " touched")
    boolean clocks;

    @Option(names = "--deadline-s", paramLabel = "N", defaultValue = "60",
            description = "how long each server may take to start, and to stop before it is killed (default"
                    + " ${DEFAULT-VALUE})")
    int deadlineSeconds;

    @Override
    public Integer call() {
        // Not java.io.tmpdir: that is this run's own directory, removed when the command ends.
        Path where = (dir != null ? dir : Main.SYSTEM_TMP.resolve("tierproof-cluster")).toAbsolutePath().normalize();
        if (deadlineSeconds < 1 || deadlineSeconds > 600) {
            throw new IllegalArgumentException("--deadline-s " + deadlineSeconds + " must be between 1 and 600");
        }
        Duration deadline = Duration.ofSeconds(deadlineSeconds);
        switch (action) {
            case "up" -> {
                ProcessCluster.Lake store = switch (lake) {
                    case "s3" -> ProcessCluster.Lake.S3;
                    case "hdfs" -> ProcessCluster.Lake.HDFS;
                    case "gcs" -> ProcessCluster.Lake.GCS;
                    default -> throw new IllegalArgumentException("--lake " + lake + " is not s3, hdfs or gcs");
                };
                boolean isolated = switch (network) {
                    case "loopback" -> false;
                    case "isolated" -> true;
                    default -> throw new IllegalArgumentException("--network " + network + " is not loopback or"
                            + " isolated");
                };
                ProcessCluster.State s = ProcessCluster.up(where, tablets, !flinkWithoutConnectors, store, serverOptions,
                        new FaultRoom(isolated, tabletDiskMiB, clocks), deadline,
                        dev.tierproof.run.Progress.to(main.err));
                print(s);
                main.out.println("prove on it  : ./build.sh run streamhouse --cluster " + s.dir());
                main.out.println("  or         : ./build.sh run streamhouse --fluss " + s.fluss() + " --warehouse "
                        + s.warehouse() + (s.conf() != null ? " --conf " + s.conf() : "")
                        + (s.hasFlink() ? " --flink " + s.flink() : "")
                        + (s.hasFlink() && !s.flinkHasConnectors() ? " --ship-connectors" : ""));
                return Main.CONSISTENT;
            }
            case "status" -> {
                var state = ProcessCluster.read(where);
                if (state.isEmpty()) {
                    main.out.println("no cluster is up in " + where);
                    return Main.INCONSISTENT;
                }
                print(state.get());
                Map<String, Boolean> alive = ProcessCluster.alive(state.get());
                return alive.values().stream().allMatch(a -> a) ? Main.CONSISTENT : Main.INCONSISTENT;
            }
            case "down" -> {
                ProcessCluster.down(where, deadline).forEach(main.out::println);
                return Main.CONSISTENT;
            }
            default -> throw new IllegalArgumentException("cluster " + action + ": say up, down or status");
        }
    }

    private void print(ProcessCluster.State s) {
        Map<String, Boolean> alive = ProcessCluster.alive(s);
        main.out.println("cluster      : " + s.dir());
        main.out.println("zookeeper    : " + s.zookeeper());
        main.out.println("fluss        : " + s.fluss() + " (the coordinator: --fluss)");
        main.out.println("warehouse    : " + s.warehouse() + " (its Paimon lake: --warehouse"
                + (s.conf() != null ? "; its store's settings: --conf " + s.conf() : "") + ")");
        if (s.hasFlink()) {
            main.out.println("flink        : " + s.flink() + " (a session cluster's REST endpoint: --flink"
                    + (s.flinkHasConnectors() ? "" : "; no Paimon or Fluss on its class path: --ship-connectors") + ")");
        }
        s.parts().forEach((name, p) -> main.out.printf("%-13s: %s, pid %d, %s%n", name, p.endpoint(), p.pid(),
                alive.get(name) ? "running" : "NOT RUNNING"));
    }
}
