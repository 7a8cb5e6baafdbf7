#!/usr/bin/env bash
# Does `mover bench` on a tcp:// target recommend settings that pay off? On a link emulated with two
# network namespaces and tbf (BENCHMARKING notes), it runs the streams x codecs sweep against a receiver,
# then copies the same kind of generated data with the recommended options and with copy's defaults
# (--streams 4 --codec auto), RUNS times each, alternating, and prints the medians side by side.
#
# Usage (root, for ip netns):
#   bench/bench-link.sh [--rate 1gbit] [--data text] [--files 64] [--size 4MiB] [--copy-files 256]
# RUNS=3, BENCH_DIR=/tmp/mover-bench, BENCH_SKIP_BUILD=1 to reuse the build. The receiver writes to the
# page cache (--no-fsync). Each copy's time includes the CLI's start and its JIT warm-up (seconds on a busy
# machine), which the bench's cells, measured inside one warm JVM, do not: the copies are larger
# (--copy-files, default 4 x --files) so that the setting, not the start, decides.
source "$(dirname "$0")/lib.sh"

RATE=1gbit
DATA=text
FILES=64
SIZE=4MiB
COPY_FILES=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rate) RATE="$2"; shift 2 ;;
    --data) DATA="$2"; shift 2 ;;
    --files) FILES="$2"; shift 2 ;;
    --size) SIZE="$2"; shift 2 ;;
    --copy-files) COPY_FILES="$2"; shift 2 ;;
    *) echo "bench: unknown option $1" >&2; exit 1 ;;
  esac
done
need ip tc python3
[[ $EUID -eq 0 ]] || { echo "bench: network namespaces need root" >&2; exit 1; }

SEND_NS=mvlinkA
RECV_NS=mvlinkB
RECV_IP=10.204.0.2
PORT=7412
mkdir -p "$BENCH_DIR"
RESULTS="$BENCH_DIR/link-results.txt"
: > "$RESULTS"
RECEIVED="$BENCH_DIR/link-received"
export MOVER_PEER_TOKEN
MOVER_PEER_TOKEN="$(head -c 24 /dev/urandom | base64)"
RECEIVER_PID=""

cleanup() {
  [[ -n "$RECEIVER_PID" ]] && kill "$RECEIVER_PID" 2>/dev/null && wait "$RECEIVER_PID" 2>/dev/null || true
  ip netns del "$SEND_NS" 2>/dev/null || true
  ip netns del "$RECV_NS" 2>/dev/null || true
  rm -rf "$RECEIVED"
}
trap cleanup EXIT

build_mover
cleanup
shaped_link "$SEND_NS" "$RECV_NS" mvl0 mvl1 10.204.0.1 "$RECV_IP" "$RATE"

( exec ip netns exec "$RECV_NS" "$MOVER" receive --no-fsync --listen "$RECV_IP:$PORT" "$RECEIVED" > "$BENCH_DIR/link-receiver.log" 2>&1 ) &
RECEIVER_PID=$!
for _ in $(seq 1 150); do grep -q "receiving into" "$BENCH_DIR/link-receiver.log" && break; sleep 0.2; done

echo "bench: mover bench over $RATE ($DATA data, $FILES files of $SIZE per cell)" >&2
ip netns exec "$SEND_NS" "$MOVER" bench --log-level error --data "$DATA" --files "$FILES" --size "$SIZE" --concurrency 16 \
  "tcp://$RECV_IP:$PORT/bench" | tee "$BENCH_DIR/link-bench.txt"
RECOMMENDED="$(sed -n 's/^Recommended: //p' "$BENCH_DIR/link-bench.txt")"
[[ -n "$RECOMMENDED" ]] || { echo "bench: the bench recommended nothing" >&2; exit 1; }

COPY_FILES="${COPY_FILES:-$((FILES * 4))}"
BYTES=$(python3 -c "u={'KiB':1<<10,'MiB':1<<20,'GiB':1<<30}; s='$SIZE'; print($COPY_FILES * int(s[:-3]) * u[s[-3:]])")
SOURCE="gen:///?files=$COPY_FILES&size=$SIZE&data=$DATA&seed=99"
for run in $(seq 1 "$RUNS"); do
  for variant in recommended defaults; do
    rm -rf "${RECEIVED:?}/copy"
    if [[ "$variant" == recommended ]]; then
      # shellcheck disable=SC2086 # the recommendation is several options
      timed "mover" ip netns exec "$SEND_NS" "$MOVER" copy $RECOMMENDED "$SOURCE" "tcp://$RECV_IP:$PORT/copy"
    else
      timed "copy-defaults" ip netns exec "$SEND_NS" "$MOVER" copy "$SOURCE" "tcp://$RECV_IP:$PORT/copy"
    fi
  done
done
echo "Recommended by the bench: $RECOMMENDED (the row 'mover'; 'copy-defaults' is --streams 4 --codec auto)"
report "$BYTES"
