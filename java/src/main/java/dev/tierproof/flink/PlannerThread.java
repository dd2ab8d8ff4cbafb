package dev.tierproof.flink;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * Flink's planner keeps per-thread state (Calcite's metadata providers), set up on the thread that
 * creates a TableEnvironment; a statement planned on another thread fails with
 * {@code NullPointerException: metadataHandlerProvider}. Statements run as steps on a worker
 * thread, so each worker thread makes one throwaway environment first.
 */
public final class PlannerThread {
    private static final ThreadLocal<Boolean> PREPARED = ThreadLocal.withInitial(() -> false);

    private PlannerThread() {}

    /**
     * {@code tables.executeSql(sql)} from any thread: every statement tierproof runs goes here.
     * An environment is not thread-safe and reads run side by side: one statement at a time is
     * planned and submitted in it (its job then runs, and is read, unlocked).
     */
    public static TableResult executeSql(TableEnvironment tables, String sql) {
        prepare();
        synchronized (tables) {
            return tables.executeSql(sql);
        }
    }

    private static void prepare() {
        if (!PREPARED.get()) {
            TableEnvironment.create(EnvironmentSettings.inBatchMode());
            PREPARED.set(true);
        }
    }
}
