package dev.tierproof.flink;

import dev.tierproof.core.TierproofException;
import dev.tierproof.run.Steps;
import java.time.Duration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * Runs the statements of a proof as steps: planning, submission and the job together are bounded
 * by the deadline (a huge statement can take minutes just to plan).
 */
public final class Statements {
    private Statements() {}

    /**
     * Runs {@code sql} as the step {@code name} (e.g. {@code INSERT 3 of 30}) and waits for its
     * job; on timeout the job is cancelled and the message names the step and the statement.
     */
    public static void execute(Steps steps, TableEnvironment tables, String name, String sql, Duration deadline) {
        steps.execute(name, deadline, control -> {
            control.detail(() -> "statement: " + abbreviate(sql));
            try {
                TableResult result = PlannerThread.executeSql(tables, sql);
                control.onCancel(() -> result.getJobClient().ifPresent(JobClient::cancel));
                if (!control.cancelled()) {
                    result.await();
                }
            } catch (Exception e) {
                if (control.cancelled()) {
                    return; // the step has already failed with its timeout
                }
                throw new TierproofException(name + " failed: " + abbreviate(sql) + ": " + Steps.rootMessage(e), e);
            }
        });
    }

    static String abbreviate(String sql) {
        return sql.length() <= 160 ? sql : sql.substring(0, 160) + "...";
    }

    public static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
