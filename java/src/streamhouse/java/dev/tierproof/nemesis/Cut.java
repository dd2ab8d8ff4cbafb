package dev.tierproof.nemesis;

/** What a network fault does to one server's link, inside the network namespace the cluster made for it. */
public enum Cut {
    /** Every packet it sends is dropped: cut off from every other server, ZooKeeper and the clients. */
    ISOLATE("cut off from everyone"),
    /** Its packets to ZooKeeper are dropped: its session expires while it still serves the clients. */
    FROM_ZOOKEEPER("cut off from ZooKeeper only"),
    /**
     * Its packets to the other Fluss servers (tablet servers and the coordinator) are dropped, and
     * only those: a majority/minority split with ZooKeeper on its side, so its session holds and no
     * one elects a new leader while its followers cannot fetch.
     */
    FROM_SERVERS("cut off from the other servers and the coordinator, ZooKeeper still reaching it"),
    /** Its packets to the host are dropped: the clients, Flink and the lake's store lose it; the servers do not. */
    FROM_CLIENTS("cut off from the clients only"),
    /** Its link delays every packet 200 ms (± 50 ms) and loses 5 % of them ({@code tc netem}). */
    SLOW("slow and lossy (200 ms ± 50 ms, 5 % loss)");

    private final String text;

    Cut(String text) {
        this.text = text;
    }

    /** What it does, for the report: {@code cut off from ZooKeeper only}. */
    public String text() {
        return text;
    }
}
