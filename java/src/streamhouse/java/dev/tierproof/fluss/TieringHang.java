package dev.tierproof.fluss;

import dev.tierproof.report.Unfinished;
import java.util.List;
import java.util.Optional;

/**
 * Fluss 0.9.1's known hang of the tiering job (docs/findings/fluss-0.9-tiering-hangs-on-list-offsets.md):
 * the tiering source's Flink coordinator thread parked for good in
 * {@code BucketOffsetsRetrieverImpl.listOffsets}, on a future a failed request never completes. When
 * the job runs on a MiniCluster in this JVM, or on the session cluster {@code cluster up} started
 * (its JobManager's threads read with {@code jcmd}), its threads are in sight, and a STALLED verdict
 * names the hang as its evidence. The verdict stays what it is; a job on a user's own Flink is out
 * of sight.
 */
public final class TieringHang {
    static final String DOC = "docs/findings/fluss-0.9-tiering-hangs-on-list-offsets.md";
    private static final String COORDINATOR = "SourceCoordinator-Source: TieringSource";
    private static final String RETRIEVER = "org.apache.fluss.client.initializer.BucketOffsetsRetrieverImpl";

    /** A thread as a thread dump shows it. */
    record Seen(String name, Thread.State state, List<StackTraceElement> frames) {}

    private TieringHang() {}

    /**
     * {@code unfinished}, with the hang named when it is STALLED and the tiering coordinator is
     * parked there: in this JVM, or in {@code jobManager} (the session cluster's, when tierproof
     * started it).
     */
    public static Unfinished named(Unfinished unfinished, Optional<ProcessHandle> jobManager) {
        if (unfinished.moving()) {
            return unfinished;
        }
        List<Seen> threads = new java.util.ArrayList<>(Thread.getAllStackTraces().entrySet().stream()
                .map(e -> new Seen(e.getKey().getName(), e.getKey().getState(), List.of(e.getValue()))).toList());
        jobManager.ifPresent(jvm -> threads.addAll(ThreadDump.of(jvm)));
        return parked(threads).map(where -> Unfinished.stalled(unfinished.evidence() + "; the tiering job's source"
                + " coordinator is parked in " + where + ": Fluss 0.9.1's hang on a list-offsets call (" + DOC + ")"))
                .or(() -> seen(threads).map(where -> Unfinished.stalled(unfinished.evidence() + "; " + where)))
                .orElse(unfinished);
    }

    /**
     * Where this JVM's tiering source coordinator stands, when it is no known hang: its state and
     * the first frames of Fluss's own code it is in, as evidence for whoever reads the verdict
     * (never a claim of a cause). Empty when no such thread runs here (a job elsewhere).
     */
    static Optional<String> seen(List<Seen> threads) {
        List<String> where = threads.stream().filter(t -> t.name().startsWith(COORDINATOR)).map(t -> t.name()
                + " " + t.state() + String.join("", t.frames().stream().filter(f -> f.getClassName()
                        .startsWith("org.apache.fluss.")).limit(2).map(f -> " in " + f.getClassName()
                                .substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName() + ":"
                                + f.getLineNumber()).toList())).limit(3).toList();
        return where.isEmpty() ? Optional.empty() : Optional.of("the tiering job's coordinator thread(s), no known hang: "
                + String.join("; ", where));
    }

    /** Where the tiering source's coordinator thread waits on a list-offsets answer, if it does. */
    static Optional<String> parked(List<Seen> threads) {
        for (Seen t : threads) {
            boolean waits = t.state() == Thread.State.WAITING || t.state() == Thread.State.TIMED_WAITING;
            if (t.name().startsWith(COORDINATOR) && waits) {
                Optional<StackTraceElement> in = t.frames().stream()
                        .filter(f -> f.getClassName().equals(RETRIEVER) && f.getMethodName().equals("listOffsets"))
                        .findFirst();
                if (in.isPresent()) {
                    return Optional.of("BucketOffsetsRetrieverImpl.listOffsets (line " + in.get().getLineNumber()
                            + ")");
                }
            }
        }
        return Optional.empty();
    }
}
