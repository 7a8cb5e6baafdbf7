#!/usr/bin/env bash
# mover over TCP against the pipelines people use (nc, and nc with gzip -1, pigz, lzop, lz4 -1, zstd -1 -T0),
# one run, side by side, on links emulated with two network namespaces joined by a veth pair and shaped
# with tbf at both ends (BENCHMARKING notes), and on plain loopback. The receiver writes to disk.
#
# Usage (root, for ip netns):
#   bench/peer.sh [--mib 1024] [--links "100mbit 1gbit 10gbit loopback"] [--data "zeros random mixed"] [--tools "..."]
# Tools: nc gzip pigz lzop lz4 zstd (the pipelines), mover (the CLI: `mover copy`, its JVM started by each run, as
# a user's command is) and mover-job (the same copy as a job of a `mover serve` running in the sender's namespace,
# warmed by three jobs as a service that runs for days is, timed from its POST to its end: bench/server_job.py); not
# in the default set: mover-tar, mover-tarzst (mover copy --format tar / tar+zstd:1 into "nc -l | [zstd -d |] tar x",
# docs/tar-interop.md) and mover-tls (mover again, through a second receiver started with --tls, the sender pinning
# its fingerprint: the table shows what TLS costs in column tls/plain).
# MOVER_COPY_ARGS: extra options for mover's copy (e.g. "--log-level debug"); each run's output is kept in BENCH_DIR.
# MOVER_CODEC: the timed runs' --codec (default auto; "none" shows what the raw path carries).
# RUNS=3 (runs per cell, median reported), BENCH_DIR=/tmp/mover-bench, BENCH_SKIP_BUILD=1 to reuse the build.
# Each receiver gets one untimed 64 MiB warm-up copy after it starts (warm_receiver: it is a long-running service).
# Prints one table per link: MB/s of original data per tool and mover's ratio to the best pipeline.
source "$(dirname "$0")/lib.sh"

MIB=1024
LINKS="100mbit 1gbit 10gbit loopback"
DATA="zeros random mixed"
TOOLS="nc gzip pigz lzop lz4 zstd mover mover-job"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --mib) MIB="$2"; shift 2 ;;
    --links) LINKS="$2"; shift 2 ;;
    --data) DATA="$2"; shift 2 ;;
    --tools) TOOLS="$2"; shift 2 ;;
    *) echo "bench: unknown option $1" >&2; exit 1 ;;
  esac
done
need nc gzip pigz lzop lz4 zstd tar ip tc python3
[[ $EUID -eq 0 ]] || { echo "bench: network namespaces need root" >&2; exit 1; }

SEND_NS=mvbenchA
RECV_NS=mvbenchB
SEND_IP=10.203.0.1
RECV_IP=10.203.0.2
PORT=7411
mkdir -p "$BENCH_DIR"
RESULTS="$BENCH_DIR/peer-results.txt"
: > "$RESULTS"
TOKEN_FILE="$BENCH_DIR/peer.token"
head -c 24 /dev/urandom | base64 > "$TOKEN_FILE"
chmod 600 "$TOKEN_FILE"
RECEIVER_PID=""
TLS_RECEIVER_PID=""
SERVER_PID=""
FINGERPRINT=""

cleanup() {
  stop_receiver
  stop_server
  ip netns del "$SEND_NS" 2>/dev/null || true
  ip netns del "$RECV_NS" 2>/dev/null || true
}
trap cleanup EXIT

# Only namespaces this script creates, deleted at exit; nothing else on the network is touched.
make_link() {
  shaped_link "$SEND_NS" "$RECV_NS" mvb0 mvb1 "$SEND_IP" "$RECV_IP" "$1"
}

# in_ns SIDE CMD...: runs CMD in the sender's or receiver's namespace (the default namespace for loopback)
in_ns() {
  local side="$1"; shift
  if [[ "$LINK" == "loopback" ]]; then "$@"; else ip netns exec "$side" "$@"; fi
}

receiver_ip() {
  if [[ "$LINK" == "loopback" ]]; then echo 127.0.0.1; else echo "$RECV_IP"; fi
}

