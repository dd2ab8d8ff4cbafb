package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Where a cluster part's program (not a JVM) is installed. */
final class Programs {
    private Programs() {}

    /**
     * {@code -DPROPERTY=PATH} alone when given; else {@code firstTry}'s places, then {@code name}
     * on the PATH (not a version manager's shim). Refused, naming {@code what} and how to
     * {@code install} it, when none is an executable.
     */
    static Path find(String property, String name, Supplier<List<Path>> firstTry, String what, String install) {
        String given = System.getProperty(property);
        List<Path> candidates = new ArrayList<>();
        if (given != null) {
            candidates.add(Path.of(given));
        } else {
            candidates.addAll(firstTry.get());
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                if (!dir.isEmpty() && !dir.contains("shims")) {
                    candidates.add(Path.of(dir, name));
                }
            }
        }
        return candidates.stream().filter(Files::isExecutable).findFirst().orElseThrow(() ->
                new TierproofException(what + " is not installed: " + install
                        + (given != null ? " (-D" + property + "=" + given + " is not an executable)" : "")));
    }
}
