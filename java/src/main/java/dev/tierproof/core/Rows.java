package dev.tierproof.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * Upserts of the exercise's {@code (id INT, bal INT)} table as columns, as the Rust core takes them:
 * {@code balIsNull[i]} marks a NULL balance (then {@code bals[i]} is meaningless).
 */
public final class Rows {
    private final int[] ids;
    private final int[] bals;
    private final boolean[] balIsNull;

    public Rows(int[] ids, int[] bals, boolean[] balIsNull) {
        this.ids = Objects.requireNonNull(ids, "ids");
        this.bals = Objects.requireNonNull(bals, "bals");
        this.balIsNull = Objects.requireNonNull(balIsNull, "balIsNull");
        if (ids.length != bals.length || ids.length != balIsNull.length) {
            throw new IllegalArgumentException(
                    "row columns differ in length: "
                            + ids.length + " ids, " + bals.length + " bals, " + balIsNull.length + " null flags");
        }
    }

    public int size() {
        return ids.length;
    }

    public int id(int i) {
        return ids[i];
    }

    /** The balance of row {@code i}, or null. */
    public Integer bal(int i) {
        return balIsNull[i] ? null : bals[i];
    }

    int[] ids() {
        return ids;
    }

    int[] bals() {
        return bals;
    }

    boolean[] balIsNull() {
        return balIsNull;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < size(); i++) {
            sb.append(i == 0 ? "" : ", ").append('(').append(ids[i]).append(", ");
            sb.append(balIsNull[i] ? "NULL" : String.valueOf(bals[i])).append(')');
        }
        return sb.append(']').toString();
    }

    /** Appends rows one at a time. */
    public static final class Builder {
        private int[] ids = new int[16];
        private int[] bals = new int[16];
        private boolean[] nulls = new boolean[16];
        private int size;

        public Builder add(int id, Integer bal) {
            if (size == ids.length) {
                int n = size * 2;
                ids = Arrays.copyOf(ids, n);
                bals = Arrays.copyOf(bals, n);
                nulls = Arrays.copyOf(nulls, n);
            }
            ids[size] = id;
            bals[size] = bal == null ? 0 : bal;
            nulls[size] = bal == null;
            size++;
            return this;
        }

        public Rows build() {
            return new Rows(Arrays.copyOf(ids, size), Arrays.copyOf(bals, size), Arrays.copyOf(nulls, size));
        }
    }
}
