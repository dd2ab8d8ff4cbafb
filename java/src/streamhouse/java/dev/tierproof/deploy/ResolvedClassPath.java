package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A class path of a cluster part's own, kept off tierproof's: resolved by build.sh from a pom of
 * its own into a file, named to this JVM as {@code -DPROPERTY=FILE}.
 */
final class ResolvedClassPath {
    private ResolvedClassPath() {}

    /**
     * The class path in the file {@code property} names; refused, saying how to get it
     * ({@code howToGet}), when it was not resolved.
     */
    static String read(String property, String what, String howToGet) {
        String file = System.getProperty(property);
        try {
            if (file != null && Files.isRegularFile(Path.of(file))) {
                String cp = Files.readString(Path.of(file)).strip();
                if (!cp.isEmpty()) {
                    return cp;
                }
            }
        } catch (IOException e) {
            // said below
        }
        throw new TierproofException(what + " are not resolved (" + (file == null ? "no -D" + property
                : file + " is missing or empty") + "): " + howToGet);
    }
}
