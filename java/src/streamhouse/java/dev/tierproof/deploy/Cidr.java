package dev.tierproof.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** IPv4 prefixes, to tell whether a subnet a cluster would take overlaps one this machine uses. */
final class Cidr {
    private static final Pattern PREFIX = Pattern.compile("(?<![\\d.])(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})"
            + "(?:/(\\d{1,2}))?(?![\\d.])");

    private Cidr() {}

    /** Every address or prefix named in {@code text} (the output of ip route and ip addr), as {first, last}. */
    static List<long[]> taken(String text) {
        List<long[]> out = new ArrayList<>();
        Matcher m = PREFIX.matcher(text);
        while (m.find()) {
            out.add(range(m));
        }
        return out;
    }

    /** Whether {@code cidr} overlaps any of {@code taken}. */
    static boolean overlaps(List<long[]> taken, String cidr) {
        Matcher m = PREFIX.matcher(cidr);
        if (!m.find()) {
            throw new IllegalArgumentException(cidr + " is no IPv4 prefix");
        }
        long[] r = range(m);
        return taken.stream().anyMatch(t -> t[0] <= r[1] && r[0] <= t[1]);
    }

    private static long[] range(Matcher m) {
        long address = 0;
        for (int i = 1; i <= 4; i++) {
            address = address << 8 | Math.min(255, Integer.parseInt(m.group(i)));
        }
        int bits = m.group(5) == null ? 32 : Math.min(32, Integer.parseInt(m.group(5)));
        long size = 1L << (32 - bits);
        long first = address & ~(size - 1) & 0xffffffffL;
        return new long[] {first, first + size - 1};
    }
}
