package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Fluss 0.9.1's coordinator can miss a table created under load (apache/fluss#1018, fixed on main
 * by PR #2710): it never elects leaders for it, and the table's first partition leaves it unable to
 * elect leaders for any new table. Writes to such a table wait for ever.
 *
 * <p>This is a finding about the cluster's availability, not about the promise the proof checks,
 * and it strikes before anything is written. So on a cluster tierproof runs (the embedded one,
 * or {@code cluster up}'s), a table the coordinator missed is reported, and the coordinator is
 * restarted, as an operator would, so that it reads the table from ZooKeeper; the proof then goes
 * on and its report says so. On a cluster elsewhere tierproof cannot tell, and restarts nothing.
 */
public final class MissedTable {
    static final String FINDING = "docs/findings/fluss-0.9-lost-create-table-event.md";

    /** How long a coordinator may take to take a new table in, on a loaded machine, before it has missed it. */
    static final Duration NOTICE = Duration.ofSeconds(20);

    private MissedTable() {}

    /**
     * Checks that the coordinator took table {@code path} in; restarts it when it did not.
     *
     * @return what was found and done, for the run's report; empty when the coordinator knows the
     *     table, or the cluster cannot tell
     */
    public static Optional<String> check(FlussCluster cluster, TablePath path, Consumer<String> say) {
        return check(cluster, path, tableInfo(cluster, path).getTableId(), say);
    }

    /** As above, for the table of id {@code tableId}. */
    public static Optional<String> check(FlussCluster cluster, TablePath path, long tableId, Consumer<String> say) {
        if (known(cluster, path, tableId, NOTICE)) {
            return Optional.empty();
        }
        String finding = "Fluss's coordinator missed table " + path + " (id " + tableId + ") when it was created"
                + " (apache/fluss#1018: " + FINDING + ")";
        say.accept(finding + ": restarting the coordinator, as an operator would, so that it reads the table from"
                + " ZooKeeper");
        try {
            cluster.restartCoordinator();
        } catch (RuntimeException e) {
            throw new TierproofException(finding + "; restarting the coordinator failed: " + e.getMessage(), e);
        }
        return Optional.of(finding + "; tierproof restarted the coordinator before writing");
    }

    /** Whether the coordinator took the table in within {@code wait}; true when the cluster cannot tell. */
    private static boolean known(FlussCluster cluster, TablePath path, long tableId, Duration wait) {
        long end = System.nanoTime() + wait.toNanos();
        while (true) {
            Optional<Boolean> known = cluster.coordinatorKnows(path, tableId);
            if (known.isEmpty() || known.get()) {
                return true;
            }
            if (System.nanoTime() > end) {
                return false;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TierproofException("interrupted while asking the coordinator about " + path, e);
            }
        }
    }

    private static TableInfo tableInfo(FlussCluster cluster, TablePath path) {
        try (Connection connection = Clients.open(cluster.clientConfig())) {
            return connection.getAdmin().getTableInfo(path).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while reading the id of " + path, e);
        } catch (Exception e) {
            throw new TierproofException("could not read the id of " + path + ": " + e.getMessage(), e);
        }
    }
}
