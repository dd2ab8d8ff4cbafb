package dev.tierproof.nemesis;

import dev.tierproof.paimon.LakeLocation;

/**
 * What a fault strikes in one run.
 *
 * @param servers the cluster's servers
 * @param tiering restarts the run's own tiering job
 * @param warehouse the lake's warehouse
 * @param database the table's database
 * @param table the table the run writes
 */
public record Target(Servers servers, Runnable tiering, LakeLocation warehouse, String database, String table) {}
