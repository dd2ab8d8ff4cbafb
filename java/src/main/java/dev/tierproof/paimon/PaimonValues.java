package dev.tierproof.paimon;

import dev.tierproof.flink.FlinkValues;
import java.util.List;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.flink.FlinkRowData;
import org.apache.paimon.flink.LogicalTypeConversion;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;

/**
 * Rows Paimon's own reader returns, as the text the Rust core parses: seen through Paimon's own
 * Flink view of a row ({@link FlinkRowData}) and {@link FlinkValues}, the one value table, so a
 * column type is known in one place. One per read; not for concurrent use.
 */
final class PaimonValues {
    private final FlinkValues.Internal values;
    private final FlinkRowData view = new FlinkRowData(null);

    PaimonValues(List<DataField> fields) {
        this.values = new FlinkValues.Internal(LogicalTypeConversion.toLogicalType(new RowType(fields)));
    }

    String[] texts(InternalRow row) {
        return values.texts(view.replace(row));
    }
}
