package dev.tierproof.report;

/**
 * When one fault held, on the clock of the run's lake watch (milliseconds since it started): drawn
 * as a band over the tier-lag plots. A fault that does not last (a restart) holds while it strikes.
 *
 * @param fault the fault as its schedule names it, {@code pause-leader@60+6s}
 * @param fromMillis when it struck
 * @param toMillis when it healed (or its strike ended)
 */
public record FaultBand(String fault, long fromMillis, long toMillis) {}
