package dev.tierproof.nemesis;

import java.util.function.Supplier;

/**
 * The run's own lake tiering job, as a fault restarts it.
 *
 * @param restart cancels it and, once it is gone, starts it again as it ran
 * @param restartWithOtherSettings as {@code restart}, with other settings; says which changed and how
 *     ({@code checkpoints none -> every 2000 ms, …})
 */
public record TieringService(Runnable restart, Supplier<String> restartWithOtherSettings) {}
