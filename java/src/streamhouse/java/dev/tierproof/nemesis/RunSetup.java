package dev.tierproof.nemesis;

import dev.tierproof.paimon.LakeLocation;

/**
 * How a run tiers and where its lake is, as far as faults care.
 *
 * @param ownTiering whether the run runs Fluss's tiering job itself (else the cluster's service)
 * @param warehouse the lake's warehouse, or null when none is known yet
 */
public record RunSetup(boolean ownTiering, LakeLocation warehouse) {}
