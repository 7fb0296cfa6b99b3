#!/usr/bin/env python3
"""System calls, context switches and CPU per operation of the I/O benchmarks.

    python3 bench/io_profile.py [--build-dir build-bench]
    python3 bench/io_profile.py --only httpd --sides example   # examples/httpd.wc only

Counts with `perf stat` (syscall tracepoints: needs perf and permission to
read tracepoints, e.g. root or kernel.perf_event_paranoid <= -1):
  - tcp-echo, 1 and 100 connections, 64 bytes (bench_tcp-echo and the Go peer), the
    whole process, per round trip (the warm-up round trips included);
  - httpd under `wrk -t2 -c100 -d3s` (bench_httpd, Go net/http, nginx with 2
    workers), the server's processes only while wrk runs, per request.
Prints one table per benchmark; docs/benchmarks.md quotes them.  Run the
harness (bench/run.py) first: it builds the programs.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpd_load

SYSCALLS = ["read", "recvfrom", "write", "writev", "sendto", "sendmsg", "sendfile64", "epoll_ctl",
            "epoll_wait", "epoll_pwait", "epoll_pwait2", "futex",
            # what examples/httpd.wc adds per request: the file's open, fstat, read and
            # close, and the readable/writable clauses' poll(2)
            "poll", "openat", "newfstatat", "preadv2", "close"]
EVENTS = (["raw_syscalls:sys_enter", "context-switches", "task-clock"] +
          [f"syscalls:sys_enter_{s}" for s in SYSCALLS])
ENV = {**os.environ, "WUC_PROCESSORS": "2", "GOMAXPROCS": "2"}


def available(events: list[str]) -> list[str]:
    listed = subprocess.run(["perf", "list", "tracepoint", "sw"], capture_output=True,
                            text=True).stdout
    return [e for e in events if e in listed or ":" not in e]


def perf_stat(events: list[str], target: list[str]) -> tuple[dict[str, float], str]:
    """perf stat over target (a command, or -p PIDS -- command); counts and the command's output."""
    with tempfile.NamedTemporaryFile("r", suffix=".perf") as out:
        proc = subprocess.run(["perf", "stat", "-x,", "-o", out.name, "-e", ",".join(events),
                               *target], capture_output=True, text=True, env=ENV)
        if proc.returncode != 0:
            sys.exit(f"io_profile.py: perf stat failed:\n{proc.stderr}")
        counts = {}
        for line in out.read().splitlines():
            cells = line.split(",")
            if len(cells) > 2 and not line.startswith("#"):
                try:
                    counts[cells[2]] = float(cells[0])
                except ValueError:
                    pass
        return counts, proc.stdout


def table(title: str, per: str, rows: dict[str, tuple[dict[str, float], float]]) -> None:
    print(f"\n{title}: per {per}")
    names = list(rows)
    print("| | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    keys = ["raw_syscalls:sys_enter"] + [f"syscalls:sys_enter_{s}" for s in SYSCALLS] + \
        ["context-switches", "task-clock"]
    for k in keys:
        if not any(k in c for c, _ in rows.values()):
            continue
        if all(c.get(k, 0) == 0 for c, _ in rows.values()) and k.startswith("syscalls:"):
            continue
        label = {"raw_syscalls:sys_enter": "system calls", "task-clock": "CPU µs"}.get(
            k, k.removeprefix("syscalls:sys_enter_"))
        scale = 1000.0 if k == "task-clock" else 1.0  # task-clock is in ms
        cells = [f"{c.get(k, 0) * scale / n:.2f}" for c, n in rows.values()]
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("| operations counted | " + " | ".join(f"{n:,.0f}" for _, n in rows.values()) + " |")


def tcp_echo(build: Path, events: list[str]) -> None:
    for conns, n in ((1, 50_000), (100, 150_000)):
        trips = (n // conns + n // conns // 20 + 1) * conns
        rows = {}
        for side, cmd in (("wuc", [str(build / "bench" / "bench_tcp-echo")]),
                          ("Go", [str(build / "bench" / "wucpeer"), "tcp-echo"])):
            counts, out = perf_stat(events, [*cmd, "-c", str(conns), "-s", "64", "-n", str(n)])
            rate = re.search(r"rtps value=(\S+)", out)
            rows[f"{side} ({float(rate.group(1)):,.0f} rt/s)" if rate else side] = (counts, trips)
        table(f"tcp-echo P2-C{conns}-S64, whole process", "round trip", rows)


def httpd(build: Path, events: list[str], sides: list[str] | None = None) -> None:
    rows = {}
    example = (build / "bench" / "bench_httpd-example").exists()  # examples/httpd.wc
    for side in sides or ("wuc", *(("example",) if example else ()), "go", "nginx"):
        with tempfile.TemporaryDirectory(prefix=f"prof-{side}-") as tmpname:
            tmp = Path(tmpname)
            (tmp / "www").mkdir()
            (tmp / "www" / "index.html").write_text(httpd_load.page())
            port = httpd_load.free_port()
            proc = subprocess.Popen(httpd_load.server_command(side, build, tmp, port, 2),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    start_new_session=True, env=ENV)
            try:
                httpd_load.wait_listening(port, proc, side)
                url = f"http://127.0.0.1:{port}/index.html"
                httpd_load.run_wrk(url, 2, 100, 1)
                time.sleep(0.2)
                pids = [str(proc.pid)]
                if side == "nginx":  # the workers do the work
                    pids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                                          text=True).stdout.split()
                counts, out = perf_stat(events, ["-p", ",".join(pids), "--", "wrk", "-t2",
                                                 "-c100", "-d3s", url])
            finally:
                httpd_load.stop(proc)
            reqs = re.search(r"(\d+) requests in", out)
            rps = re.search(r"Requests/sec:\s+(\S+)", out)
            rows[f"{side} ({float(rps.group(1)):,.0f} req/s)"] = (counts, float(reqs.group(1)))
    table("httpd, wrk -t2 -c100 -d3s, the server's processes", "request", rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", type=Path, default=httpd_load.BENCH_DIR.parent / "build-bench")
    ap.add_argument("--only", choices=["tcp-echo", "httpd"], help="one benchmark only")
    ap.add_argument("--sides", nargs="+", choices=["wuc", "example", "go", "nginx"],
                    help="httpd: these servers only (default: all, example if built)")
    args = ap.parse_args()
    events = available(EVENTS)
    if args.only != "httpd":
        tcp_echo(args.build_dir.resolve(), events)
    if args.only != "tcp-echo":
        httpd(args.build_dir.resolve(), events, args.sides)


if __name__ == "__main__":
    main()
