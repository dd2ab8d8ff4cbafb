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
 * {@code unknown} the positions (0-based, ascending) of the writes whose acknowledgement was lost.
 */
record ProofRun(FlussCluster cluster, FlinkEngine engine, StreamhouseProof.Config cfg, Steps steps,
        StreamhouseTable.Created table, Connection connection, Tiering.Job tiering, LakeWatch watch,
        Map<String, Long> timings, List<String> failures, List<Integer> unknown) {

    /** The writes of unknown outcome among the first {@code written} operations (0-based). */
    int[] unknownWithin(int written) {
        return unknown.stream().mapToInt(Integer::intValue).filter(p -> p < written).toArray();
    }

    /**
     * What a read after the first {@code written} operations is judged against: those operations,
     * the ones among them of unknown outcome marked so. The caller closes it.
     */
    Workload judgedPrefix(int written) {
        int[] unknownSoFar = unknownWithin(written);
        Workload prefix = cfg.workload().prefix(written);
        if (unknownSoFar.length == 0) {
            return prefix;
        }
        try (prefix) {
            return prefix.uncertain(unknownSoFar);
        }
    }
}
