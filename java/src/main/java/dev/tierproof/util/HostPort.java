package dev.tierproof.util;

/** A server's address as an option gives it, {@code HOST:PORT}, checked before anything starts. */
public record HostPort(String host, int port) {
    /**
     * {@code value} as HOST:PORT (a port in range), or an {@link IllegalArgumentException} naming
     * {@code option}, the value and {@code what} it should be.
     */
    public static HostPort parse(String option, String value, String what) {
        int colon = value == null ? -1 : value.lastIndexOf(':');
        int port;
        try {
            port = colon > 0 ? Integer.parseInt(value.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(option + " " + value + " is not HOST:PORT (" + what + ")");
        }
        return new HostPort(value.substring(0, colon), port);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
