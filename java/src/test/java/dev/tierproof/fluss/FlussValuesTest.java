package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fluss's value table: the core's canonical text of each type, in Fluss's internal form (what the
 * client writer writes).
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class FlussValuesTest {
    @Test
    void everyTypeFromItsCanonicalText() {
        assertThat(FlussValues.value(DataTypes.BOOLEAN(), "true")).isEqualTo(true);
        assertThat(FlussValues.value(DataTypes.TINYINT(), "-128")).isEqualTo((byte) -128);
        assertThat(FlussValues.value(DataTypes.SMALLINT(), "32767")).isEqualTo((short) 32767);
        assertThat(FlussValues.value(DataTypes.INT(), "-2147483648")).isEqualTo(Integer.MIN_VALUE);
        assertThat(FlussValues.value(DataTypes.BIGINT(), "9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(FlussValues.value(DataTypes.FLOAT(), "-Infinity")).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(FlussValues.value(DataTypes.DOUBLE(), "5e-324")).isEqualTo(Double.MIN_VALUE);
        assertThat(FlussValues.value(DataTypes.DOUBLE(), "-0.0")).isEqualTo(-0.0d);
        assertThat(FlussValues.value(DataTypes.DECIMAL(12, 2), "-10.50"))
                .isEqualTo(Decimal.fromBigDecimal(new BigDecimal("-10.50"), 12, 2));
        assertThat(FlussValues.value(DataTypes.STRING(), "😀, \"x\"")).isEqualTo(BinaryString.fromString("😀, \"x\""));
        assertThat((byte[]) FlussValues.value(DataTypes.BYTES(), "00ff")).containsExactly(0, 255);
        assertThat(FlussValues.value(DataTypes.DATE(), "2024-02-29")).isEqualTo(19782);
        assertThat(FlussValues.value(DataTypes.TIME(3), "23:59:59.999")).isEqualTo(86_399_999);
        assertThat(FlussValues.value(DataTypes.TIMESTAMP(6), "2000-01-01 00:00:00.000001"))
                .isEqualTo(TimestampNtz.fromLocalDateTime(LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1000)));
        assertThat(FlussValues.value(DataTypes.TIMESTAMP_LTZ(3), "2021-03-28 01:00:00.000Z"))
                .isEqualTo(TimestampLtz.fromInstant(Instant.parse("2021-03-28T01:00:00Z")));
    }

    @Test
    void aRowKeepsNullsAndATypeItCannotWriteIsRefused() {
        GenericRow row = FlussValues.row(RowType.of(DataTypes.INT(), DataTypes.STRING()), new String[] {"1", null});
        assertThat(row.getInt(0)).isEqualTo(1);
        assertThat(row.isNullAt(1)).isTrue();
        assertThatThrownBy(() -> FlussValues.value(DataTypes.ARRAY(DataTypes.INT()), "[]"))
                .hasMessageContaining("not one tierproof writes");
    }

    @Test
    void everyTypeReadsBackAsItsTextThroughFlussOwnConverters() {
        RowType type = RowType.of(DataTypes.BOOLEAN(), DataTypes.TINYINT(), DataTypes.INT(), DataTypes.BIGINT(),
                DataTypes.FLOAT(), DataTypes.DOUBLE(), DataTypes.DECIMAL(12, 2), DataTypes.STRING(),
                DataTypes.CHAR(2), DataTypes.BYTES(), DataTypes.DATE(), DataTypes.TIME(3), DataTypes.TIMESTAMP(6),
                DataTypes.TIMESTAMP_LTZ(3), DataTypes.INT());
        String[] cells = {"true", "-128", "-2147483648", "9223372036854775807", "-Infinity", "-0.0", "-10.50",
            "😀, \"x\"", "ab", "00ff", "2024-02-29", "23:59:59.999", "2000-01-01T00:00:00.000001",
            "2021-03-28T01:00:00.123Z", null};
        FlussValues values = new FlussValues(type);
        assertThat(values.texts(values.row(cells))).containsExactly(cells);
        assertThat(FlussValues.rowKind(org.apache.fluss.record.ChangeType.APPEND_ONLY)).isZero();
        assertThat(FlussValues.rowKind(org.apache.fluss.record.ChangeType.DELETE)).isEqualTo((byte) 3);
    }
}
