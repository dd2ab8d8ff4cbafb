package dev.tierproof.deploy;

import dev.tierproof.util.Processes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How {@code cluster down} stops a cluster's processes: in the reverse of the order {@code up}
 * started them, each asked to stop (SIGTERM) and killed if it has not within its grace, a line per
 * part saying which and how long it took.
 *
 * <p>Parts that do not depend on one another stop together: Flink's JobManager and TaskManager and
 * every tablet server at once (each stops in about 2 s; one after another they took 5 to 10 s),
 * then the coordinator, ZooKeeper and the lake's store one at a time.
 */
final class ClusterShutdown {
    /**
     * The lake's store is asked to stop, then killed after this. SeaweedFS's filer waits 15 s for
     * its own S3 gateway's subscriptions before it stops its gRPC server (its log: "gRPC server
     * graceful stop timed out after 15s, forcing stop"); nothing is left to write to the store by
     * then, and {@code down} removes its files right after.
     */
    static final Duration STORE_GRACE = Duration.ofSeconds(2);

    private ClusterShutdown() {}

    /** Stops every running part of {@code parts} (in {@code up}'s order), a line per part in the order they stop. */
    static List<String> stop(Map<String, ProcessCluster.State.Part> parts, Duration grace) {
        List<String> lines = new ArrayList<>();
        for (List<String> together : order(parts.keySet())) {
            lines.addAll(stopTogether(parts, together, grace));
        }
        return lines;
    }

    /** The reverse of {@code up}'s order, parts that stop together grouped. */
    static List<List<String>> order(Collection<String> started) {
        List<String> reversed = new ArrayList<>(started);
        Collections.reverse(reversed);
        List<List<String>> groups = new ArrayList<>();
        for (String name : reversed) {
            List<String> last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            if (last != null && stopsWithOthers(name) && stopsWithOthers(last.get(0))) {
                last.add(name);
            } else {
                groups.add(new ArrayList<>(List.of(name)));
            }
        }
        return groups;
    }

    /** Flink's processes and the tablet servers: nothing else in the cluster waits on them as they stop. */
    private static boolean stopsWithOthers(String name) {
        return name.startsWith("tablet-") || name.equals("jobmanager") || name.equals("taskmanager");
    }

    /** The lake's store ({@link StateFile#STORE_PARTS}). */
    static boolean isStore(String name) {
        return StateFile.STORE_PARTS.contains(name);
    }

    private static List<String> stopTogether(Map<String, ProcessCluster.State.Part> parts, List<String> names,
            Duration grace) {
        long start = System.nanoTime();
        List<Optional<ProcessHandle>> handles = new ArrayList<>();
        for (String name : names) {
            Optional<ProcessHandle> h = parts.get(name).ours();
            h.ifPresent(ProcessHandle::destroy);
            handles.add(h);
        }
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            long pid = parts.get(name).pid();
            if (handles.get(i).isEmpty()) {
                lines.add(name + " (pid " + pid + "): not running");
                continue;
            }
            Duration own = isStore(name) && STORE_GRACE.compareTo(grace) < 0 ? STORE_GRACE : grace;
            lines.add(name + " (pid " + pid + "): " + awaitStop(handles.get(i).get(), start, own));
        }
        return lines;
    }

    /** Waits for a process asked to stop at {@code start} (nanoTime) until {@code grace} has passed since, then kills it. */
    private static String awaitStop(ProcessHandle h, long start, Duration grace) {
        Duration left = grace.minusNanos(System.nanoTime() - start);
        boolean ended = Processes.awaitEnd(h, left.isNegative() ? Duration.ZERO : left);
        if (!ended) {
            h.destroyForcibly();
            Processes.awaitEnd(h, Duration.ofSeconds(10));
        }
        String took = String.format("%.1f s", (System.nanoTime() - start) / 1e9);
        return ended ? "stopped in " + took : "killed after " + took + " (it did not stop within its grace of "
                + grace.toSeconds() + " s)";
    }
}
