package dev.tierproof.udf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tierproof.core.Ddl;
import dev.tierproof.flink.FlinkEngine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;

/** The generator as Flink SQL functions: the same text as the Rust core returns directly. */
class UdfTest {
    @Test
    void sqlFunctionsReturnTheCoresStatements() throws Exception {
        try (FlinkEngine engine = FlinkEngine.start(2)) {
            TableEnvironment t = engine.batchTables();
            t.executeSql("CREATE TEMPORARY FUNCTION tier_ddl AS 'dev.tierproof.udf.TierDdl'");
            t.executeSql("CREATE TEMPORARY FUNCTION upsert_insert AS 'dev.tierproof.udf.UpsertInsert'");
            // Values come from a table, so the functions run in a task, not only in the planner.
            // At parallelism 2 the rows may come back in either order: sort them by id.
            List<Row> rows = collect(t, "SELECT tier_ddl(name), upsert_insert(name, id, bal), id FROM (VALUES"
                    + " ('accounts', 1, 10), ('x`y', 2, CAST(NULL AS INT))) AS v(name, id, bal)");
            rows.sort(Comparator.comparing(row -> (Integer) row.getField(2)));
            assertEquals(2, rows.size());
            assertEquals(Ddl.tierTableDdl("accounts"), rows.get(0).getField(0));
            assertEquals("INSERT INTO `accounts` VALUES (1, 10)", rows.get(0).getField(1));
            assertEquals(Ddl.tierTableDdl("x`y"), rows.get(1).getField(0));
            assertEquals("INSERT INTO `x``y` VALUES (2, CAST(NULL AS INT))", rows.get(1).getField(1));
        }
    }

    static List<Row> collect(TableEnvironment t, String sql) throws Exception {
        List<Row> out = new ArrayList<>();
        CloseableIterator<Row> it = t.executeSql(sql).collect();
        try {
            it.forEachRemaining(out::add);
        } finally {
            it.close();
        }
        return out;
    }
}
