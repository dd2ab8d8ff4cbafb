package dev.tierproof.flink;

import dev.tierproof.core.TierproofException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.HexFormat;
import org.apache.flink.types.Row;

/**
 * The values a Flink read returns, as the text the Rust core parses (it alone decides what is
 * equal): numbers as Java prints them, decimals plain, bytes as hex, dates and times in ISO form,
 * instants in UTC. NULL stays null.
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
}
