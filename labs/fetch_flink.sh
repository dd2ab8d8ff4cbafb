#!/usr/bin/env bash
# Pre-fetches Flink 1.20, Paimon 1.3.1 and Hadoop's shaded client, with everything they pull in,
# into the local Maven repository (the rest of the build's dependencies are small and resolve on
# the first build). Safe to run again.
set -euo pipefail
# shellcheck source=labs/common.sh
source "$(dirname "$0")/common.sh"
flink=$(prop flink.version)
paimon=$(prop paimon.version)
hadoop=$(prop hadoop.version)

echo "fetch_flink: Flink $flink, Paimon $paimon, Hadoop client $hadoop"
get_all \
  "org.apache.flink:flink-table-api-java-bridge:$flink" \
  "org.apache.flink:flink-table-planner-loader:$flink" \
  "org.apache.flink:flink-table-runtime:$flink" \
  "org.apache.flink:flink-clients:$flink" \
  "org.apache.flink:flink-connector-base:$flink" \
  "org.apache.flink:flink-connector-files:$flink" \
  "org.apache.paimon:paimon-flink-1.20:$paimon" \
  "org.apache.paimon:paimon-s3:$paimon" \
  "org.apache.hadoop:hadoop-client-api:$hadoop" \
  "org.apache.hadoop:hadoop-client-runtime:$hadoop"
echo "fetch_flink: done"
