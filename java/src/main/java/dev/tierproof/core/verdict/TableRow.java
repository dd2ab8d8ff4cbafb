package dev.tierproof.core.verdict;

import com.fasterxml.jackson.annotation.JsonFormat;

/** A row of the {@code (id INT, bal INT)} table as the oracle reports it: {@code [id, bal]}. */
@JsonFormat(shape = JsonFormat.Shape.ARRAY)
public record TableRow(int id, Integer bal) {
    @Override
    public String toString() {
        return "(" + id + ", " + (bal == null ? "NULL" : bal) + ")";
    }
}
