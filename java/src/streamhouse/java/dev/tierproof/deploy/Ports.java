package dev.tierproof.deploy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for a cluster's servers, chosen before they start. A port the kernel hands out as free
 * (bind to port 0) lies in its ephemeral range, from which every outgoing connection on the
 * machine also takes its local port: between choosing it and the server binding it, a connection
 * may take it, and the server fails to start (SeaweedFS's filer did so once while five test JVMs
 * ran beside it). So a port is chosen below that range, where only servers that name their port
 * bind, checked free, and never handed out twice by this JVM.
 */
final class Ports {
    private static final Path EPHEMERAL = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** The lowest port chosen: above the ports well-known services are configured on. */
    private static final int LOWEST = 10_000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private Ports() {}

    /** A port on loopback that nothing listens on now, below the ephemeral range where the system says where it is. */
    static int free() throws IOException {
        int below = ephemeralStart();
        for (int i = 0; below - LOWEST > 1_000 && i < 500; i++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
            if (HANDED_OUT.add(port) && bindable(port)) {
                return port;
            }
        }
        try (ServerSocket s = new ServerSocket(0, 1, loopback())) {
            return s.getLocalPort();
        }
    }

    /** The first port of the kernel's ephemeral range (Linux's default, 32768, where it cannot be read). */
    static int ephemeralStart() {
        try {
            // Read to its end as a stream: Files.readString gave "3" of "32768\t60999" here (a proc file's
            // size reads as 0).
            try (var in = Files.newInputStream(EPHEMERAL)) {
                return Integer.parseInt(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII)
                        .trim().split("\\s+")[0]);
            }
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, loopback())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    private static InetAddress loopback() throws IOException {
        return InetAddress.getByName(ProcessCluster.LOOPBACK);
    }
}
