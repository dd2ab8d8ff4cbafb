package dev.tierproof.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the Rust core ({@code libtierproof}) once per class loader: first from
 * {@code java.library.path}, else from the copy packaged under {@code native/<os>-<arch>/},
 * extracted to a temporary file.
 */
public final class NativeLibrary {
    private static final String NAME = "tierproof";
    private static volatile boolean loaded;

    private NativeLibrary() {}

    public static void load() {
        if (loaded) {
            return;
        }
        synchronized (NativeLibrary.class) {
            if (loaded) {
                return;
            }
            try {
                System.loadLibrary(NAME);
            } catch (UnsatisfiedLinkError notOnPath) {
                loadPackaged(notOnPath);
            }
            loaded = true;
        }
    }

    /** The resource folder of this platform, e.g. {@code native/linux-x86_64}. */
    public static String platformDirectory() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String osName = os.contains("mac") ? "macos" : os.contains("win") ? "windows" : "linux";
        String archName =
                switch (arch) {
                    case "amd64", "x86_64" -> "x86_64";
                    case "aarch64", "arm64" -> "aarch64";
                    default -> arch;
                };
        return "native/" + osName + "-" + archName;
    }

    private static void loadPackaged(UnsatisfiedLinkError notOnPath) {
        String file = System.mapLibraryName(NAME);
        String resource = platformDirectory() + "/" + file;
        try (InputStream in = NativeLibrary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new TierproofException(
                        "the tierproof native library is neither on java.library.path ("
                                + notOnPath.getMessage()
                                + ") nor packaged as "
                                + resource
                                + "; build it with ./build.sh build");
            }
            // The directory as it is now (the command line moves it into its run directory).
            Path tmp = Files.createTempFile(Path.of(System.getProperty("java.io.tmpdir")), "lib" + NAME + "-",
                    "-" + file);
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            System.load(tmp.toAbsolutePath().toString());
        } catch (IOException e) {
            throw new TierproofException("could not extract " + resource + ": " + e.getMessage(), e);
        }
    }
}
