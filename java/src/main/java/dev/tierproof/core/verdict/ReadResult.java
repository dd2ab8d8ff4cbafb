package dev.tierproof.core.verdict;

import java.util.List;

/** One read as the oracle folded it: how many changes it delivered, the rows, any anomalies. */
public record ReadResult(String name, long changes, List<TableRow> rows, List<Anomaly> anomalies) {
    public ReadResult {
        rows = List.copyOf(rows);
        anomalies = List.copyOf(anomalies);
    }
}
