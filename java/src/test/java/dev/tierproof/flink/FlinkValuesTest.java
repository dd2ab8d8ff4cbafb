package dev.tierproof.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.DataType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Flink's value table both ways: the core's canonical text as the value the ordered write hands
 * Flink's sink, and that value back as the same text (what a read of it gives the core).
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class FlinkValuesTest {
    @Test
    void everyTypeFromItsCanonicalTextAndBack() {
        roundTrip(DataTypes.BOOLEAN(), "true", Boolean.TRUE);
        roundTrip(DataTypes.TINYINT(), "-128", (byte) -128);
        roundTrip(DataTypes.SMALLINT(), "32767", (short) 32767);
        roundTrip(DataTypes.INT(), "-2147483648", Integer.MIN_VALUE);
        roundTrip(DataTypes.BIGINT(), "9223372036854775807", Long.MAX_VALUE);
        roundTrip(DataTypes.FLOAT(), "-Infinity", Float.NEGATIVE_INFINITY);
        roundTrip(DataTypes.DOUBLE(), "-0.0", -0.0d);
        roundTrip(DataTypes.DECIMAL(10, 2), "-12345678.90", new BigDecimal("-12345678.90"));
        roundTrip(DataTypes.STRING(), "a 'quoted' ü", "a 'quoted' ü");
        roundTrip(DataTypes.CHAR(3), "abc", "abc");
        roundTrip(DataTypes.DATE(), "2026-12-07", LocalDate.of(2026, 12, 7));
        roundTrip(DataTypes.TIME(3), "23:59:59.123", LocalTime.of(23, 59, 59, 123_000_000));
        roundTrip(DataTypes.TIMESTAMP(6), "2026-12-07T10:11:12.123456",
                LocalDateTime.of(2026, 12, 7, 10, 11, 12, 123_456_000));
        roundTrip(DataTypes.TIMESTAMP_LTZ(3), "2026-12-07T10:11:12.123Z",
                Instant.parse("2026-12-07T10:11:12.123Z"));
        assertThat((byte[]) FlinkValues.value(DataTypes.BYTES().getLogicalType(), "00ff10"))
                .containsExactly(0x00, 0xff, 0x10);
        assertThat(FlinkValues.text(new byte[] {0x00, (byte) 0xff, 0x10})).isEqualTo("00ff10");
    }

    @Test
    void aTimestampWithASpaceReadsAsTheIsoFormAndATypeItCannotWriteIsRefused() {
        assertThat(FlinkValues.value(DataTypes.TIMESTAMP(0).getLogicalType(), "2026-12-07 10:11:12"))
                .isEqualTo(LocalDateTime.of(2026, 12, 7, 10, 11, 12));
        assertThat(FlinkValues.text(null)).isNull();
        assertThatThrownBy(() -> FlinkValues.value(DataTypes.ARRAY(DataTypes.INT()).getLogicalType(), "[1]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ARRAY");
    }

    private static void roundTrip(DataType type, String text, Object value) {
        Object parsed = FlinkValues.value(type.getLogicalType(), text);
        assertThat(parsed).as("%s from %s", type, text).isEqualTo(value);
        assertThat(FlinkValues.text(parsed)).as("%s back to text", type).isEqualTo(text);
    }
}
