package dev.tierproof.fluss;

import dev.tierproof.flink.FlinkValues;
import org.apache.fluss.flink.row.FlinkAsFlussRow;
import org.apache.fluss.flink.utils.FlinkConversions;
import org.apache.fluss.flink.utils.FlussRowToFlinkRowConverter;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

/**
 * Fluss's rows as the core's canonical text and back, through Fluss's own Flink converters and
 * {@link FlinkValues}, the one value table: what the client writer writes, and what Fluss's own
 * client reads, in the same forms as every other reader. Nothing here knows a column type. One per
 * row type; not for concurrent use.
 */
final class FlussValues {
    private final FlinkValues.Internal values;
    private final FlussRowToFlinkRowConverter toFlink;
    private final InternalRow.FieldGetter[] getters;

    FlussValues(RowType type) {
        this.values = new FlinkValues.Internal(FlinkConversions.toFlinkRowType(type));
        this.toFlink = new FlussRowToFlinkRowConverter(type);
        this.getters = InternalRow.createFieldGetters(type);
    }

    /** How many columns its rows have. */
    int width() {
        return getters.length;
    }

    String[] texts(InternalRow row) {
        return values.texts(toFlink.toFlinkRowData(row));
    }

    /** A row of the table from the core's canonical text (NULL is null), in Fluss's internal form. */
    GenericRow row(String[] cells) {
        FlinkAsFlussRow flink = new FlinkAsFlussRow(values.row(cells));
        GenericRow row = new GenericRow(cells.length);
        for (int i = 0; i < cells.length; i++) {
            row.setField(i, getters[i].getFieldOrNull(flink));
        }
        return row;
    }

    /** A Fluss change type as Flink's {@code RowKind} byte (an append is an insert). */
    static byte rowKind(ChangeType change) {
        return FlinkConversions.toFlinkRowKind(change).toByteValue();
    }

    static GenericRow row(RowType type, String[] cells) {
        return new FlussValues(type).row(cells);
    }

    /** One value in Fluss's internal form, parsed from the core's canonical text of it. */
    static Object value(DataType type, String text) {
        return row(RowType.of(type), new String[] {text}).getField(0);
    }
}
