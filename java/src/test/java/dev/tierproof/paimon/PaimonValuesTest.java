package dev.tierproof.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Paimon's internal values, read as the same canonical text every other reader gives. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class PaimonValuesTest {
    @Test
    void everyTypeReadsAsItsCanonicalText() {
        List<DataField> fields = List.of(
                new DataField(0, "b", DataTypes.BOOLEAN()),
                new DataField(1, "f", DataTypes.FLOAT()),
                new DataField(2, "d", DataTypes.DECIMAL(12, 2)),
                new DataField(3, "s", DataTypes.STRING()),
                new DataField(4, "bytes", DataTypes.BYTES()),
                new DataField(5, "day", DataTypes.DATE()),
                new DataField(6, "time", DataTypes.TIME(3)),
                new DataField(7, "ntz", DataTypes.TIMESTAMP(6)),
                new DataField(8, "ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)),
                new DataField(9, "none", DataTypes.INT()));
        GenericRow row = GenericRow.of(true, Float.NEGATIVE_INFINITY,
                Decimal.fromBigDecimal(new BigDecimal("-10.50"), 12, 2), BinaryString.fromString("ü"),
                new byte[] {0, (byte) 0xff}, 19782, 86_399_999,
                Timestamp.fromLocalDateTime(LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1000)),
                Timestamp.fromEpochMillis(1616893200123L), null);
        assertThat(new PaimonValues(fields).texts(row)).containsExactly("true", "-Infinity", "-10.50", "ü", "00ff",
                "2024-02-29", "23:59:59.999", "2000-01-01T00:00:00.000001", "2021-03-28T01:00:00.123Z", null);
    }
}
