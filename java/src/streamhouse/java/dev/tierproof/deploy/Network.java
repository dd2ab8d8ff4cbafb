package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code cluster up --network isolated}: each Fluss server (ZooKeeper, the coordinator, every
 * tablet server) in a network namespace of its own, joined to the host by a veth pair on a bridge
 * the cluster makes, on a /24 of its own; the host side (the lake's store, Flink, the clients)
 * reaches them through the bridge. Network faults then act inside those namespaces only: routes
 * that drop a server's traffic ({@code blackhole}), or {@code tc netem} on its link. Nothing is
 * made on an interface the cluster did not create. Everything is named by the cluster's token
 * ({@code tierproof-<token>-tablet-1}, bridge {@code tpb<token>}), written to the cluster's
 * {@code network} file, removed by {@code cluster down} and swept by the next {@code cluster up}
 * when its cluster is gone (a {@code kill -9} of the JVM that was making it, before its state file).
 */
final class Network {
    /** The file in a cluster's directory that names what its network holds. */
    static final String FILE = "network";
    /** Where each network's owner directory is noted, for the sweep. */
    static final Owners OWNERS = new Owners(Path.of("/run/tierproof-networks"));
    private static final String PREFIX = "tierproof-";

    private final String token;
    private final int subnet;
    private final Map<String, Integer> hosts = new LinkedHashMap<>();

    private Network(String token, int subnet) {
        this.token = token;
        this.subnet = subnet;
    }

    /** The bridge's name: at most 15 characters, as Linux allows. */
    String bridge() {
        return "tpb" + token;
    }

    /** The host side's address on the bridge: the lake's store listens here, clients come from here. */
    String hostAddress() {
        return address(1);
    }

    private String address(int host) {
        return "10.233." + subnet + "." + host;
    }

    /** Part {@code name}'s namespace. */
    String namespace(String name) {
        return PREFIX + token + "-" + name;
    }


    /**
     * The command prefix that runs part {@code name} of the cluster in {@code dir} in its namespace
     * ({@code ip netns exec …}), when the cluster has an isolated network and the part a namespace
     * in it; none otherwise.
     */
    static List<String> execPrefix(Path dir, String name) {
        try {
            Path file = dir.resolve(FILE);
            if (!Files.isRegularFile(file)) {
                return List.of();
            }
            String ns = PREFIX + Files.readString(file).trim().split(" ")[0] + "-" + name;
            return Files.exists(Path.of("/run/netns", ns)) ? List.of("ip", "netns", "exec", ns) : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Refuses up front, naming what is missing, when this machine cannot make namespaces (not
     * root, no {@code CAP_NET_ADMIN}, no iproute2): before anything starts.
     */
    static void checkPrivileges() {
        String probe = PREFIX + "probe-" + ProcessHandle.current().pid();
        try {
            Launcher.exec("ip", "netns", "add", probe);
            Launcher.exec("ip", "netns", "del", probe);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--network isolated puts each Fluss server in a network namespace of"
                    + " its own, which needs root (CAP_NET_ADMIN) and iproute2's ip command; here: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Makes the bridge on a free 10.233.X.0/24 and notes it in {@code dir}; nothing is in it yet.
     * Free means: no route in any table and no address on this machine overlaps it, and no other
     * cluster's token or bridge has its name. One JVM at a time chooses (a lock file), so two
     * {@code up}s never take the same.
     */
    static Network create(Path dir) {
        sweep();
        try (var lock = OWNERS.lock()) {
            java.util.List<long[]> taken = Cidr.taken(Launcher.exec("ip", "-4", "-o", "route", "show", "table",
                    "all") + "\n" + Launcher.exec("ip", "-4", "-o", "addr", "show"));
            long seed = (dir.toAbsolutePath().toString().hashCode() & 0xffffffL) ^ ProcessHandle.current().pid();
            for (int i = 0; i < 256; i++) {
                String token = Long.toHexString((seed + i * 7919L) & 0xffffffL);
                int subnet = (int) ((seed + i) % 256);
                if (OWNERS.noted(token) || Files.exists(Path.of("/sys/class/net", "tpb" + token))
                        || !namespaces(token).isEmpty() || Cidr.overlaps(taken, "10.233." + subnet + ".0/24")) {
                    continue;
                }
                Network net = new Network(token, subnet);
                net.note(dir);
                Launcher.exec("ip", "link", "add", net.bridge(), "type", "bridge");
                Launcher.exec("ip", "addr", "add", net.hostAddress() + "/24", "dev", net.bridge());
                Launcher.exec("ip", "link", "set", net.bridge(), "up");
                return net;
            }
        } catch (IOException e) {
            throw new TierproofException("could not choose the cluster's network: " + e.getMessage(), e);
        }
        throw new TierproofException("no free 10.233.X.0/24 (and name) for the cluster's network: every one"
                + " overlaps a route or an address of this machine, or another cluster's");
    }

    /** Part {@code name} gets a namespace, a veth pair on the bridge and the next address. */
    String add(String name) {
        int host = 2 + hosts.size();
        hosts.put(name, host);
        String ns = namespace(name);
        String outside = "tpv" + token + host;
        Launcher.exec("ip", "netns", "add", ns);
        Launcher.exec("ip", "link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", ns);
        Launcher.exec("ip", "link", "set", outside, "master", bridge(), "up");
        Launcher.exec("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
        Launcher.exec("ip", "netns", "exec", ns, "ip", "addr", "add", address(host) + "/24", "dev", "eth0");
        Launcher.exec("ip", "netns", "exec", ns, "ip", "link", "set", "eth0", "up");
        return address(host);
    }

    /** Writes what the network holds to the cluster's {@code network} file and notes its owner, for the sweep. */
    private void note(Path dir) {
        try {
            Files.writeString(dir.resolve(FILE), token + " " + subnet + "\n");
            OWNERS.note(token, dir);
        } catch (IOException e) {
            throw new TierproofException("could not note the cluster's network: " + e.getMessage(), e);
        }
    }

    /** The network of the cluster in {@code dir}, as its {@code network} file names it, if it has one. */
    static java.util.Optional<Network> of(Path dir) {
        try {
            Path file = dir.resolve(FILE);
            if (!Files.isRegularFile(file)) {
                return java.util.Optional.empty();
            }
            String[] words = Files.readString(file).trim().split(" ");
            Network net = new Network(words[0], Integer.parseInt(words[1]));
            for (String ns : namespaces(words[0])) {
                String name = ns.substring((PREFIX + words[0] + "-").length());
                String addr = Launcher.exec("ip", "netns", "exec", ns, "ip", "-4", "-o", "addr", "show", "dev",
                        "eth0");
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("10\\.233\\.\\d+\\.(\\d+)/").matcher(addr);
                if (m.find()) {
                    net.hosts.put(name, Integer.parseInt(m.group(1)));
                }
            }
            return java.util.Optional.of(net);
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    /**
     * Removes the network of the cluster in {@code dir}, by the token its {@code network} file names
     * (whatever {@code ip} says of its parts); the bridge's name, or empty when it has none.
     */
    static java.util.Optional<String> removeFor(Path dir) {
        try {
            Path file = dir.resolve(FILE);
            if (!Files.isRegularFile(file)) {
                return java.util.Optional.empty();
            }
            String token = Files.readString(file).trim().split(" ")[0];
            removeToken(token);
            Files.deleteIfExists(file);
            return java.util.Optional.of("tpb" + token);
        } catch (IOException e) {
            throw new TierproofException("could not read " + dir.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }


    private static void removeToken(String token) {
        for (String ns : namespaces(token)) {
            runQuietly("ip", "netns", "del", ns);
        }
        runQuietly("ip", "link", "del", "tpb" + token);
        try {
            OWNERS.forget(token);
        } catch (IOException e) {
            // noted again by the next sweep, which finds no namespace for it
        }
    }

    /** The namespaces named by {@code token}. */
    private static List<String> namespaces(String token) {
        List<String> out = new ArrayList<>();
        for (String line : runQuietly("ip", "netns", "list").split("\n")) {
            String name = line.split(" ")[0].trim();
            if (name.startsWith(PREFIX + token + "-")) {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * Removes the networks whose cluster is gone: its directory has no state file or no network
     * file, and the JVM that made it has ended (a {@code kill -9} while it brought the cluster up).
     * A cluster another JVM is bringing up right now is left alone.
     */
    static void sweep() {
        OWNERS.sweep(dir -> Files.isRegularFile(dir.resolve(FILE)) && Files.isRegularFile(dir.resolve(
                ProcessCluster.STATE)), (token, dir) -> removeToken(token));
    }

    /**
     * Cuts part {@code name} off as {@code cut} says ({@code zookeeper}: the cluster's ZooKeeper
     * {@code host:port}); returns what heals it, safe to run twice. Should this JVM end first, it
     * heals on its way out: no server is left cut off.
     */
    Runnable cut(String name, dev.tierproof.nemesis.Cut cut, String zookeeper) {
        if (!hosts.containsKey(name)) {
            throw new IllegalArgumentException(name + " has no network namespace in this cluster; it has "
                    + hosts.keySet());
        }
        List<String> to = switch (cut) {
            case ISOLATE -> everyone();
            case FROM_ZOOKEEPER -> List.of(zookeeper.substring(0, zookeeper.lastIndexOf(':')) + "/32");
            case FROM_CLIENTS -> List.of(hostAddress() + "/32");
            case FROM_SERVERS -> hosts.entrySet().stream()
                    .filter(h -> !h.getKey().equals(name) && !h.getKey().equals("zookeeper"))
                    .map(h -> address(h.getValue()) + "/32").toList();
            case SLOW -> List.of();
        };
        Runnable heal = HealOnExit.arm(name, cut == dev.tierproof.nemesis.Cut.SLOW ? () -> unslow(name)
                : () -> restore(name, to));
        try {
            if (cut == dev.tierproof.nemesis.Cut.SLOW) {
                slow(name, "200ms", "5%");
            } else {
                blackhole(name, to);
            }
        } catch (RuntimeException e) {
            heal.run(); // a half-made cut (one route of two) is undone at once
            throw e;
        }
        return heal;
    }

    /**
     * Removes every cut a run left in this network's namespaces (its blackhole routes, a netem
     * queue): a run killed while a fault held cannot heal it. What it removed, for the report.
     */
    List<String> clearCuts() {
        List<String> cleared = new ArrayList<>();
        for (String name : hosts.keySet()) {
            String ns = namespace(name);
            for (String line : runQuietly("ip", "netns", "exec", ns, "ip", "route", "show", "type", "blackhole")
                    .split("\n")) {
                String[] words = line.trim().split("\\s+");
                if (words.length >= 2 && words[0].equals("blackhole")) {
                    runQuietly("ip", "netns", "exec", ns, "ip", "route", "del", "blackhole", words[1]);
                    cleared.add(name + " blackhole " + words[1]);
                }
            }
            if (runQuietly("ip", "netns", "exec", ns, "tc", "qdisc", "show", "dev", "eth0").contains("netem")) {
                unslow(name);
                cleared.add(name + " netem");
            }
        }
        return cleared;
    }

    /** Drops every packet part {@code name} sends to {@code to} (addresses or /prefixes), until {@link #restore}. */
    void blackhole(String name, List<String> to) {
        for (String dest : to) {
            Launcher.exec("ip", "netns", "exec", namespace(name), "ip", "route", "add", "blackhole", dest);
        }
    }

    /** Removes the routes {@link #blackhole} added (safe to run twice). */
    void restore(String name, List<String> to) {
        for (String dest : to) {
            runQuietly("ip", "netns", "exec", namespace(name), "ip", "route", "del", "blackhole", dest);
        }
    }

    /** The whole subnet, host included, as two /25s (more specific than the link's own route). */
    List<String> everyone() {
        return List.of("10.233." + subnet + ".0/25", "10.233." + subnet + ".128/25");
    }

    /** Part {@code name}'s link delays and drops packets ({@code tc netem}), until {@link #unslow}. */
    void slow(String name, String delay, String loss) {
        try {
            Launcher.exec("ip", "netns", "exec", namespace(name), "tc", "qdisc", "add", "dev", "eth0", "root",
                    "netem", "delay", delay, "50ms", "loss", loss);
        } catch (TierproofException e) {
            // Not the servers' doing: this machine cannot make the fault (a kernel without sch_netem).
            throw new dev.tierproof.run.RunError("a slow link needs the kernel's netem queueing discipline"
                    + " (sch_netem), which this machine does not offer: " + e.getMessage(), e);
        }
    }

    void unslow(String name) {
        runQuietly("ip", "netns", "exec", namespace(name), "tc", "qdisc", "del", "dev", "eth0", "root");
    }

    private static String runQuietly(String... command) {
        try {
            return Launcher.exec(command);
        } catch (RuntimeException e) {
            return "";
        }
    }
}
