package dev.tierproof.core.verdict;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows as the core writes them (an array of rows, each an array of cells: text or null) bound in
 * one tight loop: a verdict of a big proof carries ~100 000 expected rows, which Jackson's
 * general collection binding took ~0.3 s to bind in a fresh JVM. Strict as the rest of the
 * verdict: anything but an array of arrays of strings and nulls fails.
 */
final class RowsDeserializer extends StdDeserializer<List<List<String>>> {
    RowsDeserializer() {
        super(List.class);
    }

    @Override
    public List<List<String>> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        expect(p, p.currentToken(), JsonToken.START_ARRAY, ctxt);
        List<List<String>> rows = new ArrayList<>();
        String[] cells = new String[8];
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            expect(p, t, JsonToken.START_ARRAY, ctxt);
            int n = 0;
            for (JsonToken c = p.nextToken(); c != JsonToken.END_ARRAY; c = p.nextToken()) {
                if (c != JsonToken.VALUE_STRING && c != JsonToken.VALUE_NULL) {
                    return ctxt.reportInputMismatch(this, "a cell of a row is text or null, not %s", c);
                }
                if (n == cells.length) {
                    cells = Arrays.copyOf(cells, n * 2);
                }
                cells[n++] = c == JsonToken.VALUE_NULL ? null : p.getText();
            }
            // Cells may be null, which List.of refuses: an unmodifiable view of a copy.
            rows.add(java.util.Collections.unmodifiableList(Arrays.asList(Arrays.copyOf(cells, n))));
        }
        return rows;
    }

    private List<List<String>> expect(JsonParser p, JsonToken got, JsonToken want, DeserializationContext ctxt)
            throws IOException {
        if (got != want) {
            return ctxt.reportInputMismatch(this, "rows are arrays of arrays: expected %s, found %s", want, got);
        }
        return null;
    }
}
