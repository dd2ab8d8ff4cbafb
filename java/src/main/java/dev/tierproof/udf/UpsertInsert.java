package dev.tierproof.udf;

import dev.tierproof.core.Rows;
import dev.tierproof.core.Upserts;
import org.apache.flink.table.functions.ScalarFunction;

/** {@code upsert_insert(table, id, bal)}: the INSERT of one upsert (bal may be NULL). */
public class UpsertInsert extends ScalarFunction {
    public String eval(String table, Integer id, Integer bal) {
        if (table == null || id == null) {
            return null;
        }
        return Upserts.upsertInserts(table, new Rows.Builder().add(id, bal).build()).get(0);
    }
}
