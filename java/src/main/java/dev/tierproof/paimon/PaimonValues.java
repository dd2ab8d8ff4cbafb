package dev.tierproof.paimon;

import dev.tierproof.core.TierproofException;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataField;

/**
 * Values Paimon's own reader returns, as the text the Rust core parses (the same forms as
 * {@link dev.tierproof.flink.FlinkValues}: ISO dates and times, instants in UTC, hex bytes).
 */
final class PaimonValues {
    private PaimonValues() {}

    static String[] texts(InternalRow row, List<DataField> fields) {
        String[] out = new String[fields.size()];
        for (int i = 0; i < out.length; i++) {
            Object v = InternalRow.createFieldGetter(fields.get(i).type(), i).getFieldOrNull(row);
            out[i] = v == null ? null : text(v, fields.get(i));
        }
        return out;
    }

    private static String text(Object v, DataField field) {
        return switch (field.type().getTypeRoot()) {
            case CHAR, VARCHAR, BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE -> v.toString();
            case DECIMAL -> ((Decimal) v).toBigDecimal().toPlainString();
            case BINARY, VARBINARY -> HexFormat.of().formatHex((byte[]) v);
            case DATE -> LocalDate.ofEpochDay((Integer) v).toString();
            case TIME_WITHOUT_TIME_ZONE -> LocalTime.ofNanoOfDay((Integer) v * 1_000_000L).toString();
            case TIMESTAMP_WITHOUT_TIME_ZONE -> ((Timestamp) v).toLocalDateTime().toString();
            // An instant is held as the UTC date-time of its epoch millis and nanos.
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ((Timestamp) v).toLocalDateTime().toInstant(ZoneOffset.UTC).toString();
            default -> throw new TierproofException("column " + field.name() + ": Paimon type " + field.type()
                    + " is not one tierproof compares yet");
        };
    }
}
