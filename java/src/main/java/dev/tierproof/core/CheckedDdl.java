package dev.tierproof.core;

/**
 * A user's {@code CREATE TABLE}, parsed and checked by the Rust core before anything runs.
 *
 * @param database the database the DDL names, or null when it names only the table
 * @param table the table the DDL creates
 * @param keyed whether it declares {@code PRIMARY KEY (id)}
 * @param sql the statement to run: rendered back from what was checked, quoted
 * @param ifNotExists whether the DDL said {@code IF NOT EXISTS} (a table that exists is refused anyway)
 */
public record CheckedDdl(String database, String table, boolean keyed, String sql, boolean ifNotExists) {}
