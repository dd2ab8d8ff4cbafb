package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.HttpPoll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HDFS as the cluster's lake ({@code cluster up --lake hdfs}): a NameNode and a DataNode, each a
 * process of its own on Hadoop's own jars (not tierproof's class path: see {@code java/hdfs/pom.xml}),
 * every listener on loopback, their data in the cluster's directory, replication 1.
 */
final class Hdfs {
    static final String NAMENODE = "org.apache.hadoop.hdfs.server.namenode.NameNode";
    static final String DATANODE = "org.apache.hadoop.hdfs.server.datanode.DataNode";
    /** The parts' names in the cluster. */
    static final String NAMENODE_PART = "hdfs-namenode";
    static final String DATANODE_PART = "hdfs-datanode";
    /** The file of Hadoop's server class path build.sh resolves: {@code -Dtierproof.hdfs.classpath=FILE}. */
    static final String CLASS_PATH_PROPERTY = "tierproof.hdfs.classpath";
    private static final String CONF = "hadoop.xml";

    private Hdfs() {}

    /** The ports HDFS listens on: the NameNode's RPC and HTTP, the DataNode's data, HTTP and IPC. */
    record Ports(int rpc, int http, int data, int dataHttp, int dataIpc) {}

    /** The cluster's warehouse, on its NameNode. */
    static String warehouse(String loopback, Ports ports) {
        return "hdfs://" + loopback + ":" + ports.rpc() + "/warehouse";
    }

    /**
     * Hadoop's server class path, as build.sh resolved it; refused, saying how to get it, when it
     * was not.
     */
    static String classPath() {
        return ResolvedClassPath.read(CLASS_PATH_PROPERTY, "HDFS's jars", "./build.sh cluster up --lake hdfs resolves"
                + " them (mvn -f java/hdfs/pom.xml dependency:build-classpath)");
    }

    /**
     * Writes each part's configuration ({@code -conf} file, log4j settings, class path) in the
     * cluster's directory; the NameNode's and DataNode's data go there too.
     */
    static void configure(Path dir, String loopback, Ports ports) throws IOException {
        String classPath = classPath();
        Path data = Files.createDirectories(dir.resolve("hdfs"));
        Map<String, String> o = new LinkedHashMap<>();
        o.put("fs.defaultFS", "hdfs://" + loopback + ":" + ports.rpc());
        o.put("hadoop.tmp.dir", data.resolve("tmp").toString());
        o.put("dfs.namenode.name.dir", data.resolve("name").toString());
        o.put("dfs.datanode.data.dir", data.resolve("data").toString());
        o.put("dfs.replication", "1");
        o.put("dfs.namenode.rpc-address", loopback + ":" + ports.rpc());
        o.put("dfs.namenode.rpc-bind-host", loopback);
        o.put("dfs.namenode.http-address", loopback + ":" + ports.http());
        o.put("dfs.datanode.address", loopback + ":" + ports.data());
        o.put("dfs.datanode.http.address", loopback + ":" + ports.dataHttp());
        o.put("dfs.datanode.ipc.address", loopback + ":" + ports.dataIpc());
        // Out of safe mode as soon as the (empty) namespace is loaded, not 30 s later.
        o.put("dfs.namenode.safemode.extension", "0");
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        o.forEach((k, v) -> xml.append("  <property><name>").append(escaped(k)).append("</name><value>")
                .append(escaped(v)).append("</value></property>\n"));
        xml.append("</configuration>\n");
        for (String part : List.of(NAMENODE_PART, DATANODE_PART)) {
            Path conf = Files.createDirectories(dir.resolve("conf").resolve(part));
            Files.writeString(conf.resolve(CONF), xml);
            // log4j 1 finds its settings on the class path: the part's configuration directory first.
            Files.writeString(conf.resolve("log4j.properties"), String.join("\n",
                    "log4j.rootLogger=INFO,console", "log4j.appender.console=org.apache.log4j.ConsoleAppender",
                    "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
                    "log4j.appender.console.layout.ConversionPattern=%d{HH:mm:ss,SSS} %p %c{1}: %m%n", ""));
            Files.writeString(conf.resolve(ProcessCluster.CLASS_PATH), conf + java.io.File.pathSeparator + classPath);
        }
    }

    /** Text as XML character data (a cluster directory may hold {@code &} or {@code <}). */
    static String escaped(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** A part's arguments: its configuration file (Hadoop's generic {@code -conf}), which also marks it as ours. */
    static String[] args(Path dir, String part) {
        return new String[] {"-conf", dir.resolve("conf").resolve(part).resolve(CONF).toString()};
    }

