package dev.tierproof.deploy;

/**
 * A fault's heal that also runs when this JVM ends first (Ctrl-C, a failure): no server is left
 * stopped, cut off or on a full disk by a run that is gone.
 */
final class HealOnExit {
    private HealOnExit() {}

    /**
     * Arms {@code heal} to run on the JVM's way out, and returns what runs it now instead (and
     * disarms it). {@code heal} must be safe to run twice.
     */
    static Runnable arm(String name, Runnable heal) {
        Thread onExit = new Thread(heal, "tierproof-heal-" + name);
        Runtime.getRuntime().addShutdownHook(onExit);
        return () -> {
            heal.run();
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException exiting) {
                // the hook heals it anyway
            }
        };
    }
}
