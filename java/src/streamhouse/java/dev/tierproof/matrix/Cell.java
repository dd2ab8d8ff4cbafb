package dev.tierproof.matrix;

/**
 * One cell of the matrix: a table configuration read one way.
 *
 * @param engine deduplicate, first-row, partial-update, aggregation or append-only
 * @param producer the changelog producer
 * @param read batch, streaming-replay or streaming-latest-full
 * @param verdict consistent, inconsistent, refused (by Paimon) or not-run (the table cannot take
 *     the workload: a delete on a first-row table)
 * @param reason why it was refused (Paimon's own message) or not run, or what differs
 * @param missing rows the read lacks against the engine's expected state
 * @param extra rows the read holds beyond it
 * @param equalsBatch whether the read folds to the same rows as the batch read
 * @param changes changes the read delivered
 * @param rows rows the read folded to
 * @param diffSample a few differing rows, for people
 * @param millis how long the read took
 */
public record Cell(
        String engine,
        String producer,
        String read,
        String verdict,
        String reason,
        long missing,
        long extra,
        boolean equalsBatch,
        long changes,
        long rows,
        String diffSample,
        long millis) {
    public static final String CONSISTENT = "consistent";
    public static final String INCONSISTENT = "inconsistent";
    public static final String REFUSED = "refused";
    public static final String NOT_RUN = "not-run";

    static Cell refused(String engine, String producer, String read, String reason) {
        return new Cell(engine, producer, read, REFUSED, reason, 0, 0, false, 0, 0, "", 0);
    }

    static Cell notRun(String engine, String producer, String read, String reason) {
        return new Cell(engine, producer, read, NOT_RUN, reason, 0, 0, false, 0, 0, "", 0);
    }
}
