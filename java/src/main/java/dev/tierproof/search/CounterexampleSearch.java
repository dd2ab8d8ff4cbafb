package dev.tierproof.search;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Rows;
import dev.tierproof.core.Workloads;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Progress;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Random workloads against one table configuration; the first that comes out inconsistent is
 * shrunk (the Rust core proposes smaller and simpler candidates, each proved for real) to a local
 * minimum that still fails. Deterministic for a seed: the workloads and the candidates are.
 */
public final class CounterexampleSearch {
    /**
     * @param ddl the table's CREATE TABLE, or null for the tiered table
     * @param upsertsPerTrial upserts in each random workload (one INSERT each, as {@code prove} runs them)
     * @param keys distinct ids in each workload
     */
    public record Config(String ddl, int trials, long seed, int upsertsPerTrial, int keys, Path warehouse,
            Duration deadline) {}

    /**
     * @param trialsRun how many random workloads were proved
     * @param found the first failing workload, or null when every trial was consistent
     * @param minimal the shrunk workload (null when nothing was found)
     * @param minimalReport the proof of the minimal workload
     * @param proofsRun every proof run, trials and shrinking together
     */
    public record Result(int trialsRun, Rows found, Rows minimal, ProofReport minimalReport, int proofsRun) {}

    private final FlinkEngine engine;
    private final Config cfg;
    private final Steps steps;
    private final Progress progress;
    private int proofs;

    private CounterexampleSearch(FlinkEngine engine, Config cfg, Steps steps) {
        this.engine = engine;
        this.cfg = cfg;
        this.steps = steps;
        this.progress = steps.progress();
    }

    public static Result run(FlinkEngine engine, Config cfg, Steps steps) {
        return new CounterexampleSearch(engine, cfg, steps).search();
    }

    private Result search() {
        for (int trial = 0; trial < cfg.trials(); trial++) {
            Rows workload = Workloads.random(cfg.upsertsPerTrial(), cfg.keys(), cfg.seed() + trial);
            ProofReport report = prove(workload);
            progress.step(String.format("trial %d/%d: %s", trial + 1, cfg.trials(),
                    report.consistent() ? "consistent" : "INCONSISTENT, shrinking " + workload.size() + " upserts"));
            if (!report.consistent()) {
                return shrink(trial + 1, workload, report);
            }
        }
        return new Result(cfg.trials(), null, null, null, proofs);
    }

    /** Takes the first candidate that still fails, again and again, until none does. */
    private Result shrink(int trialsRun, Rows found, ProofReport foundReport) {
        Rows current = found;
        ProofReport currentReport = foundReport;
        boolean smaller = true;
        while (smaller) {
            smaller = false;
            Rows candidate;
            for (int i = 0; (candidate = Workloads.shrinkCandidate(current, i)) != null; i++) {
                ProofReport r = prove(candidate);
                if (!r.consistent()) {
                    current = candidate;
                    currentReport = r;
                    smaller = true;
                    progress.step("  still fails with " + current.size() + " upserts: " + current);
                    break;
                }
            }
        }
        return new Result(trialsRun, found, current, currentReport, proofs);
    }

    /**
     * One proof in a database of its own, so every run starts from an empty table. Its steps share
     * the run's budget and undo ledger, but print nothing.
     */
    private ProofReport prove(Rows workload) {
        proofs++;
        String database = "search_" + proofs;
        return PaimonProof.run(engine, new PaimonProof.Config(database + "." + tableName(), workload, cfg.ddl(),
                cfg.warehouse(), cfg.deadline(), 1), steps.quiet());
    }

    /** The table each proof creates: the DDL's own name, or the tiered table's. */
    private String tableName() {
        return cfg.ddl() == null ? "t" : Ddl.checkUserDdl(cfg.ddl(), false).table();
    }
}
