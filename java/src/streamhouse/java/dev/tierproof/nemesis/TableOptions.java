package dev.tierproof.nemesis;

/** The run's table as {@code ALTER TABLE} sees it: an option's value now, and {@code SET}. */
public interface TableOptions {
    /** None in reach (a test's target): asking is an error of the run. */
    TableOptions NONE = new TableOptions() {
        @Override
        public String get(String key) {
            throw new IllegalStateException("no table options in reach");
        }

        @Override
        public void set(String key, String value) {
            throw new IllegalStateException("no table options in reach");
        }
    };

    /** The option's value now, or null when the table does not set it. */
    String get(String key);

    /** Sets it as {@code ALTER TABLE … SET} does, once the server has taken it. */
    void set(String key, String value);
}
