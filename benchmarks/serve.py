"""A tap's round trip on ``companion serve``: from the POST to the update pushed to a second page.

Starts ``companion serve --port 0`` on a new Inverted Tower session and opens a
second page's live stream (``/events``, server-sent events, as the page's script does). Each tap is a
POST as the page's script sends it (a +1 on gold, then a note, alternating), on a keep-alive
connection; it is timed from the request's first byte to the moment the second page's stream carries
the new table. In the same run, in between, ``python -c pass`` is timed as a whole process. Prints
medians, the ratio (target: at most 2x) and the machine's load.

    .venv/bin/python benchmarks/serve.py            # 200 taps, 40 python -c pass
    .venv/bin/python benchmarks/serve.py --quick    # 40 taps, 10 python -c pass

Ratios are measured in one run on a shared machine; read them, not the absolute times.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

TARGET = 2.0
#: The first line: a solo game's seat, ``seat table  URL`` (the host's door, at ``/``).
ADDRESS = re.compile(r"^(?:seat table  )?http://(?P<host>[0-9.]+):(?P<port>\d+)/\?token=(?P<token>[A-Za-z0-9_-]+)$")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer taps, for a smoke run")
    args = parser.parse_args()
    taps, baselines = (40, 10) if args.quick else (200, 40)

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        env = {k: v for k, v in os.environ.items() if k != "COMPANION_SESSION"}
        env.update(COMPANION_HOME=str(Path(tmp) / "home"), COMPANION_LOGS=str(Path(tmp) / "logs"))
        companion = [sys.executable, "-m", "companion"]
        new = ["new", "inverted-tower", "--name", "bench", "--seed", "1", "--hero", "Aria"]
        subprocess.run([*companion, *new], env=env, check=True, capture_output=True)
        proc = subprocess.Popen([*companion, "serve", "--port", "0"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)  # fmt: skip
        try:
            assert proc.stdout is not None
            m = ADDRESS.match(proc.stdout.readline().strip())
            if m is None:
                raise SystemExit("companion serve printed no address")
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep its pipe drained
            host, port, token = m["host"], int(m["port"]), m["token"]
            times, base = measure(host, port, token, taps, baselines)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(60)

    tap, py = statistics.median(times), statistics.median(base)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"taps: {len(times)}, python -c pass: {len(base)}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
          f" on {os.cpu_count()} cores")  # fmt: skip
    print(f"python -c pass                       median {py * 1000:7.1f} ms")
    print(f"tap: POST -> pushed to a second page median {tap * 1000:7.1f} ms"
          f"  (p90 {statistics.quantiles(times, n=10)[-1] * 1000:.1f} ms)")  # fmt: skip
    k = max(1, len(times) // 10)
    print(f"the first {k} taps median {statistics.median(times[:k]) * 1000:.1f} ms, the last {k}"
          f" {statistics.median(times[-k:]) * 1000:.1f} ms (the session {len(times)} events longer)")  # fmt: skip
    print(f"ratio {tap / py:.2f}x (target at most {TARGET:g}x)")
    return 0


def measure(host: str, port: int, token: str, taps: int, baselines: int) -> tuple[list[float], list[float]]:
    cookie = f"companion_token_{port}={token}"
    stream = http.client.HTTPConnection(host, port, timeout=60)
    stream.putrequest("GET", "/events", skip_host=True, skip_accept_encoding=True)
    stream.putheader("Host", f"{host}:{port}")
    stream.putheader("Cookie", cookie)
    stream.endheaders()
    events = stream.getresponse()
    assert events.status == 200, events.status

    def next_version() -> int:
        while True:
            line = events.fp.readline().decode()
            if not line:
                raise SystemExit("the stream ended")
            if line.startswith("data: "):
                return int(json.loads(line[6:])["version"])

    seen = next_version()  # the table as it is, sent first
    tapper = http.client.HTTPConnection(host, port, timeout=60)
    times: list[float] = []
    base: list[float] = []
    every = max(1, taps // baselines)
    for n in range(taps):
        form = {"key": "counter:gold", "way": "plus"} if n % 2 == 0 else {"note": f"bench {n}"}
        body = urlencode(form)
        path = "/act" if n % 2 == 0 else "/note"
        headers = {"Host": f"{host}:{port}", "Cookie": cookie, "X-Companion": "fetch",
                   "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip
        start = time.perf_counter()
        tapper.request("POST", path, body=body, headers=headers)
        answer = json.loads(tapper.getresponse().read())
        if not answer.get("ok"):
            raise SystemExit(f"a tap was refused: {answer.get('error')}")
        while seen < answer["version"]:
            seen = next_version()
        times.append(time.perf_counter() - start)
        if n % every == 0 and len(base) < baselines:
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            base.append(time.perf_counter() - t)
    tapper.close()
    stream.close()
    return times, base


if __name__ == "__main__":
    sys.exit(main())
