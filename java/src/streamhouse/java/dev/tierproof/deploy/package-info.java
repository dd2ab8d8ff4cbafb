/**
 * The parts `cluster up` deploys and how: each server a process of its own (ZooKeeper, Fluss's
 * coordinator and tablet servers, Flink's JobManager and TaskManager, the lake's store: SeaweedFS,
 * HDFS, fake-gcs-server), their class paths and programs, and stopping them.
 * Floor 7: imports fluss and below; never proof, audit, matrix, search or anything above.
 */
package dev.tierproof.deploy;
