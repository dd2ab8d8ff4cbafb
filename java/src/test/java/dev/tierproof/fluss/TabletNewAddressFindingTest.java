package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.support.FlussClusterExtension;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pins docs/findings/fluss-0.9-tablet-new-address-tiering-stalls.md in the Fluss client alone: an
 * {@code Admin} sends its metadata requests to a tablet server it cached, and when that server
 * comes back at a new address (same id and data, another port) nothing refreshes the cache — every
 * request fails (it is sent to the old address), for good, while a new connection works at once. The
 * tiering job asks its table's info that way, so it never tiers again (apache/fluss#3389, fixed
 * after 0.9 by #3390). When the Fluss version tierproof runs has the fix, this test fails and the
 * finding's note goes.
 */
class TabletNewAddressFindingTest {
    @RegisterExtension
    static final FlussClusterExtension FLUSS = new FlussClusterExtension(1);

    @Test
    void anAdminNeverFindsATabletServerThatCameBackAtANewAddress() throws Exception {
        LocalFlussCluster cluster = FLUSS.cluster();
        try (Connection old = ConnectionFactory.createConnection(cluster.clientConfig())) {
            Admin admin = old.getAdmin();
            List<String> before = admin.listDatabases().get(10, TimeUnit.SECONDS);
            cluster.restartTabletServer(0, false);

            // 10 s of asking, once a second (a same-port restart is seen in ~3 s): not one answer.
            String last = null;
            int answered = 0;
            for (int i = 0; i < 10; i++) {
                try {
                    admin.listDatabases().get(10, TimeUnit.SECONDS);
                    answered++;
                } catch (ExecutionException e) {
                    last = String.valueOf(e.getCause());
                }
                Thread.sleep(1_000);
            }
            assertThat(answered).as("answers from the admin made before the move (last failure: %s)", last)
                    .isZero();
            // It still asks the old address ("Disconnected from node …" or "Cannot send request to
            // server … because it is disconnected"): the port before the move, not the one it has now.
            int now = cluster.ports().get(cluster.ports().size() - 1);
            Matcher asked = Pattern.compile("127\\.0\\.0\\.1:(\\d+) \\(id: ts-0")
                    .matcher(String.valueOf(last));
            assertThat(asked.find()).as(last).isTrue();
            assertThat(Integer.parseInt(asked.group(1))).as(last).isNotEqualTo(now);

            try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfig())) {
                assertThat(fresh.getAdmin().listDatabases().get(10, TimeUnit.SECONDS)).isEqualTo(before);
            }
        }
    }
}
