#!/usr/bin/env bash
# Codec throughput: every codec of mover-plugin-codecs on ~64 MiB of mixed data, 1 thread and N threads,
# compared with the single-core figures of DESIGN §10. Usage: bench/codecs.sh [--mib 64] [--runs 3] [--threads 2] [--codecs lz4,zstd:1]
set -euo pipefail
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
root="$(cd "$(dirname "$0")/.." && pwd)"
module="$root/mover-plugins/mover-plugin-codecs"
cd "$root"

stamp="$module/target/bench.stamp"
if [[ ! -f "$stamp" || -n "$(find "$module/src" "$root/mover-spi/src" -newer "$stamp" -type f -print -quit)" ]]; then
  echo "building mover-plugin-codecs..." >&2
  ./mvnw -B -q test-compile -pl mover-plugins/mover-plugin-codecs -am >&2
  touch "$stamp"
fi

aircompressor_version="$(sed -n 's:.*<aircompressor.version>\(.*\)</aircompressor.version>.*:\1:p' pom.xml)"
repository="${MAVEN_REPOSITORY:-$HOME/.m2/repository}"
classpath="$module/target/classes:$module/target/test-classes:$root/mover-spi/target/classes"
classpath="$classpath:$repository/io/airlift/aircompressor-v3/$aircompressor_version/aircompressor-v3-$aircompressor_version.jar"

exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xmx2g -XX:MaxDirectMemorySize=2g \
  -cp "$classpath" io.mover.plugins.codecs.bench.CodecThroughput "$@"
