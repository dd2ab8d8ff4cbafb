# Shared by the fetch scripts: the project's pom, Maven in batch mode, and the pom's versions.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pom="$here/../java/pom.xml"
mvn=(mvn -B -q -Dstyle.color=never -f "$pom")

# Maven 3.8 prints colour resets (ESC[0m) even in batch mode; keep them out of logs.
plain() { sed -u -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d'; }

prop() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$pom" | head -n 1; }

# Resolves each artifact (with what it pulls in) into the local repository.
get_all() {
  local a
  for a in "$@"; do
    echo "  $a"
    "${mvn[@]}" dependency:get -Dartifact="$a" 2>&1 | plain
  done
}
