package dev.tierproof.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * {@code fake-gcs-server} (a Go program: {@code go install github.com/fsouza/fake-gcs-server}) as
 * the cluster's GCS store: one process serving Google Cloud Storage's JSON API on loopback only,
 * one bucket, reached through Google's GCS connector for Hadoop as a user's {@code gs://}
 * warehouse is. It keeps its objects in memory: its file-system backend cannot hold the
 * connector's directory markers (objects named {@code a/b/}), so a restart would lose the lake,
 * and {@code restart-lake} is refused on it.
 */
final class FakeGcs {
    /** The bucket the cluster's warehouse is in. */
    static final String BUCKET = "tierproof";
    /** The cluster's warehouse. */
    static final String WAREHOUSE = "gs://" + BUCKET + "/warehouse";
    /** The settings file tierproof's commands read ({@code --conf}). */
    static final String SETTINGS = "gcs.properties";
    /** What its command line names (the part's "main class"): the in-memory backend. */
    static final String BACKEND = "-backend=memory";
    static final String INSTALL = "./build.sh cluster up --lake gcs installs it (go install"
            + " github.com/fsouza/fake-gcs-server, the version java/pom.xml names, into java/gcs/bin)";

    private FakeGcs() {}

    /**
     * The binary: {@code -Dtierproof.fakegcs=PATH} (build.sh and the tests set it to the version
     * build.sh installs), else {@code fake-gcs-server} on the PATH. Refused, with the install
     * command, if there is none.
     */
    static Path binary() {
        return Programs.find("tierproof.fakegcs", "fake-gcs-server", List::of, "fake-gcs-server (the cluster's GCS"
                + " store)", INSTALL);
    }

    /**
     * Writes the settings file tierproof's commands read and the bucket to be made at start (a
     * directory of the server's data folder); returns the server's arguments: HTTP on
     * {@code loopback}'s {@code port} alone.
     */
    static List<String> configure(Path dir, String loopback, int port) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf").resolve("gcs"));
        Path data = Files.createDirectories(conf.resolve("buckets"));
        Files.createDirectories(data.resolve(BUCKET));
        String url = "http://" + loopback + ":" + port;
        Properties settings = new Properties();
        settings.setProperty("hadoop.fs.gs.storage.root.url", url + "/");
        settings.setProperty("hadoop.fs.gs.auth.type", "UNAUTHENTICATED");
        settings.setProperty("hadoop.fs.gs.project.id", "tierproof");
        // The emulator answers the connector's default rename (the moveTo call) with 400: renames go
        // as copy and delete, which the connector did before moveTo came.
        settings.setProperty("hadoop.fs.gs.operation.move.enable", "false");
        try (var out = Files.newOutputStream(dir.resolve(SETTINGS))) {
            settings.store(out, "the cluster's GCS store (fake-gcs-server): --conf for --warehouse " + WAREHOUSE);
        }
        return List.of(BACKEND, "-scheme=http", "-host=" + loopback, "-port=" + port, "-external-url=" + url,
                "-log-level=warn", "-data=" + data);
    }
}
