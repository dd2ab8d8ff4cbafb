package dev.tierproof.nemesis;

/** The run's table's columns as {@code ALTER TABLE … ADD} changes them. */
public interface TableSchema {
    /** None in reach (a test's target): asking is an error of the run. */
    TableSchema NONE = () -> {
        throw new IllegalStateException("no table schema in reach");
    };

    /** Adds the workload's last column, once the server has taken it; the statement, in words. */
    String addColumn();
}
