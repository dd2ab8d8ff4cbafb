package dev.tierproof.fluss;

import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.run.Steps;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;

/**
 * What every stage of one streamhouse proof works with: the servers, the run's settings and steps,
 * the table it created, the writing client, its tiering job, the watch on the log and the lake, and
 * the timings each stage adds to. {@code failures} collects what any stage finds wrong, for the verdict.
 */
record ProofRun(FlussCluster cluster, FlinkEngine engine, StreamhouseProof.Config cfg, Steps steps,
        StreamhouseTable.Created table, Connection connection, TieringJob tiering, LakeWatch watch,
        Map<String, Long> timings, List<String> failures) {}
