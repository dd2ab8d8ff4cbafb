package dev.tierproof.util;

import java.util.Optional;

/** What lies under an exception, however many steps wrapped it. */
public final class Causes {
    private Causes() {}

    /** The first of {@code e} and its causes that is a {@code type}. */
    public static <T extends Throwable> Optional<T> find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return Optional.of(type.cast(t));
            }
        }
        return Optional.empty();
    }
}