make_data() {
  local dir="$BENCH_DIR/peer-data"
  mkdir -p "$dir/zeros" "$dir/random" "$dir/mixed"
  local bytes=$((MIB * 1024 * 1024))
  [[ "$(stat -c %s "$dir/zeros/data.bin" 2>/dev/null || echo 0)" == "$bytes" ]] || head -c "$bytes" /dev/zero > "$dir/zeros/data.bin"
  [[ "$(stat -c %s "$dir/random/data.bin" 2>/dev/null || echo 0)" == "$bytes" ]] || head -c "$bytes" /dev/urandom > "$dir/random/data.bin"
  if [[ "$(stat -c %s "$dir/mixed/data.bin" 2>/dev/null || echo 0)" != "$bytes" ]]; then
    # realistic mixed data: a tar of the JDK (class archives, native libraries, text), repeated to the size
    tar cf "$BENCH_DIR/jdk.tar" -C "$JAVA_HOME" . 2>/dev/null
    local repeats=$(( bytes / $(stat -c %s "$BENCH_DIR/jdk.tar") + 1 ))
    for _ in $(seq 1 "$repeats"); do cat "$BENCH_DIR/jdk.tar"; done 2>/dev/null | head -c "$bytes" > "$dir/mixed/data.bin" || true
  fi
  DATA_DIR="$dir"
}

start_receiver() {
  local out="$BENCH_DIR/peer-out"
  rm -rf "$out"; mkdir -p "$out"
  # exec all the way down (ip netns exec and the launcher exec too): $! is the JVM, which stop_receiver signals
  if [[ "$LINK" == "loopback" ]]; then
    ( exec "$MOVER" receive --listen "$(receiver_ip):$PORT" --token-file "$TOKEN_FILE" --no-fsync "$out" > "$BENCH_DIR/receiver.log" 2>&1 ) &
  else
    ( exec ip netns exec "$RECV_NS" "$MOVER" receive --listen "$(receiver_ip):$PORT" --token-file "$TOKEN_FILE" --no-fsync "$out" \
        > "$BENCH_DIR/receiver.log" 2>&1 ) &
  fi
  RECEIVER_PID=$!
  for _ in $(seq 1 100); do
    grep -q "receiving into" "$BENCH_DIR/receiver.log" && return
    sleep 0.1
  done
  echo "bench: the receiver did not start:" >&2; cat "$BENCH_DIR/receiver.log" >&2; exit 1
}

stop_receiver() {
  for pid in "$RECEIVER_PID" "$TLS_RECEIVER_PID"; do
    if [[ -n "$pid" ]]; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  RECEIVER_PID=""
  TLS_RECEIVER_PID=""
}

# a second receiver on PORT+2 with TLS (a generated pair kept under BENCH_DIR), into the same directory
start_tls_receiver() {
  local out="$BENCH_DIR/peer-out" log="$BENCH_DIR/receiver-tls.log"
  if [[ "$LINK" == "loopback" ]]; then
    ( exec "$MOVER" receive --listen "$(receiver_ip):$((PORT + 2))" --token-file "$TOKEN_FILE" --no-fsync --tls --tls-dir "$BENCH_DIR/tls" "$out" > "$log" 2>&1 ) &
  else
    ( exec ip netns exec "$RECV_NS" "$MOVER" receive --listen "$(receiver_ip):$((PORT + 2))" --token-file "$TOKEN_FILE" --no-fsync \
        --tls --tls-dir "$BENCH_DIR/tls" "$out" > "$log" 2>&1 ) &
  fi
  TLS_RECEIVER_PID=$!
  for _ in $(seq 1 100); do
    if grep -q "receiving into" "$log"; then
      FINGERPRINT="$(grep -o 'tls-fingerprint sha256:[0-9a-f]*' "$log" | head -1 | cut -d' ' -f2)"
      return
    fi
    sleep 0.1
  done
  echo "bench: the TLS receiver did not start:" >&2; cat "$log" >&2; exit 1
}

