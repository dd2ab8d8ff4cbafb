package dev.tierproof.flink;

import dev.tierproof.run.RunDirectory;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.util.Reference;

/**
 * Flink's RPC system, loaded once per JVM and lent to every MiniCluster it starts. Loading it
 * unpacks Flink's Pekko jar and loads its classes into a class loader of their own: a MiniCluster
 * that loads its own spends 1.1 s of its 1.2 s start there (a borrowed one starts in 0.15 s,
 * docs/speed.md), and a search, a bench or a test JVM starts dozens. The jar is unpacked into a
 * run directory of its own (in the JVM's temporary directory: the command line's run directory),
 * removed when the JVM exits, and swept by the next run after a {@code kill -9}.
 */
final class SharedRpcSystem {
    /**
     * How long the JVM's exit waits for the MiniClusters still running on it to stop (an
     * interrupted run stops its own meanwhile): closing the system under them would take their
     * classes away mid-stop. A MiniCluster's own stop is bounded by a minute.
     */
    private static final Duration WAIT_FOR_BORROWERS = Duration.ofSeconds(75);

    private static RpcSystem rpc;
    private static RunDirectory directory;
    private static int lent;

    private SharedRpcSystem() {}

    /**
     * The JVM's RPC system, loaded on first use; a MiniCluster that borrows it leaves it open and
     * gives it back ({@link #giveBack}) once it has stopped.
     */
    static synchronized Reference<RpcSystem> borrow() {
        if (rpc == null) {
            RunDirectory dir = RunDirectory.create(Path.of(System.getProperty("java.io.tmpdir")));
            Configuration conf = new Configuration();
            conf.set(CoreOptions.TMP_DIRS, dir.root().toString());
            try {
                rpc = RpcSystem.load(conf);
            } catch (RuntimeException | Error e) {
                dir.close();
                throw e;
            }
            directory = dir;
            Runtime.getRuntime().addShutdownHook(new Thread(SharedRpcSystem::close, "tierproof-flink-rpc"));
        }
        lent++;
        return Reference.borrowed(rpc);
    }

    /** A MiniCluster that borrowed the system has stopped (or failed to start). */
    static synchronized void giveBack() {
        lent--;
        SharedRpcSystem.class.notifyAll();
    }

    /** At the JVM's exit: once no MiniCluster runs on it (or after the wait), closed and removed. */
    private static synchronized void close() {
        long end = System.nanoTime() + WAIT_FOR_BORROWERS.toNanos();
        try {
            while (lent > 0 && System.nanoTime() < end) {
                SharedRpcSystem.class.wait(Math.max(1, (end - System.nanoTime()) / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            rpc.close();
        } catch (Exception | Error ignored) {
            // the JVM is exiting: its class loader goes with it, and the directory below
        } finally {
            directory.close();
        }
    }
}
