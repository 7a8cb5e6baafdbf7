#!/usr/bin/env bash
# The job store's overhead (issue 3): the same 100,000-file copy by the standalone CLI (JVM start
# included) and submitted to a running server (from POST to the job's end, polled every 0.2 s), in
# one run, alternating. Target: the server's copy takes at most 1.2x the CLI's.
# Usage: bench/server-overhead.sh [FILES] [FOLDERS]
source "$(dirname "$0")/lib.sh"
FILES="${1:-100000}"; FOLDERS="${2:-1000}"
need curl jq python3
build_mover
mkdir -p "$BENCH_DIR"
RESULTS="$BENCH_DIR/server-overhead.txt"; : > "$RESULTS"
PORT="${BENCH_PORT:-18088}"; BASE="http://127.0.0.1:$PORT"
DATA="$BENCH_DIR/overhead-data"; OUT="$BENCH_DIR/overhead-out"
SRC="$BENCH_DIR/tree-$FILES-10k"
if [[ ! -d "$SRC" ]]; then
  echo "bench: writing $FILES files of 10 KiB in $FOLDERS folders" >&2
  python3 - "$SRC" "$FILES" "$FOLDERS" <<'PY'
import os, sys
root, files, folders = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for d in range(folders):
    os.makedirs(os.path.join(root, f"dir{d:04d}"), exist_ok=True)
for i in range(files):
    with open(os.path.join(root, f"dir{i % folders:04d}", f"file{i:06d}.dat"), "wb") as f:
        f.write(os.urandom(5 * 1024) + b"x" * (5 * 1024))
PY
fi

rm -rf "$DATA"
"$MOVER" serve --port "$PORT" --data-dir "$DATA" --log-level warn > "$BENCH_DIR/overhead-server.log" 2>&1 &
SERVER=$!
# the script's own status, not the stopped server's 143
trap 'status=$?; kill "$SERVER" 2> /dev/null; wait "$SERVER" 2> /dev/null || true; exit $status' EXIT
for _ in $(seq 600); do
  curl -sf "$BASE/actuator/health" > /dev/null && break
  kill -0 "$SERVER" 2> /dev/null || { echo "bench: the server did not start:" >&2; cat "$BENCH_DIR/overhead-server.log" >&2; exit 1; }
  sleep 0.1
done

via_server() { # DST: submits the copy, waits for its end, fails unless it succeeded
  local id state
  id=$(curl -sf -X POST "$BASE/api/v1/jobs" -H 'Content-Type: application/json' \
    -d "{\"kind\":\"copy\",\"source\":\"$SRC\",\"destination\":\"$1\"}" | jq -r .id)
  for _ in $(seq 36000); do
    state=$(curl -sf "$BASE/api/v1/jobs/$id" | jq -r .state)
    case "$state" in
      SUCCEEDED) return 0 ;;
      FAILED|CANCELLED|COMPLETED_WITH_ERRORS) echo "bench: the server's job ended $state" >&2; return 1 ;;
    esac
    sleep 0.2
  done
  return 1
}
export -f via_server; export BASE SRC

for run in $(seq "$RUNS"); do
  echo "run $run of $RUNS" >&2
  for tool in $( (( run % 2 )) && echo "cli server" || echo "server cli"); do
    rm -rf "$OUT"; drop_caches
    case "$tool" in
      cli) timed mover "$MOVER" copy "$SRC" "$OUT" ;;
      server) timed server bash -c "via_server '$OUT'" ;;
    esac
  done
done
rm -rf "$OUT"
echo "== $FILES files of 10 KiB by the CLI (mover) and by a running server; the server row's ratio is its time over the CLI's: target at most 1.2"
report $(( FILES * 10240 ))
