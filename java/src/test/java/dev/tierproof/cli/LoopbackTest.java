package dev.tierproof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.fluss.LocalFlussCluster;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.util.Processes;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every server a run starts (Flink's REST endpoint, blob server and RPC; ZooKeeper; the Fluss
 * coordinator and tablet server) listens on 127.0.0.1 only: read from the kernel's own socket
 * tables for this process, so nothing can hide.
 */
class LoopbackTest {
    @TempDir
    Path dir;

    record Listener(String address, int port) {}

    @Test
    void noServerOfTheRunListensOnAWildcardAddress() throws Exception {
        // Closed in reverse: the tiering job (cancelled), Flink (which waits for it), then Fluss.
        try (LocalFlussCluster cluster = LocalFlussCluster.start(1, Tiering.clusterOptions(dir.resolve("wh")),
                        dir.resolve("fluss"));
                FlinkEngine engine = FlinkEngine.start(4, dir.resolve("flink"));
                Tiering tiering = Tiering.start(engine, cluster, dir.resolve("wh"), Duration.ofMillis(500))) {
            // With jobs running, too: the tiering job, and a streaming read whose results come back
            // through Flink's collect sink (a socket of its own).
            TableEnvironment tables = engine.streamingTables();
            tables.executeSql("CREATE TEMPORARY TABLE numbers (x INT) WITH ('connector' = 'datagen',"
                    + " 'rows-per-second' = '5')");
            TableResult read = tables.executeSql("SELECT x FROM numbers");
            List<Listener> listeners;
            try (CloseableIterator<Row> rows = read.collect()) {
                assertTrue(rows.hasNext());
                listeners = listeners();
            }
            // ZooKeeper, the coordinator, the tablet server, Flink's REST endpoint and blob server.
            assertTrue(listeners.size() >= 5, listeners.toString());
            for (Listener l : listeners) {
                assertTrue(l.address().equals("127.0.0.1") || l.address().equals("::ffff:127.0.0.1"),
                        "listening on " + l + " (all: " + listeners + ")");
            }
            assertTrue(listeners.stream().anyMatch(l -> cluster.ports().contains(l.port())), listeners.toString());
        }
    }

    /** This process's listening TCP sockets, from /proc/net/tcp and tcp6 matched by socket inode. */
    static List<Listener> listeners() throws IOException {
        return listeners("self");
    }

    /** The listening TCP sockets of process {@code pid} (another process of this user's, or "self"). */
    static List<Listener> listeners(String pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", pid, "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException gone) {
                    // closed while listing
                }
            }
        }
        List<Listener> out = new ArrayList<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                // f[1] local address:port (hex), f[3] state (0A = LISTEN), f[9] inode
                if (f[3].equals("0A") && inodes.contains(f[9])) {
                    String[] local = f[1].split(":");
                    out.add(new Listener(address(local[0]), Integer.parseInt(local[1], 16)));
                }
            }
        }
        return out;
    }

    /** A /proc/net address: IPv4 as one little-endian word, IPv6 as four. */
    static String address(String hex) {
        if (hex.length() == 8) {
            return ipv4(hex);
        }
        if (hex.equals("0".repeat(32))) {
            return "::";
        }
        if (hex.startsWith("0000000000000000FFFF0000")) {
            return "::ffff:" + ipv4(hex.substring(24));
        }
        if (hex.equals("00000000000000000000000001000000")) {
            return "::1";
        }
        return hex;
    }

    private static String ipv4(String hex) {
        long v = Long.parseLong(hex, 16);
        return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 24) & 0xff);
    }

    /**
     * A process of a cluster, as {@code up} listed it: its pid, and when it started, since a pid
     * is reused once its process has ended (a server restarted mid-test ends early, and a test JVM
     * started later took its pid once).
     */
    record Started(long pid, java.util.Optional<java.time.Instant> start) {
        /** Whether this very process still runs: its pid runs, and that process started when this one did. */
        boolean running() {
            return Processes.running(pid) && ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).equals(start);
        }

        @Override
        public String toString() {
            return String.valueOf(pid);
        }
    }

    /** The processes {@code up} listed ({@code parts} of them), each checked to listen on loopback only. */
    static List<Started> clusterOnLoopback(String upOut, int parts) throws IOException {
        List<String> pids = java.util.regex.Pattern.compile("pid (\\d+)").matcher(upOut).results()
                .map(r -> r.group(1)).toList();
        assertEquals(parts, pids.size(), upOut);
        List<Started> started = new ArrayList<>();
        for (String pid : pids) {
            List<Listener> listeners = listeners(pid);
            assertTrue(!listeners.isEmpty() && listeners.stream().allMatch(l -> l.address().equals("127.0.0.1")
                    || l.address().equals("::ffff:127.0.0.1")), "pid " + pid + " listens on " + listeners);
            long id = Long.parseLong(pid);
            java.util.Optional<java.time.Instant> start = ProcessHandle.of(id).flatMap(h -> h.info().startInstant());
            assertTrue(start.isPresent(), "pid " + pid + " has ended or shows no start time");
            started.add(new Started(id, start));
        }
        return started;
    }

    /** Those of {@code processes} that still run, each with its state and command line (empty: none). */
    static List<String> stillRunning(List<Started> processes) {
        return processes.stream().filter(Started::running)
                .map(p -> p.pid() + " (state " + Processes.state(p.pid()) + "): " + ProcessHandle.of(p.pid())
                        .flatMap(h -> h.info().commandLine()).orElse("?"))
                .toList();
    }
}
