#!/usr/bin/env bash
# Pre-fetches Flink 1.20, Paimon 1.3.1 and the Hadoop uber jar (with everything they pull in)
# and the Maven plugins of the build into the local Maven repository, so builds and tests can
# run offline afterwards. Safe to run again.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pom="$here/../java/pom.xml"
mvn=(mvn -B -q -f "$pom")

prop() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$pom" | head -n 1; }
flink=$(prop flink.version)
paimon=$(prop paimon.version)
hadoop=$(prop hadoop.uber.version)

echo "fetch_flink: Flink $flink, Paimon $paimon, Hadoop uber $hadoop"
for a in \
  "org.apache.flink:flink-table-api-java-bridge:$flink" \
  "org.apache.flink:flink-table-planner-loader:$flink" \
  "org.apache.flink:flink-table-runtime:$flink" \
  "org.apache.flink:flink-clients:$flink" \
  "org.apache.flink:flink-connector-base:$flink" \
  "org.apache.flink:flink-connector-files:$flink" \
  "org.apache.paimon:paimon-flink-1.20:$paimon" \
  "org.apache.flink:flink-shaded-hadoop-2-uber:$hadoop"; do
  echo "  $a"
  "${mvn[@]}" dependency:get -Dartifact="$a"
done
echo "fetch_flink: done"