# warm_receiver [tls]: one untimed copy of 64 MiB of the mixed data to the receiver just started. A receiver is a
# service that runs for days; its first job pays for compiling its code (1 to 1.5 s of CPU here, measured),
# which the pipelines' tools do not have, and which fell on whatever cell came first. Every timed mover run still
# starts its own sender JVM, as a user's command does.
warm_receiver() {
  local port="$PORT" tls=()
  if [[ "${1:-}" == "tls" ]]; then port=$((PORT + 2)); tls=(--tls-fingerprint "$FINGERPRINT"); fi
  local warm="$BENCH_DIR/peer-warm"
  mkdir -p "$warm"
  head -c $((64 << 20)) "$DATA_DIR/mixed/data.bin" > "$warm/data.bin"
  in_ns "$SEND_NS" env MOVER_PEER_TOKEN="$(cat "$TOKEN_FILE")" "$MOVER" copy --codec auto --streams 4 "${tls[@]}" "$warm" \
    "tcp://$(receiver_ip):$port/warmup" > "$BENCH_DIR/mover-warm.txt" 2>&1 || { cat "$BENCH_DIR/mover-warm.txt" >&2; exit 1; }
  rm -rf "$BENCH_DIR/peer-out/warmup" "$warm"
}

# the sender's `mover serve` (tool mover-job), on the sender namespace's loopback
server_base() {
  echo "http://127.0.0.1:$((PORT + 3))"
}

start_server() {
  local data="$BENCH_DIR/peer-server"
  rm -rf "$data"; mkdir -p "$data"
  if [[ "$LINK" == "loopback" ]]; then
    ( exec "$MOVER" serve --port $((PORT + 3)) --data-dir "$data" --log-level warn > "$BENCH_DIR/server.log" 2>&1 ) &
  else
    ( exec ip netns exec "$SEND_NS" "$MOVER" serve --port $((PORT + 3)) --data-dir "$data" --log-level warn > "$BENCH_DIR/server.log" 2>&1 ) &
  fi
  SERVER_PID=$!
  for _ in $(seq 1 600); do
    in_ns "$SEND_NS" curl -sf "$(server_base)/actuator/health" > /dev/null && return
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "bench: the server did not start:" >&2; cat "$BENCH_DIR/server.log" >&2; exit 1
}

stop_server() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}

# server_copy SOURCE_DIR PATH: one copy job of the server to the receiver's PATH; prints its seconds (POST to end)
server_copy() {
  local job
  job="{\"kind\": \"copy\", \"source\": \"$1\", \"destination\": \"tcp://$(receiver_ip):$PORT/$2\", \"options\": {\"codec\": \"${MOVER_CODEC:-auto}\"},"
  job+=" \"destinationConfig\": {\"token-file\": \"$TOKEN_FILE\", \"streams\": 4}}"
  in_ns "$SEND_NS" python3 "$(dirname "$0")/server_job.py" "$(server_base)" "$job" "$BENCH_DIR/mover-job-last.json"
}

# three untimed jobs of 64 MiB of the mixed data: the server's code compiled, as it is after days of service
warm_server() {
  local warm="$BENCH_DIR/peer-warm" i
  mkdir -p "$warm"
  head -c $((64 << 20)) "$DATA_DIR/mixed/data.bin" > "$warm/data.bin"
  for i in 1 2 3; do
    server_copy "$warm" "server-warmup-$i" > /dev/null || exit 1
    rm -rf "$BENCH_DIR/peer-out/server-warmup-$i"
  done
  rm -rf "$warm"
}

# pipe NAME COMPRESS DECOMPRESS: one file through "COMPRESS | nc" to "nc -l | DECOMPRESS > file", timed until the file is written
pipe() {
  local name="$1" compress="$2" decompress="$3" data="$4"
  local out="$BENCH_DIR/peer-out/$name.bin"
  rm -f "$out"
  in_ns "$RECV_NS" sh -c "nc -l $(receiver_ip) $((PORT + 1)) | $decompress > '$out'" &
  local listener=$!
  sleep 0.3
  local start end
  start=$(date +%s.%N)
  in_ns "$SEND_NS" sh -c "$compress < '$data' | nc -N $(receiver_ip) $((PORT + 1))"
  wait "$listener"
  end=$(date +%s.%N)
  [[ "$(stat -c %s "$out")" == "$(stat -c %s "$data")" ]] || { echo "bench: $name delivered a wrong size" >&2; exit 1; }
  rm -f "$out"
  echo "$LINK $KIND $name $(python3 -c "print($end - $start)")" >> "$RESULTS"
}

