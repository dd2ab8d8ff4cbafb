package dev.tierproof.nemesis;

import dev.tierproof.paimon.LakeLocation;
import java.util.function.IntSupplier;

/**
 * What a fault strikes in one run.
 *
 * @param servers the cluster's servers
 * @param tiering restarts the run's own tiering job
 * @param warehouse the lake's warehouse
 * @param database the table's database
 * @param table the table the run writes
 * @param leader the id of the tablet server that leads a bucket the run writes, as Fluss's
 *     metadata says at the moment it is asked (a fault names its target by role, not by number)
 */
public record Target(Servers servers, Runnable tiering, LakeLocation warehouse, String database, String table,
        IntSupplier leader) {}
