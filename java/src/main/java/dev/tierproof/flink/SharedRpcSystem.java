package dev.tierproof.flink;

import dev.tierproof.run.RunDirectory;
import java.nio.file.Path;
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
    private static RpcSystem rpc;
    private static RunDirectory directory;

    private SharedRpcSystem() {}

    /** The JVM's RPC system, loaded on first use; a MiniCluster that borrows it leaves it open. */
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
        return Reference.borrowed(rpc);
    }

    private static synchronized void close() {
        try {
            rpc.close();
        } catch (Exception | Error ignored) {
            // the JVM is exiting: its class loader goes with it, and the directory below
        } finally {
            directory.close();
        }
    }
}
