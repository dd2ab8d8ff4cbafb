package dev.tierproof.paimon;

import dev.tierproof.core.TierproofException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;

/** Runs the statements of a proof, each one awaited with a deadline. */
public final class Statements {
    private Statements() {}

    public static void execute(TableEnvironment tables, String sql, Duration deadline) {
        try {
            tables.executeSql(sql).await(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TierproofException(
                    "statement did not finish within " + deadline.toSeconds() + " s: " + abbreviate(sql), e);
        } catch (Exception e) {
            throw new TierproofException(
                    "statement failed: " + abbreviate(sql) + ": " + BoundedRead.rootMessage(e), e);
        }
    }

    private static String abbreviate(String sql) {
        return sql.length() <= 160 ? sql : sql.substring(0, 160) + "...";
    }

    public static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