# run_mover SOURCE RUN [tls]
run_mover() {
  local source="$1" run="$2" name="mover" port="$PORT"
  local tls=()
  if [[ "${3:-}" == "tls" ]]; then
    name="mover-tls"; port=$((PORT + 2)); tls=(--tls-fingerprint "$FINGERPRINT")
  fi
  local start end
  start=$(date +%s.%N)
  in_ns "$SEND_NS" env MOVER_PEER_TOKEN="$(cat "$TOKEN_FILE")" "$MOVER" copy --codec "${MOVER_CODEC:-auto}" --streams 4 "${tls[@]}" ${MOVER_COPY_ARGS:-} "$source" \
    "tcp://$(receiver_ip):$port/$KIND-$run" > "$BENCH_DIR/mover-last.txt" 2>&1 || { cat "$BENCH_DIR/mover-last.txt" >&2; exit 1; }
  # each run's output kept (with MOVER_COPY_ARGS="--log-level debug", the auto codec's samples and reasons)
  cp "$BENCH_DIR/mover-last.txt" "$BENCH_DIR/$name-$LINK-$KIND-$run.log"
  end=$(date +%s.%N)
  cmp -s "$source/data.bin" "$BENCH_DIR/peer-out/$KIND-$run/data.bin" || { echo "bench: mover delivered different bytes" >&2; exit 1; }
  rm -rf "$BENCH_DIR/peer-out/$KIND-$run"
  echo "$LINK $KIND $name $(python3 -c "print($end - $start)")" >> "$RESULTS"
  grep -E '^Codec:' "$BENCH_DIR/mover-last.txt" | sed "s/^/  $LINK $KIND /" >&2
}

# run_mover_job SOURCE RUN: the copy as a job of the running server
run_mover_job() {
  local source="$1" run="$2" elapsed
  elapsed=$(server_copy "$source" "$KIND-job-$run") || exit 1
  cmp -s "$source/data.bin" "$BENCH_DIR/peer-out/$KIND-job-$run/data.bin" || { echo "bench: mover-job delivered different bytes" >&2; exit 1; }
  rm -rf "$BENCH_DIR/peer-out/$KIND-job-$run"
  cp "$BENCH_DIR/mover-job-last.json" "$BENCH_DIR/mover-job-$LINK-$KIND-$run.json"
  echo "$LINK $KIND mover-job $elapsed" >> "$RESULTS"
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['result']; print(f\"  $LINK $KIND mover-job: job {r['elapsedSeconds']:.3f} s, codec {r['codec']}\")" \
    "$BENCH_DIR/mover-job-last.json" >&2
}

# mover's plain tar formats into the tools: "nc -l | DECOMPRESS | tar x", timed until tar has written the file
run_mover_tar() {
  local name="$1" format="$2" decompress="$3" source="$4"
  local out="$BENCH_DIR/peer-out/$name"
  rm -rf "$out"; mkdir -p "$out"
  in_ns "$RECV_NS" sh -c "nc -l $(receiver_ip) $((PORT + 1)) | $decompress | tar x -C '$out'" &
  local listener=$!
  sleep 0.3
  local start end
  start=$(date +%s.%N)
  in_ns "$SEND_NS" "$MOVER" copy --format "$format" "$source" "tcp://$(receiver_ip):$((PORT + 1))/" > "$BENCH_DIR/mover-last.txt" 2>&1 \
    || { cat "$BENCH_DIR/mover-last.txt" >&2; exit 1; }
  wait "$listener"
  end=$(date +%s.%N)
  cmp -s "$source/data.bin" "$out/data.bin" || { echo "bench: $name delivered different bytes" >&2; exit 1; }
  rm -rf "$out"
  echo "$LINK $KIND $name $(python3 -c "print($end - $start)")" >> "$RESULTS"
  # the command's time includes starting the JVM; the job's own rate is in its summary
  grep -E '^Bytes:' "$BENCH_DIR/mover-last.txt" | sed "s/^/  $LINK $KIND $name job: /" >&2
}

run_tool() {
  local tool="$1" data="$2" run="$3"
  case "$tool" in
    mover-tar) run_mover_tar mover-tar tar cat "$(dirname "$data")" ;;
    mover-tarzst) run_mover_tar mover-tarzst tar+zstd:1 "zstd -d" "$(dirname "$data")" ;;
    nc) pipe nc cat cat "$data" ;;
    gzip) pipe gzip "gzip -1" "gzip -d" "$data" ;;
    pigz) pipe pigz "pigz" "pigz -d" "$data" ;;
    lzop) pipe lzop "lzop" "lzop -d" "$data" ;;
    lz4) pipe lz4 "lz4 -1" "lz4 -d" "$data" ;;
    zstd) pipe zstd "zstd -1 -T0" "zstd -d" "$data" ;;
    mover) run_mover "$(dirname "$data")" "$run" ;;
    mover-tls) run_mover "$(dirname "$data")" "$run" tls ;;
    mover-job) run_mover_job "$(dirname "$data")" "$run" ;;
  esac
}