    /** The NameNode's one-time {@code -format} of the cluster's new, empty namespace. */
    static String[] formatArgs(Path dir) {
        String[] conf = args(dir, NAMENODE_PART);
        return new String[] {conf[0], conf[1], "-format", "-nonInteractive"};
    }

    /** How long a DataNode's log may stay still before a DataNode past its deadline is given up on. */
    private static final Duration STILL = Duration.ofSeconds(20);

    /**
     * Waits until the NameNode serves writes with the DataNode {@code dataNode} (its pid) live. A
     * DataNode that exits fails the wait at once, naming its log's end; past {@code deadline}, one
     * whose log still grows is still starting and is waited for, up to three times the deadline
     * (slow is not stalled: a loaded machine starts a JVM slowly). Any other failure names the
     * NameNode's state and the DataNode's log.
     */
    static void awaitWritable(Path dir, Duration deadline, long dataNode) throws InterruptedException {
        Path log = dir.resolve("logs").resolve(DATANODE_PART + ".log");
        long start = System.nanoTime();
        long size = -1;
        long grew = start;
        while (true) {
            try {
                awaitWritable(dir, Duration.ofSeconds(5));
                return;
            } catch (TierproofException notYet) {
                if (!dev.tierproof.util.Processes.running(dataNode)) {
                    throw new TierproofException("HDFS's DataNode (pid " + dataNode + ") exited before the NameNode"
                            + " saw it; the end of its log:\n" + String.join("\n", Launcher.tail(log)), notYet);
                }
                long now = System.nanoTime();
                long grown = log.toFile().length();
                if (grown != size) {
                    size = grown;
                    grew = now;
                }
                boolean still = now - grew >= STILL.toNanos();
                long waited = now - start;
                if (waited >= 3 * deadline.toNanos() || (waited >= deadline.toNanos() && still)) {
                    throw new TierproofException(notYet.getMessage() + "; the DataNode (pid " + dataNode + ") runs, its"
                            + " log " + (still ? "still for " + STILL.toSeconds() + " s" : "still growing")
                            + "; the end of its log:\n" + String.join("\n", Launcher.tail(log)), notYet);
                }
            }
        }
    }

    /**
     * Waits until the NameNode serves writes: out of safe mode, with a live DataNode (its JMX, on
     * loopback), within {@code deadline}; its addresses read from the configuration in {@code dir}.
     */
    static void awaitWritable(Path dir, Duration deadline) throws InterruptedException {
        String conf;
        try {
            conf = Files.readString(dir.resolve("conf").resolve(NAMENODE_PART).resolve(CONF));
        } catch (IOException e) {
            throw new TierproofException("could not read HDFS's configuration in " + dir + ": " + e.getMessage(), e);
        }
        awaitWritable(setting(conf, "dfs.namenode.http-address"), setting(conf, "dfs.namenode.rpc-address"), deadline);
    }

    private static String setting(String xml, String name) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<name>" + java.util.regex.Pattern.quote(name)
                + "</name><value>([^<]*)</value>").matcher(xml);
        if (!m.find()) {
            throw new TierproofException("HDFS's configuration has no " + name);
        }
        return m.group(1);
    }

    private static void awaitWritable(String http, String rpc, Duration deadline) throws InterruptedException {
        String last = HttpPoll.until(HttpPoll.to("http://" + http
                + "/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState").build(),
                r -> r.body().matches("(?s).*\"NumLiveDataNodes\"\\s*:\\s*[1-9].*")
                        && r.body().contains("\"FSState\" : \"Operational\""), deadline);
        if (last != null) {
            throw new TierproofException("HDFS's NameNode at " + rpc + " had no live DataNode"
                    + " within " + deadline.toSeconds() + " s (last answer: " + brief(last) + ")");
        }
    }

    /** The NameNode's answer in brief: its live DataNodes and state, not the whole JMX bean. */
    static String brief(String answer) {
        java.util.regex.Matcher live = java.util.regex.Pattern.compile("\"NumLiveDataNodes\"\\s*:\\s*(\\d+)")
                .matcher(answer);
        java.util.regex.Matcher state = java.util.regex.Pattern.compile("\"FSState\"\\s*:\\s*\"([^\"]*)\"")
                .matcher(answer);
        if (!live.find() || !state.find()) {
            return answer.length() > 300 ? answer.substring(0, 300) + "…" : answer;
        }
        return "live DataNodes " + live.group(1) + ", state " + state.group(1);
    }
}
