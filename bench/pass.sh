#!/usr/bin/env bash
# One pass over the issues' targets, each disk benchmark on a fresh ext4 file system of its own (a loop image mounted
# at its BENCH_DIR), so that no pass reads a tree aged by the one before. Needs root (mount, netns). Run it with
# nothing else on the machine: on 2 cores a build or a helper halves any figure.
# Usage: bench/pass.sh NAME...   NAME: small (three fresh file systems, one run each), large, sync, peer, peer100,
#        azure, nfs. Logs in PASS_LOGS (default /tmp/bench-pass/NAME.log); the CLI is built once, first.
#        PASS_RUNS overrides the runs of large, sync, peer and peer100 (3, 3, 1, 1): on this noisy machine 5 give
#        steadier medians, at about twice the time.
source "$(dirname "$0")/lib.sh"
LOGS="${PASS_LOGS:-/tmp/bench-pass}"; IMAGES="${PASS_IMAGES:-/var/tmp/mover-pass}"
mkdir -p "$LOGS" "$IMAGES"
(( $# )) || { echo "usage: bench/pass.sh small|large|sync|peer|peer100|azure|nfs ..." >&2; exit 2; }
[[ "$(id -u)" == "0" ]] || { echo "bench/pass.sh: needs root (loop mounts, network namespaces)" >&2; exit 1; }
[[ "${BENCH_SKIP_BUILD:-0}" == "1" ]] || (cd "$BENCH_ROOT" && ./mvnw -B -q -DskipTests package -pl mover-cli -am)
export BENCH_SKIP_BUILD=1

# fresh_fs NAME GIB: a new ext4 image of GIB GiB mounted at $IMAGES/NAME.mnt, echoed
fresh_fs() {
  local name="$1" gib="$2" img="$IMAGES/$1.img" mnt="$IMAGES/$1.mnt"
  umount "$mnt" 2>/dev/null || true
  rm -f "$img"; truncate -s "${gib}G" "$img"
  mkfs.ext4 -q -F -i 4096 "$img"; mkdir -p "$mnt"; mount -o loop "$img" "$mnt"
  echo "$mnt"
}
release_fs() { umount "$IMAGES/$1.mnt" && rm -f "$IMAGES/$1.img"; }

# run NAME GIB CMD...: CMD with BENCH_DIR on a fresh file system, output to the log and the terminal
run() {
  local name="$1" gib="$2"; shift 2
  local dir; dir="$(fresh_fs "$name" "$gib")"
  echo "== $name $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg): $*" | tee -a "$LOGS/$name.log"
  BENCH_DIR="$dir" "$@" 2>&1 | tee -a "$LOGS/$name.log"
  release_fs "$name"
}

cd "$BENCH_ROOT"
for what in "$@"; do
  case "$what" in
    small) for i in 1 2 3; do RUNS=1 run small 8 bench/small-files.sh; done ;;
    large) RUNS="${PASS_RUNS:-3}" run large 16 bench/local-large-file.sh ;;
    sync) RUNS="${PASS_RUNS:-3}" run sync 24 bench/sync.sh ;;
    peer) RUNS="${PASS_RUNS:-1}" run peer 16 bench/peer.sh --mib 1024 --links "1gbit 10gbit loopback" ;;
    peer100) RUNS="${PASS_RUNS:-1}" run peer100 16 bench/peer.sh --mib 1024 --links "100mbit" ;;
    azure) run azure 24 bench/azure-files.sh ;;
    nfs) run nfs 16 bench/nfs.sh ;;
    *) echo "bench/pass.sh: unknown benchmark '$what' (small large sync peer peer100 azure nfs)" >&2; exit 2 ;;
  esac
done
echo "bench/pass.sh: logs in $LOGS" >&2
