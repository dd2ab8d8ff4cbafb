package dev.tierproof.util;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A resource whose close is bounded: past the bound it is abandoned, still closing on a daemon
 * thread, and the run goes on. For clients that wait without end in their close: Fluss's
 * {@code Connection.close()} waits for every pending write to be delivered, which never happens
 * while a bucket has no leader (a killed tablet server that does not serve again).
 *
 * @param <T> the resource
 */
public final class BoundedClose<T extends AutoCloseable> implements AutoCloseable {
    private final String what;
    private final T resource;
    private final Duration bound;
    private final Consumer<String> onAbandoned;

    private BoundedClose(String what, T resource, Duration bound, Consumer<String> onAbandoned) {
        this.what = what;
        this.resource = resource;
        this.bound = bound;
        this.onAbandoned = onAbandoned;
    }

    /** {@code resource}, closed within {@code bound}; {@code onAbandoned} hears when it is not. */
    public static <T extends AutoCloseable> BoundedClose<T> of(String what, T resource, Duration bound,
            Consumer<String> onAbandoned) {
        return new BoundedClose<>(what, resource, bound, onAbandoned);
    }

    public T get() {
        return resource;
    }

    @Override
    public void close() throws Exception {
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread closing = new Thread(() -> {
            try {
                resource.close();
            } catch (Exception e) {
                failure.set(e);
            }
        }, "closing " + what);
        closing.setDaemon(true);
        closing.start();
        closing.join(Math.max(1, bound.toMillis()));
        if (closing.isAlive()) {
            onAbandoned.accept(what + " did not close within " + bound.toSeconds() + " s (writes it could not"
                    + " deliver?): abandoned, its threads left to the end of this JVM");
            return;
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
