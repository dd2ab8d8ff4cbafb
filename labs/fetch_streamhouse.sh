#!/usr/bin/env bash
# Pre-fetches Apache Fluss 0.9.1-incubating: the server (uber jar), the Flink 1.20 connector (with
# the tiering job), the Paimon lake plugin, and curator-test for an in-process ZooKeeper.
# Safe to run again.
#
# Why the lake plugin is installed by hand: its pom on Maven Central names a parent pom
# (org.apache.fluss:fluss-lake) that was never published, so Maven cannot read its descriptor.
# The jar itself is fine and declares only provided dependencies, so we copy the jar and install
# it into the local repository under its own coordinates with a generated pom.
set -euo pipefail
# shellcheck source=labs/common.sh
source "$(dirname "$0")/common.sh"
fluss=$(prop fluss.version)
curator=$(prop curator.version)

echo "fetch_streamhouse: Fluss $fluss, curator-test $curator"
get_all \
  "org.apache.fluss:fluss-server:$fluss" \
  "org.apache.fluss:fluss-flink-1.20:$fluss" \
  "org.apache.curator:curator-test:$curator"

bash "$here/install_lake_plugin.sh"

echo "fetch_streamhouse: done"
