#!/usr/bin/env bash
# The fixed part of a server job to a TCP peer: N copy jobs of a small file (10 MB) from a `mover serve` to a
# `mover receive`, both on loopback, each POSTed and followed on its event stream as bench/server_job.py does; per job
# the time to the POST's answer, from the POST to the job's `created` and on to its `started`, the job's own elapsed
# time, and from its end to the terminal event; medians of the first 5 jobs (a fresh server) and of the last 10.
# docs/benchmarks.md, "The peer link as a server job".
# Usage: bench/job-overhead.sh [JOBS]   (default 40; BENCH_DIR, BENCH_SKIP_BUILD as in the other scripts)
source "$(dirname "$0")/lib.sh"
JOBS="${1:-40}"
need python3 curl
build_mover
DIR="$BENCH_DIR/job-overhead"
rm -rf "$DIR"; mkdir -p "$DIR/out" "$DIR/server" "$DIR/src"
head -c 10000000 /dev/urandom > "$DIR/src/data.bin"
head -c 24 /dev/urandom | base64 > "$DIR/token"; chmod 600 "$DIR/token"
RECEIVE_PORT="${BENCH_PORT:-7630}"; SERVE_PORT=$((RECEIVE_PORT + 1))
( exec "$MOVER" receive --listen "127.0.0.1:$RECEIVE_PORT" --token-file "$DIR/token" --no-fsync "$DIR/out" > "$DIR/receiver.log" 2>&1 ) &
RECEIVER=$!
( exec "$MOVER" serve --port "$SERVE_PORT" --data-dir "$DIR/server" --log-level warn > "$DIR/server.log" 2>&1 ) &
SERVER=$!
trap 'kill "$RECEIVER" "$SERVER" 2> /dev/null; wait "$RECEIVER" "$SERVER" 2> /dev/null || true' EXIT
for _ in $(seq 600); do
  curl -sf "http://127.0.0.1:$SERVE_PORT/actuator/health" > /dev/null && break
  kill -0 "$SERVER" 2> /dev/null || { echo "bench: the server did not start:" >&2; cat "$DIR/server.log" >&2; exit 1; }
  sleep 0.1
done
python3 - "$DIR" "$SERVE_PORT" "$RECEIVE_PORT" "$JOBS" "$(dirname "$0")" <<'PY'
import datetime, json, statistics, sys, time
out, serve, receive, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, sys.argv[5])
from server_job import follow
base = f"http://127.0.0.1:{serve}"
stamp = lambda text: datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()

def job(n):
    body = json.dumps({"kind": "copy", "source": f"{out}/src", "destination": f"tcp://127.0.0.1:{receive}/j{n}",
                       "destinationConfig": {"token-file": f"{out}/token", "streams": 4}}).encode()
    # the job's own times are the server's wall clock: the POST's is read on the same clock, beside the monotonic one
    wall = time.time() - time.monotonic()
    j, posted, answered, ended = follow(base, body)
    if j["state"] != "SUCCEEDED":
        sys.exit(f"bench: job {n} ended {j['state']}")
    posted, ended = posted + wall, ended + wall
    created, started, elapsed = stamp(j["created"]), stamp(j["result"]["started"]), j["result"]["elapsedSeconds"]
    return answered + wall - posted, created - posted, started - created, elapsed, ended - (started + elapsed), ended - posted

names = ("POST answered", "POST -> created", "created -> started", "the job", "its end -> terminal event", "POST -> terminal event")
rows = [job(n) for n in range(jobs)]
for label, part in (("first 5 jobs", rows[:5]), (f"last {min(10, jobs)} jobs", rows[-10:])):
    print(f"{label}, medians in ms: " + ", ".join(f"{name} {statistics.median(r[i] for r in part) * 1000:.1f}" for i, name in enumerate(names)))
PY
