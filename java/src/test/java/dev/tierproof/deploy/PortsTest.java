package dev.tierproof.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("quick")
class PortsTest {
    @Test
    void portsAreFreeBelowTheEphemeralRangeAndNeverHandedOutTwice() throws Exception {
        int ephemeral = Ports.ephemeralStart();
        assertThat(ephemeral).isGreaterThan(1024);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            int port = Ports.free();
            assertThat(seen.add(port)).as("port %d handed out twice", port).isTrue();
            assertThat(port).isBetween(10_000, ephemeral - 1);
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                assertThat(s.getLocalPort()).isEqualTo(port);
            }
        }
    }
}
