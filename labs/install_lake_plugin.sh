#!/usr/bin/env bash
# Installs Fluss's Paimon lake plugin (fluss-lake-paimon) into the local Maven repository: its pom on
# Maven Central names a parent pom (org.apache.fluss:fluss-lake) that was never published, so Maven
# cannot read its descriptor. The jar itself is fine and declares only provided dependencies, so we
# copy the jar and install it under its own coordinates with a generated pom. Safe to run again.
set -euo pipefail
# shellcheck source=labs/common.sh
source "$(dirname "$0")/common.sh"
fluss=$(prop fluss.version)

echo "  org.apache.fluss:fluss-lake-paimon:$fluss (jar only, installed with a generated pom)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# dependency-plugin 2.8 copies a jar whose descriptor cannot be read (with a warning); 3.x
# refuses. It runs outside the project so the project's plugin version does not apply.
(cd "$tmp" && mvn -B -q -U org.apache.maven.plugins:maven-dependency-plugin:2.8:copy \
  -Dartifact="org.apache.fluss:fluss-lake-paimon:$fluss:jar" -DoutputDirectory="$tmp") 2>&1 \
  | plain | grep -v "The POM for .* is invalid" || true
jar="$tmp/fluss-lake-paimon-$fluss.jar"
[ -s "$jar" ] || { echo "install_lake_plugin: could not fetch fluss-lake-paimon-$fluss.jar" >&2; exit 1; }
"${mvn[@]}" install:install-file -Dfile="$jar" -DgroupId=org.apache.fluss \
  -DartifactId=fluss-lake-paimon -Dversion="$fluss" -Dpackaging=jar -DgeneratePom=true 2>&1 | plain

