package dev.tierproof.proof;

import dev.tierproof.core.Workload;
import dev.tierproof.flink.Statements;
import dev.tierproof.fluss.Clients;
import dev.tierproof.fluss.Acks;
import dev.tierproof.fluss.ClientWriter;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import java.util.ArrayList;
import java.util.List;
import org.apache.fluss.client.Connection;

/**
 * The proof's writing stage, one way per {@link StreamhouseProof.Producer}: Fluss's client in
 * rounds (the checks between rounds included), or Flink SQL statements. Rejected writes join the
 * run's failures.
 */
final class Production {
    /**
     * What writing left for the later stages.
     *
     * @param statements the SQL statements run (0 for the client)
     * @param acks where each acknowledged write landed (the consistent cuts' input)
     * @param checkpoints the checks between rounds
     * @param liveNotes what the checks between rounds could not do, for people
     * @param firstUnknown the first write whose acknowledgement the network lost, for people (null
     *     when none; all of them are the run's {@link ProofRun#unknown})
     */
    record Produced(int statements, Acks acks, List<ProofReport.Checkpoint> checkpoints, List<String> liveNotes,
            String firstUnknown) {}

    private Production() {}

    /**
     * The workload through Fluss's client, in {@code rounds}; between two, a live union read and a
     * checkpoint. With {@code --writers N}, N clients at once: the run's, and N - 1 of their own.
     */
    static Produced byClient(ProofRun run, FaultSchedule faults) {
        List<Connection> extra = new ArrayList<>();
        try {
            for (int i = 1; i < run.cfg().writers(); i++) {
                extra.add(Clients.open(StreamhouseProof.clientConfig(run.cluster(), run.cfg())));
            }
            List<Connection> connections = new ArrayList<>(List.of(run.connection()));
            connections.addAll(extra);
            return byClient(run, faults, connections);
        } finally {
            extra.forEach(Clients::close); // in the background (Clients)
        }
    }

    private static Produced byClient(ProofRun run, FaultSchedule faults, List<Connection> connections) {
        StreamhouseProof.Config cfg = run.cfg();
        Workload workload = cfg.workload();
        Acks acks = new Acks(workload.operations());
        List<ProofReport.Checkpoint> checkpoints = new ArrayList<>();
        List<String> liveNotes = new ArrayList<>();
        String firstUnknown = null;
        int total = workload.operations();
        for (int round = 1; round <= cfg.rounds(); round++) {
            int start = (int) ((long) total * (round - 1) / cfg.rounds());
            int end = (int) ((long) total * round / cfg.rounds());
            run.steps().progress().step((cfg.rounds() > 1 ? "round " + round + "/" + cfg.rounds() + ": " : "")
                    + "writing operations " + (start + 1) + " to " + end + " through the Fluss client");
            ClientWriter.Outcome out = ClientWriter.write(run.steps(), connections, run.table().path(), workload,
                    start, end, cfg.deadline(), faults, acks);
            run.failures().addAll(rejections(out));
            java.util.Arrays.stream(out.unknownPositions()).forEach(run.unknown()::add);
            java.util.Arrays.stream(out.rejectedPositions()).forEach(run.rejected()::add);
            if (firstUnknown == null && !out.unknown().isEmpty()) {
                firstUnknown = "operation " + out.unknown().get(0).operation() + ": " + out.unknown().get(0).message();
            }
            if (round < cfg.rounds()) {
                ProofReport.Checkpoint live = RoundChecks.liveUnion(run, round, end, liveNotes);
                if (live != null) {
                    checkpoints.add(live);
                }
                checkpoints.add(RoundChecks.checkpoint(run, round, end));
            }
        }
        return new Produced(0, acks, checkpoints, liveNotes, firstUnknown);
    }

    /** A round's rejected writes as failures: the first ones listed, the rest counted. */
    private static List<String> rejections(ClientWriter.Outcome out) {
        List<String> rejected = new ArrayList<>();
        out.rejected().forEach(r -> rejected.add("rejected write: operation " + r.operation() + ": " + r.message()));
        if (out.rejectedCount() > out.rejected().size()) {
            rejected.add((out.rejectedCount() - out.rejected().size()) + " more rejected writes");
        }
        return rejected;
    }

    /** The workload as Flink SQL statements on Fluss, each a Flink job. */
    static Produced bySql(ProofRun run) {
        List<Workload.Statement> statements = run.cfg().workload().statements(run.cfg().rowsPerInsert());
        run.steps().progress().step("running the workload on Fluss: " + statements.size()
                + " statements (each a Flink job)");
        for (int i = 0; i < statements.size(); i++) {
            Workload.Statement s = statements.get(i);
            Statements.execute(run.steps(), run.table().flussBatch(), s.label(), s.sql(), run.cfg().deadline());
            run.steps().progress().count("statements done", i + 1, statements.size());
        }
        return new Produced(statements.size(), new Acks(run.cfg().workload().operations()), List.of(), List.of(),
                null);
    }
}
