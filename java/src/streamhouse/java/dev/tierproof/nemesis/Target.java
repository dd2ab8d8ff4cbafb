package dev.tierproof.nemesis;

import dev.tierproof.paimon.LakeLocation;

/**
 * What a fault strikes in one run.
 *
 * @param servers the cluster's servers
 * @param tiering the run's own tiering job, which a fault restarts
 * @param warehouse the lake's warehouse
 * @param database the table's database
 * @param table the table the run writes
 * @param roles the tablet servers by role (the leader of a bucket the run writes, a follower), as
 *     Fluss's metadata says at the moment it is asked: a fault names its target by role, not by number
 * @param options the table's options, as {@code ALTER TABLE} sees them
 * @param schema the table's columns, as {@code ALTER TABLE … ADD} changes them
 */
public record Target(Servers servers, TieringService tiering, LakeLocation warehouse, String database, String table,
        Roles roles, TableOptions options, TableSchema schema) {
    /** No table options or schema in reach. */
    public Target(Servers servers, TieringService tiering, LakeLocation warehouse, String database, String table,
            Roles roles) {
        this(servers, tiering, warehouse, database, table, roles, TableOptions.NONE, TableSchema.NONE);
    }

    /** No table schema in reach. */
    public Target(Servers servers, TieringService tiering, LakeLocation warehouse, String database, String table,
            Roles roles, TableOptions options) {
        this(servers, tiering, warehouse, database, table, roles, options, TableSchema.NONE);
    }
}
