package dev.tierproof.proof;

import dev.tierproof.core.Workload;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.fluss.LakeWatch;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.run.Steps;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;

/**
 * What every stage of one streamhouse proof works with: the servers, the run's settings and steps,
 * the table it created, the writing client, its tiering job, the watch on the log and the lake, and
 * the timings each stage adds to. {@code failures} collects what any stage finds wrong, for the verdict;
 * {@code unknown} the positions (0-based, ascending) of the writes whose acknowledgement was lost;
 * {@code rejected} those of the writes the client reported failed.
 */
record ProofRun(FlussCluster cluster, FlinkEngine engine, StreamhouseProof.Config cfg, Steps steps,
        StreamhouseTable.Created table, Connection connection, Tiering.Job tiering, LakeWatch watch,
        Map<String, Long> timings, List<String> failures, List<Integer> unknown, List<Integer> rejected) {

    /** The writes of unknown outcome among the first {@code written} operations (0-based). */
    int[] unknownWithin(int written) {
        return below(unknown, written);
    }

    /** The writes the client reported failed among the first {@code written} operations (0-based). */
    int[] rejectedWithin(int written) {
        return below(rejected, written);
    }

    private static int[] below(List<Integer> positions, int written) {
        return positions.stream().mapToInt(Integer::intValue).filter(p -> p < written).toArray();
    }

    /**
     * What a read after the first {@code written} operations is judged against: those operations,
     * the ones among them of unknown outcome or rejected marked so. The caller closes it.
     */
    /**
     * A {@code SELECT} of every column of {@code prefix}'s table once the first {@code written}
     * operations are written: a column the schedule adds later is not there yet, and reads NULL.
     */
    String selectAllAfter(Workload prefix, int written) {
        java.util.OptionalInt added = cfg.addsColumnAt();
        return added.isPresent() && added.getAsInt() > written ? prefix.addedColumn().selectBefore()
                : prefix.selectAll(java.util.Map.of());
    }

    Workload judgedPrefix(int written) {
        Workload prefix = cfg.workload().prefix(written);
        Workload marked = marked(prefix, written);
        if (marked == null) {
            return prefix;
        }
        try (prefix) {
            return marked;
        }
    }

    /**
     * {@code workload} (the first {@code written} operations, or all) as a new workload with its
     * writes of unknown outcome and its rejected ones marked so; null when there are none. The
     * caller closes both.
     */
    Workload marked(Workload workload, int written) {
        int[] unknownSoFar = unknownWithin(written);
        int[] rejectedSoFar = rejectedWithin(written);
        return unknownSoFar.length + rejectedSoFar.length == 0 ? null
                : workload.outcomes(unknownSoFar, rejectedSoFar);
    }
}
