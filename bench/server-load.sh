#!/usr/bin/env bash
# The REST service under load (issue 3): 200 clients polling GET /api/v1/jobs/{id} for DURATION while
# 10 jobs run (wrk), then a burst of 1,000 submitted jobs. Targets: zero errors and p99 < 50 ms while
# polling; every job of the burst accepted, queued, run with bounded concurrency, and completed.
# The poll runs twice, each over 10 freshly submitted jobs: as pollers (each client waits POLL_MS,
# default 100, between its polls: 2,000 polls/s, ten times the rate of a client polling every second),
# then saturating (no wait: wrk as fast as the server answers, which measures capacity). Both come after
# WARMUP seconds (default 15) of the same polling, reported but not counted: a service is measured as it
# runs, compiled; its first seconds after a start are the JIT's (p99 0.2 to 1.3 s in the first 15 s here).
# Usage: bench/server-load.sh [DURATION_SECONDS] [BURST_JOBS]   (WINDOW=15 splits each poll into 15 s windows)
source "$(dirname "$0")/lib.sh"
DURATION="${1:-60}"; BURST="${2:-1000}"
need wrk curl jq python3
build_mover
mkdir -p "$BENCH_DIR"
PORT="${BENCH_PORT:-18087}"; BASE="http://127.0.0.1:$PORT"
DATA="$BENCH_DIR/server-data"; OUT="$BENCH_DIR/server-out"
rm -rf "$DATA" "$OUT"; mkdir -p "$OUT"
SRC="$BENCH_DIR/small-src-10000"; small_tree "$SRC" 10000 100
TINY="$BENCH_DIR/tiny-src"; mkdir -p "$TINY/a"; for i in 1 2 3; do echo "file $i" > "$TINY/a/f$i.txt"; done

# the node runs 8 executions at once by default (3 or 4 copy jobs); the target is 10 jobs running
MOVER_JOBSTORE_THREADS="${SERVER_THREADS:-24}" "$MOVER" serve --port "$PORT" --data-dir "$DATA" --log-level warn > "$BENCH_DIR/server.log" 2>&1 &
SERVER=$!
# the script's own status, not the stopped server's 143
trap 'status=$?; kill "$SERVER" 2> /dev/null; wait "$SERVER" 2> /dev/null || true; exit $status' EXIT
for _ in $(seq 600); do
  curl -sf "$BASE/actuator/health" > /dev/null && break
  kill -0 "$SERVER" 2> /dev/null || { echo "bench: the server did not start:" >&2; cat "$BENCH_DIR/server.log" >&2; exit 1; }
  sleep 0.1
done

submit() { # SRC DST CONCURRENCY: prints the job id
  curl -sf -X POST "$BASE/api/v1/jobs" -H 'Content-Type: application/json' \
    -d "{\"kind\":\"copy\",\"source\":\"$1\",\"destination\":\"$2\",\"options\":{\"concurrency\":$3}}" | jq -r .id
}

cat > "$BENCH_DIR/poll.lua" <<'LUA'
local ids = {}
for line in io.lines(os.getenv("IDS")) do ids[#ids + 1] = line end
local wait = tonumber(os.getenv("POLL_MS"))
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/api/v1/jobs/" .. ids[(n % #ids) + 1])
end
-- wrk's latency runs from the request's write, so the wait between polls is not counted in it
if wait > 0 then
  delay = function() return math.random(math.floor(wait / 2), wait + math.floor(wait / 2)) end
end
LUA
count() { # STATE: how many jobs are in it (paged, 500 a page)
  local total=0 offset=0 page
  for _ in $(seq 100); do
    page=$(curl -sf "$BASE/api/v1/jobs?state=$1&offset=$offset&limit=500")
    total=$(( total + $(jq '.items | length' <<< "$page") ))
    [[ "$(jq .hasMore <<< "$page")" == "true" ]] || break
    offset=$(( offset + 500 ))
  done
  echo "$total"
}
running() { count RUNNING; }
poll() { # LABEL POLL_MS [SECONDS]: 200 clients polling 10 fresh running jobs for SECONDS (default DURATION)
  local ids=() id seconds="${3:-$DURATION}"
  echo "== $seconds s of 200 clients polling 10 running jobs: $1" >&2
  for i in $(seq 10); do ids+=("$(submit "$SRC" "$OUT/load-$2-$i" 1)"); done
  printf '%s\n' "${ids[@]}" > "$BENCH_DIR/ids.txt"
  echo "jobs running at the start: $(running)"
  if [[ -n "${WINDOW:-}" ]]; then
    # WINDOW=15: the same poll as consecutive windows, each with its own figures (when do timeouts happen?)
    for _ in $(seq $(( seconds / WINDOW ))); do
      IDS="$BENCH_DIR/ids.txt" POLL_MS="$2" wrk -t2 -c200 -d"${WINDOW}s" --latency -s "$BENCH_DIR/poll.lua" "$BASE" | grep -E "99%|Socket|Requests/sec"
    done
  else
    IDS="$BENCH_DIR/ids.txt" POLL_MS="$2" wrk -t2 -c200 -d"${seconds}s" --latency -s "$BENCH_DIR/poll.lua" "$BASE" | tee "$BENCH_DIR/wrk-poll-$2.txt"
  fi
  echo "jobs running at the end: $(running)"
  for id in "${ids[@]}"; do curl -sf -X POST "$BASE/api/v1/jobs/$id/cancel" > /dev/null || true; done
  for _ in $(seq 300); do (( $(running) == 0 )) && break; sleep 0.2; done
}
if (( ${WARMUP:-15} > 0 )); then poll "warm-up, not counted" "${POLL_MS:-100}" "${WARMUP:-15}"; fi
poll "polling every ${POLL_MS:-100} ms" "${POLL_MS:-100}"
poll saturating 0

echo "== a burst of $BURST jobs" >&2
start=$(date +%s.%N)
seq "$BURST" | xargs -P 32 -I{} curl -s -o /dev/null -w '%{http_code}\n' -X POST "$BASE/api/v1/jobs" \
  -H 'Content-Type: application/json' -d "{\"kind\":\"copy\",\"source\":\"$TINY\",\"destination\":\"$OUT/burst-{}\"}" \
  > "$BENCH_DIR/burst.codes"
accepted=$(grep -c '^201$' "$BENCH_DIR/burst.codes" || true)
max_running=0
for _ in $(seq 6000); do
  now_running=$(running); queued=$(count QUEUED)
  (( now_running > max_running )) && max_running=$now_running
  (( now_running + queued == 0 )) && break
  sleep 0.2
done
elapsed=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
echo "burst: $accepted of $BURST accepted (201); $(count SUCCEEDED) succeeded, $(count FAILED) failed; at most $max_running running at once; all ended after $elapsed s"
