package dev.tierproof.fluss;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.fluss.client.metadata.LakeSnapshot;

/**
 * Fluss 0.9.1's GetLakeSnapshot can fail while tiering commits: the server reads the lake table's
 * ZooKeeper node, the coordinator registers a newer snapshot and deletes the offsets file the
 * older node named, and the server's open of that file fails ({@code FileNotFoundException}, or an
 * object store's 404). Asked again, the server reads the new node. Upstream names the race
 * (apache/fluss#3919) and fixed it for leader election only
 * (docs/findings/fluss-0.9-lake-snapshot-read-races-commit.md).
 */
final class LakeSnapshotRace {
    /** How often a request that lost the race is asked again: each retry reads the newer node. */
    static final int RETRIES = 3;

    private LakeSnapshotRace() {}

    /** Whether {@code failure} is that race: a server error naming a lake offsets file it could not open. */
    static boolean lostTo(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage());
            if (m.contains(".offsets") && (m.contains("FileNotFoundException") || m.contains("NoSuchKey")
                    || m.contains("No such file"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The answer to {@code ask}, asked again (at most {@link #RETRIES} times) while it loses the
     * race; any other failure, or the race lost every time, is thrown as it came.
     */
    static LakeSnapshot ask(Supplier<CompletableFuture<LakeSnapshot>> ask, long timeoutMillis)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (int attempt = 0;; attempt++) {
            try {
                return ask.get().get(timeoutMillis, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (attempt >= RETRIES || !lostTo(e.getCause())) {
                    throw e;
                }
            }
        }
    }
}
