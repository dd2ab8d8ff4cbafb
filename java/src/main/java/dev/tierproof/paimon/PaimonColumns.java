package dev.tierproof.paimon;

import dev.tierproof.core.TierproofException;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;

/**
 * The columns a read through Paimon's own API keeps: the workload's, by name, in its order (a lake
 * table's Fluss system columns are left out by naming only the table's own).
 *
 * @param projection each column's position in the table
 * @param fields each column's field, for its type
 */
record PaimonColumns(int[] projection, List<DataField> fields) {
    static PaimonColumns of(Table table, String name, List<String> columns) {
        RowType type = table.rowType();
        int[] projection = new int[columns.size()];
        List<DataField> fields = new ArrayList<>();
        for (int i = 0; i < projection.length; i++) {
            projection[i] = type.getFieldIndex(columns.get(i));
            if (projection[i] < 0) {
                throw new TierproofException("table " + name + " has no column " + columns.get(i) + "; it has "
                        + type.getFieldNames());
            }
            fields.add(type.getFields().get(projection[i]));
        }
        return new PaimonColumns(projection, fields);
    }
}
