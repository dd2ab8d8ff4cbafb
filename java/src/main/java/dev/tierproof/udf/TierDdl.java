package dev.tierproof.udf;

import dev.tierproof.core.Ddl;
import org.apache.flink.table.functions.ScalarFunction;

/** {@code tier_ddl(table)}: the tiered table's CREATE TABLE, from the Rust core. */
public class TierDdl extends ScalarFunction {
    public String eval(String table) {
        return table == null ? null : Ddl.tierTableDdl(table);
    }
}
