package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.RowType;

/**
 * Values Fluss's own client returns, as the text the Rust core parses (the same forms as
 * {@code PaimonValues} and {@link dev.tierproof.flink.FlinkValues}: ISO dates and times, instants
 * in UTC, hex bytes), and Fluss change types as Flink's row kind bytes.
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
}
