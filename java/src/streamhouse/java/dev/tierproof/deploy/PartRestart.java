package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import dev.tierproof.deploy.ProcessCluster.State;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One part of {@code cluster up}'s cluster stopped and started again with the same configuration
 * (its port, its data), then awaited; the state file follows. Stopped as a crash stops it
 * ({@code kill -9}) or as an upgrade does ({@code SIGTERM}: a Fluss tablet server then hands its
 * leaderships over first, a controlled shutdown).
 */
final class PartRestart {
    /** How long a part asked to stop ({@code SIGTERM}) may take before it is killed. */
    static final Duration GRACE = Duration.ofSeconds(60);

    private PartRestart() {}

    /**
     * Part {@code name} killed and started again; what the restart met that the report should say
     * goes to {@code notes}. A tablet server that gives up registering in ZooKeeper and exits —
     * Fluss 0.9.1 tries for 60 s, while its killed predecessor's session lingers up to the 60 s
     * session timeout, so a quick restart can lose that race — is started once more, as systemd or
     * Kubernetes would, and the note says so.
     */
    static State killed(State state, String name, Duration deadline, Consumer<String> notes) {
        return restart(state, name, deadline, notes, false);
    }

    /** Part {@code name} asked to stop ({@code SIGTERM}), killed only past {@link #GRACE}, and started again. */
    static State stopped(State state, String name, Duration deadline, Consumer<String> notes) {
        return restart(state, name, deadline, notes, true);
    }

    private static State restart(State state, String name, Duration deadline, Consumer<String> notes,
            boolean graceful) {
        State.Part part = state.parts().get(name);
        if (part == null) {
            throw new IllegalArgumentException("the cluster in " + state.dir() + " has no " + name + "; it has "
                    + state.parts().keySet());
        }
        try {
            // A tablet server is back when *its* registration is: a killed one's lingers in
            // ZooKeeper until its session expires, and would pass for it.
            String registration = name.startsWith("tablet-")
                    ? "/fluss/tabletservers/ids/" + name.substring("tablet-".length()) : null;
            long before = registration == null ? 0 : Registrations.registrationOwner(state.zookeeper(), registration);
            stop(part, name, graceful, notes);
            Path log = state.dir().resolve("logs").resolve(name + ".log");
            Started started = start(state, name, part, log, deadline);
            if (registration != null) {
                try {
                    Registrations.awaitNewRegistration(state.zookeeper(), registration, before, started.part(), log,
                            started.logStart(), deadline);
                } catch (Registrations.GaveUp gaveUp) {
                    notes.accept(name + " exited at start: " + gaveUp.getMessage() + "; started again, as an"
                            + " orchestrator would");
                    started = start(started.state(), name, part, log, deadline);
                    Registrations.awaitNewRegistration(state.zookeeper(), registration, before, started.part(), log,
                            started.logStart(), deadline);
                }
            }
            long tablets = started.state().parts().keySet().stream().filter(n -> n.startsWith("tablet-")).count();
            dev.tierproof.fluss.FlussCluster.awaitServers(state.fluss(), (int) tablets, deadline);
            return started.state();
        } catch (TierproofException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException("restarting " + name + " failed: " + e.getMessage(), e);
        }
    }

    private static void stop(State.Part part, String name, boolean graceful, Consumer<String> notes) {
        if (!graceful) {
            Launcher.stop(part);
            return;
        }
        long t = System.nanoTime();
        if (!Launcher.terminate(part, GRACE)) {
            notes.accept(name + " did not stop within " + GRACE.toSeconds() + " s of SIGTERM: killed");
            Launcher.stop(part);
        } else {
            notes.accept(name + " stopped on SIGTERM in " + Duration.ofNanos(System.nanoTime() - t).toMillis() + " ms");
        }
    }

    /** The state after a start, the part started, and where its log stood before it. */
    private record Started(State state, State.Part part, long logStart) {}

    /** Starts {@code name} as {@code old} was started, writes the state file and awaits its port. */
    private static Started start(State state, String name, State.Part old, Path log, Duration deadline)
            throws Exception {
        long logStart = Registrations.sizeOf(log);
        String program = switch (name) {
            case "s3" -> SeaweedFs.binary().toString();
            case "gcs" -> FakeGcs.binary().toString();
            default -> null;
        };
        State.Part again = Launcher.start(state.dir(), name, program, old.mainClass(), old.endpoint(),
                ProcessCluster.argsOf(state.dir(), name));
        Map<String, State.Part> parts = new LinkedHashMap<>(state.parts());
        parts.put(name, again);
        State next = new State(state.dir(), state.zookeeper(), state.fluss(), state.flink(), state.warehouse(),
                state.flinkHasConnectors(), parts);
        StateFile.write(next);
        int colon = old.endpoint().lastIndexOf(':');
        Launcher.awaitPort(old.endpoint().substring(0, colon), Integer.parseInt(old.endpoint().substring(colon + 1)),
                deadline, name);
        return new Started(next, again, logStart);
    }
}
