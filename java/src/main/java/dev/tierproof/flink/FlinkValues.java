package dev.tierproof.flink;

import dev.tierproof.core.TierproofException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;

/**
 * The value table, the one place that knows each column type: the values a Flink read returns, as
 * the text the Rust core parses (it alone decides what is equal): numbers as Java prints them,
 * decimals plain, bytes as hex, dates and times in ISO form, instants in UTC; and that text as the
 * values the ordered write gives Flink's sink. NULL stays null. Fluss's and Paimon's rows reach it
 * through their own Flink converters as Flink's internal rows ({@link Internal}), so a new column
 * type is one case each way here and nowhere else.
 */
public final class FlinkValues {
    private FlinkValues() {}

    public static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof byte[] b) {
            return HexFormat.of().formatHex(b);
        }
        if (value instanceof Boolean || value instanceof Number || value instanceof String
                || value instanceof LocalDate || value instanceof LocalTime || value instanceof LocalDateTime
                || value instanceof Instant) {
            return value.toString();
        }
        throw new TierproofException("a read returned a " + value.getClass().getName() + ", which tierproof cannot"
                + " compare yet: " + value);
    }

    /** Every field of a row as text. */
    public static String[] texts(Row row) {
        String[] out = new String[row.getArity()];
        for (int i = 0; i < out.length; i++) {
            out[i] = text(row.getField(i));
        }
        return out;
    }

    /** One value as Flink's default external class for its type, from the core's canonical text. */
    public static Object value(LogicalType type, String text) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> Boolean.parseBoolean(text);
            case TINYINT -> Byte.parseByte(text);
            case SMALLINT -> Short.parseShort(text);
            case INTEGER -> Integer.parseInt(text);
            case BIGINT -> Long.parseLong(text);
            case FLOAT -> Float.parseFloat(text);
            case DOUBLE -> Double.parseDouble(text);
            case DECIMAL -> new BigDecimal(text);
            case CHAR, VARCHAR -> text;
            case BINARY, VARBINARY -> HexFormat.of().parseHex(text);
            case DATE -> LocalDate.parse(text);
            case TIME_WITHOUT_TIME_ZONE -> LocalTime.parse(text);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> LocalDateTime.parse(text.replace(' ', 'T'));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> Instant.parse(text.replace(' ', 'T'));
            default -> throw new IllegalArgumentException("column type " + type + " is not one tierproof writes");
        };
    }

    /**
     * The same table for rows in Flink's internal form ({@link RowData}), through Flink's own
     * converters between internal and external values: the form Fluss's and Paimon's Flink
     * connectors turn their own rows into and back. One per row type; not for concurrent use.
     */
    public static final class Internal {
        private final List<LogicalType> types;
        private final RowData.FieldGetter[] getters;
        private final List<DataStructureConverter<Object, Object>> converters = new ArrayList<>();

        public Internal(RowType type) {
            this.types = type.getChildren();
            this.getters = new RowData.FieldGetter[types.size()];
            for (int i = 0; i < getters.length; i++) {
                getters[i] = RowData.createFieldGetter(types.get(i), i);
                DataStructureConverter<Object, Object> converter = DataStructureConverters.getConverter(
                        TypeConversions.fromLogicalToDataType(types.get(i)));
                converter.open(FlinkValues.class.getClassLoader());
                converters.add(converter);
            }
        }

        /** Every field of an internal row as text. */
        public String[] texts(RowData row) {
            String[] out = new String[getters.length];
            for (int i = 0; i < out.length; i++) {
                Object v = getters[i].getFieldOrNull(row);
                out[i] = v == null ? null : text(converters.get(i).toExternal(v));
            }
            return out;
        }

        /** An internal row from the core's canonical text (NULL is null). */
        public GenericRowData row(String[] cells) {
            GenericRowData row = new GenericRowData(cells.length);
            for (int i = 0; i < cells.length; i++) {
                row.setField(i, cells[i] == null ? null : converters.get(i).toInternal(value(types.get(i), cells[i])));
            }
            return row;
        }
    }
}
