package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;

/**
 * A fault left the cluster without one of its servers (restarting it failed): whatever runs on the
 * cluster next runs on a broken one, so its verdict is no evidence. A search stops here.
 */
public final class ClusterBroken extends TierproofException {
    public ClusterBroken(String message, Throwable cause) {
        super(message, cause);
    }
}
