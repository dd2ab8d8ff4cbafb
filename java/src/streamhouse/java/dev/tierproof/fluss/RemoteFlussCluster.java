package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.HostPort;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * A Fluss cluster tierproof did not start ({@code --fluss HOST:PORT}): it is only connected to.
 * tierproof creates its own tables there and restarts nothing.
 */
public final class RemoteFlussCluster implements FlussCluster {
    private final String bootstrap;

    private RemoteFlussCluster(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    /**
     * {@code HOST:PORT} checked (a port in range) and reachable within {@code timeout}; a bad
     * value is named before anything starts.
     */
    public static RemoteFlussCluster connect(String hostPort, Duration timeout) {
        HostPort address = HostPort.parse("--fluss", hostPort, "a coordinator's address");
        String host = address.host();
        int port = address.port();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
        } catch (Exception e) {
            throw new TierproofException("no Fluss coordinator answers at --fluss " + hostPort + ": " + e.getMessage(),
                    e);
        }
        return new RemoteFlussCluster(host + ":" + port);
    }

    /**
     * Refuses a cluster that holds lake-enabled tables: the tiering job tierproof runs tiers every
     * table the coordinator hands it, so it would write those tables into {@code --warehouse} and
     * commit their lake snapshots to that cluster — tables tierproof did not create.
     */
    public RemoteFlussCluster refuseIfOthersWouldBeTiered(Duration timeout) {
        List<String> lake = new ArrayList<>();
        try (Connection connection = Clients.open(clientConfig())) {
            Admin admin = connection.getAdmin();
            for (String db : admin.listDatabases().get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                for (String t : admin.listTables(db).get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    TableInfo info = admin.getTableInfo(TablePath.of(db, t)).get(timeout.toMillis(),
                            TimeUnit.MILLISECONDS);
                    if (info.getTableConfig().isDataLakeEnabled()) {
                        lake.add(db + "." + t);
                    }
                }
            }
        } catch (Exception e) {
            throw new TierproofException("could not list the tables of the Fluss cluster at --fluss " + bootstrap
                    + ": " + e.getMessage(), e);
        }
        java.util.Collections.sort(lake);
        if (!lake.isEmpty()) {
            throw new IllegalArgumentException("the Fluss cluster at --fluss " + bootstrap + " has lake-enabled tables ("
                    + String.join(", ", lake.subList(0, Math.min(5, lake.size()))) + (lake.size() > 5 ? ", …" : "")
                    + "): the tiering job tierproof runs would tier them too, into --warehouse, and commit their lake"
                    + " snapshots to that cluster; tierproof proves only on a cluster whose lake tables are its own"
                    + " (./build.sh cluster up, then --cluster DIR)");
        }
        return this;
    }

    /**
     * Refuses a {@code --warehouse} that is not the lake the cluster tiers into, as its servers'
     * configuration says ({@code datalake.format}, {@code datalake.paimon.warehouse}): its
     * coordinator makes each lake table in its own warehouse, so with another one the tiering job
     * finds no table there and a failed run's lake table would be left in the cluster's. A cluster
     * that does not tell its configuration (an older server, no permission) is taken at its word.
     */
    public RemoteFlussCluster refuseIfLakeElsewhere(dev.tierproof.paimon.LakeLocation lake, Duration timeout) {
        java.util.Map<String, String> configs = new java.util.HashMap<>();
        try (Connection connection = Clients.open(clientConfig())) {
            connection.getAdmin().describeClusterConfigs().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach(e -> {
                        if (e.value() != null
                                && (e.key().equals("datalake.format") || e.key().equals("datalake.paimon.warehouse"))) {
                            configs.put(e.key(), e.value());
                        }
                    });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("reading the configuration of the Fluss cluster at --fluss " + bootstrap
                    + " was interrupted", e);
        } catch (Exception unknown) {
            return this;
        }
        String format = configs.get("datalake.format");
        if (format == null) {
            throw new IllegalArgumentException("the Fluss cluster at --fluss " + bootstrap + " has no lake"
                    + " (datalake.format is not set in its servers' configuration): nothing would be tiered");
        }
        if (!format.equalsIgnoreCase("paimon")) {
            throw new IllegalArgumentException("the Fluss cluster at --fluss " + bootstrap + " tiers into "
                    + format + " (datalake.format), not Paimon");
        }
        String theirs = configs.get("datalake.paimon.warehouse");
        if (theirs != null && !sameWarehouse(theirs, lake)) {
            throw new IllegalArgumentException("--warehouse " + lake + " is not the warehouse the Fluss cluster at"
                    + " --fluss " + bootstrap + " tiers into (datalake.paimon.warehouse = " + withoutUserInfo(theirs)
                    + "): its lake tables are made there");
        }
        return this;
    }

    /**
     * Whether a cluster's configured warehouse may be {@code lake}: the same URI (s3, s3a and s3n
     * alike; the host in any case; HDFS's default port 8020 said or not; trailing slashes aside),
     * or the same directory (through links, when it exists here; one that does not exist here may
     * be the servers' view of it, as from a container: not refused).
     */
    static boolean sameWarehouse(String configured, dev.tierproof.paimon.LakeLocation lake) {
        String theirs = configured.strip();
        if (lake.isLocal()) {
            String path = theirs.startsWith("file://") ? theirs.substring("file://".length())
                    : theirs.startsWith("file:") ? theirs.substring("file:".length()) : theirs;
            if (path.contains("://") || !path.startsWith("/")) {
                return false;
            }
            java.nio.file.Path p = java.nio.file.Path.of(path).normalize();
            if (p.equals(lake.directory())) {
                return true;
            }
            try {
                return !java.nio.file.Files.exists(p) || java.nio.file.Files.isSameFile(p, lake.directory());
            } catch (java.io.IOException e) {
                return false;
            }
        }
        return canonical(theirs).equals(canonical(lake.warehouse()));
    }

    /** A warehouse URI compared by what it reaches. */
    private static String canonical(String uri) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://([^/]*)(/.*)?")
                .matcher(uri);
        if (!m.matches()) {
            return uri;
        }
        String scheme = m.group(1).toLowerCase(java.util.Locale.ROOT);
        scheme = scheme.equals("s3a") || scheme.equals("s3n") ? "s3" : scheme;
        String authority = m.group(2).toLowerCase(java.util.Locale.ROOT);
        if (scheme.equals("hdfs") && authority.endsWith(":8020")) {
            authority = authority.substring(0, authority.length() - ":8020".length());
        }
        String path = m.group(3) == null ? "" : m.group(3);
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return scheme + "://" + authority + path;
    }

    /** A URI as it may be said: without a {@code user:password@} part. */
    static String withoutUserInfo(String uri) {
        return uri.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@", "$1");
    }

    @Override
    public String bootstrapServers() {
        return bootstrap;
    }

    @Override
    public boolean startedForThisRun() {
        return false;
    }

    private static IllegalArgumentException noFaults() {
        return new IllegalArgumentException("faults restart servers, which tierproof does only on the cluster it"
                + " starts itself: leave --fluss out to run them");
    }

    @Override
    public void restartTabletServer(int id, boolean samePort) {
        throw noFaults();
    }

    @Override
    public void restartCoordinator() {
        throw noFaults();
    }

    @Override
    public void restartZooKeeper() {
        throw noFaults();
    }
}
