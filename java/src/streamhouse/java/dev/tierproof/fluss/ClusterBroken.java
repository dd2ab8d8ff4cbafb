package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import java.util.Optional;

/**
 * A fault left the cluster without one of its servers (restarting it failed): whatever runs on the
 * cluster next runs on a broken one, so its verdict is no evidence. A search stops here.
 */
public final class ClusterBroken extends TierproofException {
    public ClusterBroken(String message, Throwable cause) {
        super(message, cause);
    }

    /** The broken cluster in {@code e} or among its causes, however a step wrapped it. */
    public static Optional<ClusterBroken> in(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ClusterBroken b) {
                return Optional.of(b);
            }
        }
        return Optional.empty();
    }
}
