package dev.tierproof.nemesis;

/**
 * A step that strikes no server and no store: a step of the table's life (a compaction, an
 * {@code ALTER}) or a restart of the tiering job. What runs after it may share what it ran on.
 */
interface SparesServers extends Nemesis {
    @Override
    default boolean touchesServers() {
        return false;
    }
}