build_mover
make_data
for LINK in $LINKS; do
  make_link "$LINK"
  start_receiver
  [[ " $TOOLS " == *" mover "* ]] && warm_receiver
  if [[ " $TOOLS " == *" mover-tls "* ]]; then start_tls_receiver; warm_receiver tls; fi
  if [[ " $TOOLS " == *" mover-job "* ]]; then start_server; warm_server; fi
  for KIND in $DATA; do
    data="$DATA_DIR/$KIND/data.bin"
    for run in $(seq 1 "$RUNS"); do
      # alternate the order each run, so no tool always follows the same one
      order="$TOOLS"
      (( run % 2 == 0 )) && order="$(echo "$TOOLS" | tr ' ' '\n' | tac | tr '\n' ' ')"
      for tool in $order; do
        drop_caches
        run_tool "$tool" "$data" "$run"
        echo "  $LINK $KIND $tool: $(tail -1 "$RESULTS" | awk '{print $4}') s" >&2
      done
    done
  done
  stop_receiver
  stop_server
done

python3 - "$RESULTS" "$((MIB * 1024 * 1024))" <<'PY'
import sys, statistics, collections
results, total = sys.argv[1], int(sys.argv[2])
cells = collections.defaultdict(list)
for line in open(results):
    link, kind, tool, secs = line.split()
    cells[(link, kind, tool)].append(float(secs))
links = list(dict.fromkeys(k[0] for k in cells))
kinds = list(dict.fromkeys(k[1] for k in cells))
tools = list(dict.fromkeys(k[2] for k in cells))
movers = [t for t in tools if t.startswith("mover")]
for link in links:
    print(f"\n{link}: MB/s of original data (median of {max(len(v) for v in cells.values())} runs)")
    tls = "mover-tls" in tools
    print(f"{'data':<8}" + "".join(f"{t:>13}" for t in tools) + "".join(f"{t + '/best':>19}" for t in movers)
          + (f"{'tls/plain':>11}" if tls else ""))
    for kind in kinds:
        rates = {t: total / statistics.median(cells[(link, kind, t)]) / 1e6 for t in tools if (link, kind, t) in cells}
        best = max((r for t, r in rates.items() if not t.startswith("mover")), default=float('nan'))
        cost = f"{rates.get('mover-tls', float('nan')) / rates.get('mover', float('nan')):>10.2f}x" if tls else ""
        print(f"{kind:<8}" + "".join(f"{rates.get(t, float('nan')):>13.1f}" for t in tools)
              + "".join(f"{rates.get(t, float('nan')) / best:>18.2f}x" for t in movers) + cost)
PY
