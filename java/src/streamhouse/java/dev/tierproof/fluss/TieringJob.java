package dev.tierproof.fluss;

import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.paimon.LakeLocation;
import java.time.Duration;

/**
 * The lake tiering job of one proof, which a fault may cancel and start again; or none of
 * tierproof's, when the cluster's own tiering service tiers the table.
 */
public final class TieringJob implements AutoCloseable {
    private final FlinkEngine engine;
    private final FlussCluster cluster;
    private final LakeLocation warehouse;
    private final Duration checkpoints;
    /** null: the cluster's own tiering service tiers the table (nothing to watch, restart or stop). */
    private Tiering current;

    public TieringJob(FlinkEngine engine, FlussCluster cluster, LakeLocation warehouse, Duration checkpoints, boolean own) {
        this.engine = engine;
        this.cluster = cluster;
        this.warehouse = warehouse;
        this.checkpoints = checkpoints;
        this.current = own ? Tiering.start(engine, cluster, warehouse, FlussCatalog.TIERING_POLL, checkpoints) : null;
    }

    /** Why the running tiering job failed, or null. */
    public synchronized String failure() {
        return current == null ? null : current.failure();
    }

    public synchronized void restart() {
        if (current == null) {
            throw new IllegalStateException("no tiering job of tierproof's to restart");
        }
        current.close();
        current = Tiering.start(engine, cluster, warehouse, FlussCatalog.TIERING_POLL, checkpoints);
    }

    @Override
    public synchronized void close() {
        if (current != null) {
            current.close();
        }
    }
}
