package dev.tierproof.proof;

import dev.tierproof.core.Workload;
import dev.tierproof.flink.Statements;
import dev.tierproof.nemesis.TableSchema;
import dev.tierproof.run.Steps;
import java.time.Duration;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The run's table getting the workload's last column through Flink SQL, as users add one
 * ({@code ALTER TABLE … ADD} in Fluss's catalog, which alters the lake table first), bounded.
 */
final class EvolvingTable implements TableSchema {
    private final Steps steps;
    private final TableEnvironment fluss;
    private final Workload.AddedColumn column;
    private final Duration bound;

    EvolvingTable(Steps steps, TableEnvironment fluss, Workload.AddedColumn column, Duration bound) {
        this.steps = steps;
        this.fluss = fluss;
        this.column = column;
        this.bound = bound;
    }

    @Override
    public String addColumn() {
        Statements.execute(steps, fluss, "ALTER TABLE … ADD " + column.name(), column.alter(), bound);
        return column.alter();
    }
}
