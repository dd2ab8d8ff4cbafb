package dev.tierproof.deploy;

import dev.tierproof.fluss.FlussOptionDefinitions;
import java.util.Map;
import java.util.Set;
import org.apache.fluss.config.ConfigOption;

/**
 * Settings for every Fluss server of a cluster {@code cluster up} starts ({@code --server-option
 * KEY=VALUE}), as an operator writes them into server.yaml: checked against Fluss's own option
 * definitions before anything starts. What {@code cluster up} sets itself (where ZooKeeper, the
 * data and the lake are, which address a server binds) is refused: it is what makes the cluster
 * the run's own and keeps it on loopback.
 */
public final class ServerOptions {
    private static final String FLAG = "--server-option";

    /** Set by cluster up for each server: its addresses, directories and lake. */
    private static final Set<String> MANAGED = Set.of("zookeeper.address", "bind.listeners", "advertised.listeners",
            "internal.listener.name", "remote.data.dir", "data.dir", "tablet-server.id");

    private static final Map<String, ConfigOption<?>> KNOWN =
            FlussOptionDefinitions.matching(key -> !key.startsWith("client."));

    private ServerOptions() {}

    /** Refuses a key Fluss's servers do not have or cluster up sets itself, or a value that cannot be read. */
    public static void check(Map<String, String> options) {
        options.forEach((key, value) -> {
            if (MANAGED.contains(key) || key.startsWith("datalake.")) {
                throw new IllegalArgumentException(FLAG + " " + key + " is set by cluster up itself (where the"
                        + " cluster's ZooKeeper, data and lake are, and the loopback address each server binds)");
            }
            ConfigOption<?> option = KNOWN.get(key);
            if (option == null) {
                throw new IllegalArgumentException(FLAG + " " + key + " is not a Fluss server option (Fluss's own"
                        + " definitions, org.apache.fluss.config.ConfigOptions)");
            }
            // One line of server.yaml each: a line break or a comment sign would write another setting.
            if (value.isBlank() || value.chars().anyMatch(c -> c == '\n' || c == '\r' || c == '#')) {
                throw new IllegalArgumentException(FLAG + " " + key + "=" + value
                        + ": a value is one line of text, without '#'");
            }
            FlussOptionDefinitions.checkValue(FLAG, option, value);
        });
    }
}
