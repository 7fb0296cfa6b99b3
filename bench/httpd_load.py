#!/usr/bin/env python3
"""Loads an HTTP server with wrk and prints the harness's RESULT lines.

    python3 bench/httpd_load.py --build-dir build-bench wuc      # bench_httpd
    python3 bench/httpd_load.py --build-dir build-bench go nginx # Go net/http, then nginx
    python3 bench/httpd_load.py --build-dir build-bench example  # examples/httpd.wc

For each server named: writes the served file (FILE_SIZE bytes of HTML) and,
for nginx, a configuration into a fresh temporary directory; starts the server
on a free loopback port (wuc with WUC_PROCESSORS from the environment, Go with
GOMAXPROCS, nginx with worker_processes = GOMAXPROCS or WUC_PROCESSORS, all
as the current user, pid and logs in the temporary directory); waits until it
answers; runs wrk once for warm-up (WARM_S seconds) and once measured
(`wrk -t THREADS -c CONNS -d SECONDS --latency`, keep-alive: wrk's default);
stops the server.  RESULT configs: P<k>-c<CONNS>-{rps,p50,p99}, prefixed with
"nginx-" for nginx and "example-" for examples/httpd.wc (run as `httpd ROOT
PORT 10000`: its connection limit above wrk's connections), so the harness
pairs wuc's rows with Go's and nginx's.
No CPU pinning: the machine has 2 CPUs and each server gets 2 workers, so wrk
shares both CPUs with whichever server runs (bench/SHAPES.md, "httpd").
"""

from __future__ import annotations

import argparse
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
FILE_SIZE = 1024
WARM_S = 1

NGINX_CONF = """\
{user}worker_processes {workers};
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
daemon off;
master_process on;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    sendfile on;
    tcp_nodelay on;
    keepalive_requests 100000000;
    keepalive_timeout 75s;
    open_file_cache max=16 inactive=60s;
    open_file_cache_valid 60s;
    types {{ text/html html; }}
    default_type text/html;
    server {{
        listen 127.0.0.1:{port};
        root {tmp}/www;
        index index.html;
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            sys.exit(f"httpd_load.py: {what} exited with status {proc.returncode}\n{err}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"httpd_load.py: {what} does not listen on port {port}")


def to_us(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if not m:
        sys.exit(f"httpd_load.py: cannot read wrk's time {text!r}")
    return float(m.group(1)) * {"us": 1, "ms": 1e3, "s": 1e6, "m": 6e7}[m.group(2)]


def run_wrk(url: str, threads: int, conns: int, seconds: int) -> dict[str, float]:
    cmd = ["wrk", f"-t{threads}", f"-c{conns}", f"-d{seconds}s", "--latency", url]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 30)
    if out.returncode != 0:
        sys.exit(f"httpd_load.py: {' '.join(cmd)} failed:\n{out.stdout}{out.stderr}")
    text = out.stdout
    for bad in ("Non-2xx or 3xx responses", "Socket errors"):
        if bad in text:
            sys.exit(f"httpd_load.py: wrk reports {bad}:\n{text}")
    rps = re.search(r"^Requests/sec:\s+([\d.]+)", text, re.M)
    p50 = re.search(r"^\s+50%\s+(\S+)", text, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", text, re.M)
    if not (rps and p50 and p99):
        sys.exit(f"httpd_load.py: cannot parse wrk's output:\n{text}")
    return {"rps": float(rps.group(1)), "p50": to_us(p50.group(1)), "p99": to_us(p99.group(1))}


def server_command(side: str, build_dir: Path, tmp: Path, port: int, workers: int) -> list[str]:
    f = str(tmp / "www" / "index.html")
    if side == "wuc":
        return [str(build_dir / "bench" / "bench_httpd"), "-port", str(port), "-file", f]
    if side == "example":
        return [str(build_dir / "bench" / "bench_httpd-example"), str(tmp / "www"), str(port),
                "10000"]
    if side == "go":
        return [str(build_dir / "bench" / "wucpeer"), "httpd", "-port", str(port), "-file", f]
    conf = tmp / "nginx.conf"
    # Started by root, nginx would run its workers as "nobody", who cannot
    # read the temporary directory: keep them as the current user.
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    conf.write_text(NGINX_CONF.format(user=user, workers=workers, tmp=tmp, port=port))
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    # -e: the error log before the configuration is read (not /var/log).
    return [nginx, "-p", str(tmp), "-e", str(tmp / "error.log"), "-c", str(conf)]


def page() -> str:
    """The served file: FILE_SIZE bytes of HTML."""
    line = "<p>wuc benchmark page: the same bytes from every server.</p>\n"
    return ("<!doctype html>\n" + line * (FILE_SIZE // len(line) + 1))[:FILE_SIZE]


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the server's own process group (nginx: master and workers)."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def measure(side: str, build_dir: Path, threads: int, conns: int, seconds: int) -> None:
    workers = int(os.environ.get("GOMAXPROCS") or os.environ.get("WUC_PROCESSORS") or 2)
    with tempfile.TemporaryDirectory(prefix=f"httpd-{side}-") as tmpname:
        tmp = Path(tmpname)
        (tmp / "www").mkdir()
        (tmp / "www" / "index.html").write_text(page())
        port = free_port()
        cmd = server_command(side, build_dir, tmp, port, workers)
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            wait_listening(port, proc, side)
            url = f"http://127.0.0.1:{port}/index.html"
            check = subprocess.run(["wrk", "-t1", "-c1", "-d1s", url], capture_output=True,
                                   text=True)
            if "Non-2xx" in check.stdout:
                sys.exit(f"httpd_load.py: {side} answers with errors:\n{check.stdout}")
            run_wrk(url, threads, conns, WARM_S)
            got = run_wrk(url, threads, conns, seconds)
        finally:
            stop(proc)
        prefix = {"nginx": "nginx-", "example": "example-"}.get(side, "")
        for what, unit in (("rps", "req/s"), ("p50", "us"), ("p99", "us")):
            print(f"RESULT name=httpd config={prefix}P{workers}-c{conns}-{what} "
                  f"value={got[what]:.3f} unit={unit}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sides", nargs="+", choices=("wuc", "example", "go", "nginx"))
    ap.add_argument("--build-dir", type=Path, required=True)
    ap.add_argument("-t", type=int, default=2, help="wrk threads (default 2)")
    ap.add_argument("-c", type=int, default=100, help="keep-alive connections (default 100)")
    ap.add_argument("-d", type=int, default=3, help="measured seconds (default 3)")
    args = ap.parse_intermixed_args()
    if not shutil.which("wrk"):
        sys.exit("httpd_load.py: wrk is not installed (scripts/bench.sh installs it)")
    for side in args.sides:
        measure(side, args.build_dir.resolve(), args.t, args.c, args.d)


if __name__ == "__main__":
    main()
