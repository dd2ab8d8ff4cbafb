package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.RowType;

/**
 * Fluss's value table: the core's canonical text as Fluss's internal values (what the client
 * writer writes), the values Fluss's own client returns as that text (the same forms as
 * {@code PaimonValues} and {@link dev.tierproof.flink.FlinkValues}: ISO dates and times, instants
 * in UTC, hex bytes), and Fluss change types as Flink's row kind bytes. A new column type is one
 * case each way here.
 */
final class FlussValues {
    private final RowType type;
    private final InternalRow.FieldGetter[] getters;

    FlussValues(RowType type) {
        this.type = type;
        this.getters = InternalRow.createFieldGetters(type);
    }

    String[] texts(InternalRow row) {
        String[] out = new String[getters.length];
        for (int i = 0; i < out.length; i++) {
            Object v = getters[i].getFieldOrNull(row);
            out[i] = v == null ? null : text(v, type.getFields().get(i));
        }
        return out;
    }

    private static String text(Object v, DataField field) {
        return switch (field.getType().getTypeRoot()) {
            case CHAR, STRING, BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE -> v.toString();
            case DECIMAL -> ((Decimal) v).toBigDecimal().toPlainString();
            case BINARY, BYTES -> HexFormat.of().formatHex((byte[]) v);
            case DATE -> LocalDate.ofEpochDay((Integer) v).toString();
            case TIME_WITHOUT_TIME_ZONE -> LocalTime.ofNanoOfDay((Integer) v * 1_000_000L).toString();
            case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                TimestampNtz t = (TimestampNtz) v;
                yield LocalDateTime.ofEpochSecond(Math.floorDiv(t.getMillisecond(), 1000),
                        Math.floorMod(t.getMillisecond(), 1000) * 1_000_000 + t.getNanoOfMillisecond(),
                        ZoneOffset.UTC).toString();
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                TimestampLtz t = (TimestampLtz) v;
                yield Instant.ofEpochMilli(t.getEpochMillisecond()).plusNanos(t.getNanoOfMillisecond()).toString();
            }
            default -> throw new TierproofException("column " + field.getName() + ": Fluss type " + field.getType()
                    + " is not one tierproof compares yet");
        };
    }

    /** A Fluss change type as Flink's {@code RowKind} byte (an append is an insert). */
    static byte rowKind(ChangeType change) {
        return switch (change) {
            case APPEND_ONLY, INSERT -> 0;
            case UPDATE_BEFORE -> 1;
            case UPDATE_AFTER -> 2;
            case DELETE -> 3;
        };
    }

    /** A row of the table from the core's canonical text (NULL is null). */
    static GenericRow row(RowType type, String[] cells) {
        GenericRow row = new GenericRow(cells.length);
        for (int i = 0; i < cells.length; i++) {
            row.setField(i, cells[i] == null ? null : value(type.getTypeAt(i), cells[i]));
        }
        return row;
    }

    /** One value in Fluss's internal form, parsed from the core's canonical text of it. */
    static Object value(DataType type, String text) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> Boolean.parseBoolean(text);
            case TINYINT -> Byte.parseByte(text);
            case SMALLINT -> Short.parseShort(text);
            case INTEGER -> Integer.parseInt(text);
            case BIGINT -> Long.parseLong(text);
            case FLOAT -> Float.parseFloat(text);
            case DOUBLE -> Double.parseDouble(text);
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                yield Decimal.fromBigDecimal(new BigDecimal(text), d.getPrecision(), d.getScale());
            }
            case CHAR, STRING -> BinaryString.fromString(text);
            case BINARY, BYTES -> HexFormat.of().parseHex(text);
            case DATE -> (int) LocalDate.parse(text).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE -> (int) (LocalTime.parse(text).toNanoOfDay() / 1_000_000);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> TimestampNtz.fromLocalDateTime(LocalDateTime.parse(
                    text.replace(' ', 'T')));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> TimestampLtz.fromInstant(Instant.parse(text.replace(' ', 'T')));
            default -> throw new IllegalArgumentException("column type " + type + " is not one tierproof writes");
        };
    }
}
