package dev.tierproof.cli;

import java.util.List;

/**
 * A part of tierproof beyond its core, and the commands it adds: the streamhouse part (Fluss) adds
 * streamhouse, matrix, search, audit, cluster and bench. A part's jar names its implementation in
 * {@code META-INF/services}; a build without the part (./build.sh's first run of prove) has none.
 * Which commands need which part is said once, in {@code tierproof-parts.properties}.
 */
public interface CommandPart {
    /** Its commands, each a picocli {@code @Command} that extends {@link TierproofCommand}. */
    List<Class<?>> commands();
}
