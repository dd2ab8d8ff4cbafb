package dev.tierproof.core;

import java.util.Objects;

/** Input files as text, checked by the Rust core. */
public final class TextInput {
    static {
        NativeLibrary.load();
    }

    private TextInput() {}

    /** A file's bytes as text; invalid UTF-8 is refused naming {@code what}, the line and the byte. */
    public static String utf8(String what, byte[] bytes) {
        return nativeUtf8Text(Objects.requireNonNull(what, "what"), Objects.requireNonNull(bytes, "bytes"));
    }

    private static native String nativeUtf8Text(String what, byte[] bytes);
}
