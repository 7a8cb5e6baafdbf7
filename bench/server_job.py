#!/usr/bin/env python3
"""Submits one job to a running `mover serve` and follows it to its end, as the CLI follows a server's job.

Usage: bench/server_job.py BASE JOB_JSON OUT
  BASE      the server, e.g. http://127.0.0.1:7401
  JOB_JSON  the job's body (docs/rest.md, "Submit a job")
  OUT       where the job's last state (JSON) is written
Prints the seconds from the POST to the terminal state event; exits 1 (saying why) unless the job SUCCEEDED.
The job is followed on its event stream, not polled: a GET every 10 ms costs the server 1-3 ms of CPU each,
beside the job (docs/benchmarks.md). bench/job-overhead.sh imports follow().
"""
import json
import sys
import time
import urllib.request

TERMINAL = ("SUCCEEDED", "COMPLETED_WITH_ERRORS", "FAILED", "CANCELLED")


def follow(base, body):
    """POSTs the job and follows its events to the terminal state: (last state, POST sent, POST answered, event read)."""
    posted = time.monotonic()
    request = urllib.request.Request(base + "/api/v1/jobs", body, {"Content-Type": "application/json"})
    job = json.load(urllib.request.urlopen(request))
    answered = time.monotonic()
    event = None
    with urllib.request.urlopen(f"{base}/api/v1/jobs/{job['id']}/events", timeout=3600) as stream:
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event == "state":
                job = json.loads(line[5:])
                if job["state"] in TERMINAL:
                    break
    return job, posted, answered, time.monotonic()


if __name__ == "__main__":
    base, body, out = sys.argv[1], sys.argv[2].encode(), sys.argv[3]
    job, posted, _, ended = follow(base, body)
    with open(out, "w") as f:
        json.dump(job, f)
    if job["state"] != "SUCCEEDED":
        sys.exit(f"bench: the server's job ended {job['state']}: {job.get('result') or job.get('error')}")
    print(f"{ended - posted:.3f}")
