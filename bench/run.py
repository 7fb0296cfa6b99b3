#!/usr/bin/env python3
"""Runs the wuc benchmarks next to their Go peers and compares them.

    python3 bench/run.py            # full run: ~0.3-1 s per program run, 5 runs each
    python3 bench/run.py --quick    # 1/20 of the iterations, 3 runs (< 2 minutes)
    python3 bench/run.py --only pingpong --only spawn
    python3 bench/run.py --only select-contend --only chan-pc
    python3 bench/run.py --replot   # the PNGs again, from results/latest.csv
    python3 bench/run.py --preemption-cost --only yield   # wuc alone: time slice on and off
    python3 bench/run.py --only tcp-echo --only idle-conns --only httpd   # the I/O benchmarks
    python3 bench/run.py --repeat 3   # the suite 3 times: each goal met in how many of 3

(scripts/bench.sh installs what this needs and then runs it.)  Builds the
benchmark programs in a Release tree (build-bench/ by default; the .wc ones
through wucc) and the Go peers (bench/peers/go, Go >= 1.23), then runs every
configuration several times,
alternating wuc and Go (and which of the two goes first), and prints the
medians, the speedup of wuc over Go and the spread of each side.  Writes
bench/results/latest.csv (with --only, only the rows of the benchmarks run are
replaced), every single run to bench/results/raw/, and a PNG plot per
benchmark to bench/results/<benchmark>.png (throughput against the number of
clauses C or of threads N where the family has one, bars otherwise).

The channel, select, future and timeout benchmarks (timer-latency among
them) follow bench/SHAPES.md; a wuc configuration may be paired with several
Go ones (timeout-loop: Go's after / reuse / reuse with asynctimerchan=1), each
pair a row of its own.

The I/O benchmarks (tcp-echo, idle-conns, httpd; bench/SHAPES.md, "I/O
benchmarks") use the same table.  httpd's programs are servers: its commands
run bench/httpd_load.py, which starts bench_httpd (the wuc side) or the Go
peer's net/http server and then nginx (the Go side), loads each with wrk and
prints RESULT lines; nginx's configs carry the prefix "nginx-", and each wuc
row of httpd is paired once with Go's and once with nginx's.

--preemption-cost runs no Go: every selected wuc configuration twice per
round, with the default time slice (or WUC_TIMESLICE from the environment)
and with WUC_TIMESLICE=0, in alternating order, and writes
bench/results/preemption-cost.csv instead of latest.csv.

Two more peers sit next to Go where they have the shape (docs/benchmarks.md,
"Peers"): crossbeam-channel (bench/peers/crossbeam, a cargo project, OS
threads) for select-contend, select-spin, select-order, chan-pc, elastic and
pingpong-chan, and Boost.Fiber (bench/peers/boost_fiber, program
wucpeer-fiber, Debian's libboost-fiber-dev) for switch, yield, pingpong,
pingpong-chan, spawn and chan-pc.  Each prints the Go peer's RESULT strings, so
its values join Go's rows; a peer whose toolchain or package is missing is
skipped with a message (or on request: --skip-peer).  The table's "ratio" is
wuc against the best peer of the row (the goals use it); "vs Go" is wuc
against Go alone.

--repeat K runs the selected suite K times (each time all its runs, sides
alternating) and reports, per goal, in how many of the K it was met; a goal
met in some but not all is "flips" (not met: docs/benchmarks.md).  Every
repetition's runs go to a raw file of its own; latest.csv pools the K
repetitions, bench/results/goals.csv has a met_of_k column.

Every run against the peers (not --replot, not --preemption-cost) also writes
a run file, bench/results/runs/<YYYY-MM-DDTHHMM>Z-<commit>[-<tag>].csv: a
header of `#` lines (date, commit, command, machine, load, what it covered,
remarks, the goal verdicts) and the pooled table (bench/results/runs/README.md
has the format).  --remark TEXT adds a line to its remarks.

Python 3.11 standard library, plus matplotlib for the plots (without it they
are skipped with a message).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
GO_PEER_DIR = BENCH_DIR / "peers" / "go"
RESULTS_DIR = BENCH_DIR / "results"
RUNS_DIR = RESULTS_DIR / "runs"


@dataclass
class Peer:
    """A peer besides Go: its column title and the wuc benchmarks it mirrors
    (by the wuc program's name; it runs the Go peer's benchmark name)."""

    title: str
    benches: frozenset[str]
    program: str  # relative to the build tree


PEERS = {
    "crossbeam": Peer("crossbeam", frozenset({"select-contend", "select-spin", "select-order",
                                              "chan-pc", "elastic", "pingpong-chan"}),
                      "bench/crossbeam/release/wucpeer-crossbeam"),
    "fiber": Peer("Boost.Fiber", frozenset({"switch", "yield", "pingpong", "pingpong-chan", "spawn",
                                            "chan-pc"}),
                  "bench/wucpeer-fiber"),
}
CROSSBEAM_DIR = BENCH_DIR / "peers" / "crossbeam"
NPROC = os.cpu_count() or 1

RESULT_RE = re.compile(r"^RESULT name=(\S+) config=(\S+) value=(\S+) unit=(\S+)$")

# Units where a smaller number is better (time per op, memory); for the
# others (ops/s) a larger one is.  The speedup is always oriented so that
# > 1 means wuc is better.
LOWER_IS_BETTER = {"ns/op", "ns/thread", "ns/conn", "MiB", "MB", "B", "us"}


@dataclass
class Bench:
    """One configuration: a C program run and its Go peer run."""

    name: str          # benchmark (program) name, as in --only
    procs: int         # WUC_PROCESSORS and GOMAXPROCS
    c_args: list[str]  # arguments of build/bench/bench_<name>
    go_args: list[str]  # arguments of wucpeer (after the benchmark name)
    c_iters: int | None  # -n for a full run (None: the program's own, fixed size)
    go_iters: int | None
    # Go config string for a wuc config string, where they differ; a tuple
    # pairs the wuc config with each (httpd: Go's and nginx's), a row each.
    go_config: dict[str, str | tuple[str, ...]] = field(default_factory=dict)
    note: str = ""
    # Extra environment of the Go run only (e.g. GODEBUG=asynctimerchan=1).
    go_env: dict[str, str] = field(default_factory=dict)
    # Measuring window in ms for both sides (-d; select-order), 1/10 with --quick.
    window_ms: int | None = None
    # Show the Go config next to the wuc one in the table (one wuc config
    # paired with several Go ones, or with a differently named one).
    show_go_config: bool = False
    # --quick divides -n by this.
    quick_div: int = 20
    # The peer's benchmark name, where it differs from the wuc program's.
    go_name: str = ""
    # Run through bench/httpd_load.py (a server loaded by wrk): c_args and
    # go_args are the driver's, -d its measured seconds (1 with --quick).
    driver: bool = False
    load_s: int = 3
    # -n of the crossbeam / Boost.Fiber peer where it differs from go_iters
    # (OS threads meeting on a rendezvous channel are ~10-100x slower).
    peer_iters: dict[str, int] = field(default_factory=dict)

    def peers(self) -> tuple[str, ...]:
        """The extra peers that have this benchmark's shape."""
        return tuple(p for p, spec in PEERS.items() if self.name in spec.benches)

    def go_configs(self, cfg: str) -> tuple[str, ...]:
        g = self.go_config.get(cfg, cfg)
        return (g,) if isinstance(g, str) else g


# Iteration counts: each program run takes ~0.3-1 s on the 2-core
# development machine.  wuc and Go get different counts where their speeds
# differ by much; every number is per operation, so counts do not change the
# work one operation does.
BENCHES = [
    Bench("switch", 1, [], [], 50_000_000, 4_000_000,
          go_config={"bare": "goroutine-half-round-trip-P1",
                     "bare-same-site": "goroutine-half-round-trip-P1"},
          note="Go has no bare switch: its column is a goroutine switch, half an "
               "unbuffered-channel round trip at GOMAXPROCS=1 (channel work included). "
               "wuc 'bare' returns to a different call site on each switch (every ret "
               "mispredicted); 'bare-same-site' switches from one call site, as the scheduler does"),
    Bench("yield", 1, ["-t", "1"], ["-t", "1"], 60_000_000, 6_000_000),
    Bench("yield", 1, ["-t", "2"], ["-t", "2"], 30_000_000, 6_000_000),
    # A lone yield at 2 workers (issue 17): Go's Gosched ~70-220 ns here; wuc's
    # took 4-6 us before the issue's change (a run of ~10 s at this count).
    Bench("yield", 2, ["-t", "1"], ["-t", "1"], 2_000_000, 4_000_000),
    Bench("pingpong", 1, [], [], 5_000_000, 2_000_000),
    Bench("pingpong", 2, [], [], 5_000_000, 2_000_000),
    # The same round trip as the peer's: over two rendezvous channels (dialect).
    Bench("pingpong-chan", 1, [], [], 2_000_000, 2_000_000, go_config={"P1-chan": "P1"},
          go_name="pingpong"),
    Bench("pingpong-chan", 2, [], [], 2_000_000, 2_000_000, go_config={"P2-chan": "P2"},
          go_name="pingpong"),
    Bench("spawn", 1, [], [], 2_000_000, 1_500_000),
    Bench("spawn", 2, [], [], 1_500_000, 1_500_000),
    # Always 100,000 threads: the goal is stated for that many.
    Bench("rss100k", NPROC, [], [], None, None),
    # A timeout's lateness while one compute thread per worker keeps every
    # worker busy, and at 2 workers also next to one compute thread (the other
    # worker idle: timers served by any worker).  bench/SHAPES.md.  -n rounds
    # of -us µs, ~0.2-1 s per run, plus up to 0.5 s where the timer fires only
    # when the computing stops.
    *(Bench("timer-latency", p, ["-t", str(k), "-us", str(us)], ["-t", str(k), "-us", str(us)],
            rounds, rounds)
      for p, k in ((1, 1), (2, 2), (2, 1)) for us, rounds in ((10_000, 100), (100, 2_000))),
]

# Channels, select, futures, timeouts: bench/SHAPES.md ("Configurations for
# the harness").  All with 2 workers (the development machine's cores; the
# -t defaults follow the worker count).  Go counts are the peer's defaults
# (~0.5 s per Go run); wuc counts are scaled so a wuc run also takes ~0.3-1 s.
CHAN_PROCS = 2


def channel_benches() -> list[Bench]:
    out: list[Bench] = []
    for c in (2, 4, 8):
        for k in (0, 64):
            n = (8_000_000 if k else 4_000_000) // c
            args = ["-c", str(c), "-cap", str(k)]
            out.append(Bench("select-contend", CHAN_PROCS, args, args, n * (2 if k else 1), n))
    for c in (2, 4, 8):
        args = ["-c", str(c), "-cap", "64"]
        # 1/4 of the peer's default count: spinners run at 0.1-3 M ops/s on an
        # idle machine and 10-100x slower on a loaded one (a partner descheduled
        # mid-slice), where the default took minutes per run.  --quick takes
        # 1/200 here to stay within its 2 minutes.
        out.append(Bench("select-spin", CHAN_PROCS, args, args, 1_000_000 // c, 1_000_000 // c,
                         quick_div=200))
    for k in (0, 64):
        args = ["-cap", str(k)]
        out.append(Bench("select-order", CHAN_PROCS, args, args, None, None, window_ms=500))
    for pred in ("or", "and", "and-or", "or-and"):
        args = ["-pred", pred]
        out.append(Bench("futures", CHAN_PROCS, args, args, 500_000, 500_000))
    for t in (1, 2, 4, 500):
        for k in (0, 64):
            args = ["-t", str(t), "-cap", str(k), "-w", "100"]
            out.append(Bench("chan-pc", CHAN_PROCS, args, args, 1_000_000, 1_000_000))
    out.append(Bench("work", CHAN_PROCS, ["-w", "100"], ["-w", "100"], 2_000_000, 2_000_000,
                     note="the chan-pc work loop alone, on one thread: wuc and Go should be "
                          "within ~10% (else chan-pc compares compilers)"))
    for mode, n in (("FixedNoBuf", 2_000_000), ("Fixed1024", 6_000_000), ("Seq", 4_000_000),
                    ("Con", 4_000_000)):
        args = ["-mode", mode]
        out.append(Bench("elastic", CHAN_PROCS, args, args, n, n,
                         note="Go's Seq/Con: a goroutine emulating an unbounded channel (Elastic "
                              "channels article); wuc's are its own CHAN_UNBOUNDED channel" if mode == "Con" else ""))
    # timeout-loop: the wuc statement against each of Go's three ways.
    for shape, div in (("ready", 1), ("pc", 2)):
        for timer, go_n, go_env, suffix in (("after", 1_000_000, {}, ""),
                                            ("reuse", 2_000_000, {}, ""),
                                            ("reuse", 2_000_000, {"GODEBUG": "asynctimerchan=1"},
                                             "-async")):
            wcfg = f"P{CHAN_PROCS}-{shape}-timeout"
            out.append(Bench("timeout-loop", CHAN_PROCS, ["-shape", shape, "-timer", "timeout"],
                             ["-shape", shape, "-timer", timer], 4_000_000 // div, go_n // div,
                             go_config={wcfg: f"P{CHAN_PROCS}-{shape}-{timer}{suffix}"},
                             go_env=go_env, show_go_config=True))
        none_n = 10_000_000 // (div * div)
        out.append(Bench("timeout-loop", CHAN_PROCS, ["-shape", shape, "-timer", "none"],
                         ["-shape", shape, "-timer", "none"], none_n, none_n))
    # shared-done: the latch form (wuc's idiom) against Go's done channel,
    # plus the closed-channel form with a shared channel as extra rows.
    for shape_args, n in ((["-shape", "pairs", "-t", "1", "-cap", "0"], 1_000_000),
                          (["-shape", "pairs", "-t", "1", "-cap", "64"], 2_000_000),
                          (["-shape", "pairs", "-t", "4", "-cap", "64"], 2_000_000),
                          (["-shape", "self", "-t", "2"], 4_000_000)):
        if shape_args[1] == "self":
            base = f"P{CHAN_PROCS}-self-N{shape_args[3]}"
        else:
            base = f"P{CHAN_PROCS}-pairs-N{shape_args[3]}-cap{shape_args[5]}"
        for done in ("shared", "private", "shared-closed"):
            go_done = done.removesuffix("-closed")
            out.append(Bench("shared-done", CHAN_PROCS, [*shape_args, "-done", done],
                             [*shape_args, "-done", go_done], n, n,
                             go_config={f"{base}-{done}": f"{base}-{go_done}"},
                             show_go_config=done.endswith("-closed")))
    # select-dynamic (issue 19): one receiver over a clause family of C channels, against
    # Go's reflect.Select and its fan-in goroutines pattern; the fair family against
    # reflect.Select, which chooses at random too.
    for c in (2, 16, 256, 1024):
        n = max(4_000_000 // (c + 8), 2_000)
        wcfg = f"P{CHAN_PROCS}-C{c}-cap1"
        for wmode, gmodes in (("plain", ("reflect", "fanin")), ("fair", ("reflect",))):
            for gmode in gmodes:
                suffix = "-fair" if wmode == "fair" else ""
                out.append(Bench("select-dynamic", CHAN_PROCS, ["-c", str(c), "-mode", wmode],
                                 ["-c", str(c), "-mode", gmode], n, n,
                                 go_config={wcfg + suffix: f"{wcfg}-{gmode}"}, show_go_config=True))
    # select-fair: [[wuc::fair]] against source order on select-contend's workload (Go's
    # select is always random: its column is select-contend's), and the starvation table.
    for c in (2, 4, 8):
        for k in (0, 64):
            n = (8_000_000 if k else 4_000_000) // c
            base = f"P{CHAN_PROCS}-N{CHAN_PROCS // 2}-C{c}-cap{k}"
            for mode in ("plain", "fair"):
                out.append(Bench("select-fair", CHAN_PROCS,
                                 ["-c", str(c), "-cap", str(k), "-mode", mode],
                                 ["-c", str(c), "-cap", str(k)], n * (2 if k else 1), n,
                                 go_name="select-contend", go_config={f"{base}-{mode}": base},
                                 show_go_config=True))
        for mode in ("plain", "fair"):
            out.append(Bench("select-fair", CHAN_PROCS, ["-shape", "starve", "-c", str(c), "-mode", mode],
                             ["-shape", "starve", "-c", str(c)], 1_000_000, 1_000_000,
                             go_config={f"P{CHAN_PROCS}-C{c}-starve-{mode}-clause{i}":
                                        f"P{CHAN_PROCS}-C{c}-starve-clause{i}" for i in range(c)},
                             show_go_config=True,
                             note="each clause's share of the wins, in %, every clause always ready"
                                  if mode == "plain" and c == 2 else ""))
    return out


BENCHES += channel_benches()

# I/O (bench/SHAPES.md, "I/O benchmarks"): 2 workers / GOMAXPROCS=2.
IO_PROCS = 2
# examples/httpd.wc, where the tree has it: a second wuc server in the httpd
# rows (configs "example-..."), beside bench/httpd.wc; bench/CMakeLists.txt
# builds it as bench_httpd-example.
HTTPD_EXAMPLE = (ROOT / "examples" / "httpd.wc").exists()


def io_benches() -> list[Bench]:
    out: list[Bench] = []
    # tcp-echo: -n round trips over all connections, ~1-3 s per run.
    for conns, n in ((1, 50_000), (100, 150_000), (1000, 150_000)):
        for size in (64, 4096):
            args = ["-c", str(conns), "-s", str(size)]
            out.append(Bench("tcp-echo", IO_PROCS, args, args, n, n))
    # idle-conns: always 10,000 (the goal is stated for that many).  wuc's
    # "wait" mode against the same Go program (Go has no such form).
    metrics = ("VmRSS", "VmHWM", "bytes-per-conn", "accept+block")
    out.append(Bench("idle-conns", IO_PROCS, ["-c", "10000"], ["-c", "10000"], None, None))
    out.append(Bench("idle-conns", IO_PROCS, ["-c", "10000", "-mode", "wait"], ["-c", "10000"],
                     None, None,
                     go_config={f"P{IO_PROCS}-C10000-wait-{m}": f"P{IO_PROCS}-C10000-{m}"
                                for m in metrics},
                     note="wuc 'read': each thread blocked in wuc_read with a 4 KiB buffer on its "
                          "stack; 'wait': in wuc_wait_fd first, the buffer's frame made only once "
                          "readable.  Go: a goroutine blocked in Read with a 4 KiB make([]byte)"))
    # httpd: wrk -t2 -c100 (keep-alive), against Go's net/http and nginx.
    cfgs = {f"{ex}P{IO_PROCS}-c100-{w}": (f"P{IO_PROCS}-c100-{w}", f"nginx-P{IO_PROCS}-c100-{w}")
            for w in ("rps", "p50", "p99") for ex in ("", "example-")}
    wuc_sides = ["wuc", "example"] if HTTPD_EXAMPLE else ["wuc"]
    out.append(Bench("httpd", IO_PROCS, ["-t", "2", "-c", "100", *wuc_sides[1:]],
                     ["-t", "2", "-c", "100"],
                     None, None, go_config=cfgs, show_go_config=True, driver=True,
                     note="the Go column of the 'vs nginx-...' rows is nginx (worker_processes 2); "
                          "wrk -t2 shares the 2 CPUs with the server (no taskset)"))
    return out


BENCHES += io_benches()


def set_peer_iters() -> None:
    """The extra peers' -n where Go's would make a run take many seconds: OS
    threads meeting on a rendezvous channel (crossbeam; ~5-20 us a meeting on
    the development machine, under load) and Boost.Fiber's cross-thread
    round trip (~0.3-12 us)."""
    for b in BENCHES:
        if not b.go_iters:
            continue
        div = {}
        if "crossbeam" in b.peers():
            if b.name == "pingpong-chan":
                div["crossbeam"] = 50
            elif ("-cap" in b.go_args and b.go_args[b.go_args.index("-cap") + 1] == "0") \
                    or "FixedNoBuf" in b.go_args or b.go_args[:2] == ["-t", "500"]:
                div["crossbeam"] = 10 if b.name == "chan-pc" else 20
        if "fiber" in b.peers() and b.name in ("pingpong", "pingpong-chan") and b.procs > 1:
            div["fiber"] = 4
        for p, d in div.items():
            b.peer_iters[p] = max(1, b.go_iters // d)


set_peer_iters()

GOALS_TEXT = """Goals (docs/benchmarks.md; "the best peer": Go, crossbeam or Boost.Fiber, whichever
is best in that row):
  bare switch <= 10 ns; yield (2 threads, 1 worker) <= 20 ns;
  round trip <= 1/3 of the best peer's (ratio >= 3); 100,000 parked threads <= 1 GiB resident;
  select-contend, select-spin, select-order, futures, chan-pc, shared-done: wuc >= 1.5x the
  best peer in every configuration (2x as the goal); elastic: unbounded >= 0.9x wuc's cap-1024;
  timeout-loop: wuc >= 3x Go's fastest way;
  timer lateness p99 <= 1 ms at 1 and 2 workers (timer-latency); lone yield at 2 workers <= the
  best peer's; thread life cycle: spawn+join and spawn+park >= 1.5x the best peer (Go for
  spawn+park), wake+join <= Go's, bytes per parked thread (RSS + page tables) <= Go's;
  tcp-echo >= 1.3x Go at 100 and 1,000 connections; 10,000 idle connections in less memory than Go;
  httpd >= 1.2x Go net/http and >= 0.9x nginx in requests/s, p99 latency no worse than Go's"""

# Benchmarks held to "wuc >= 1.5x the best peer in every configuration".
SPEEDUP_GOAL_BENCHES = ("select-contend", "select-spin", "select-order", "futures", "chan-pc",
                        "shared-done")


def log(msg: str) -> None:
    print(msg, flush=True)


def run_checked(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    log("+ " + " ".join(cmd))
    proc = subprocess.run(cmd, cwd=cwd, env=env)
    if proc.returncode != 0:
        sys.exit(f"run.py: command failed with status {proc.returncode}: {' '.join(cmd)}")


# The peers' go.mod says go 1.26: they need Go >= 1.21 to build (min/max) and
# >= 1.23 for the timer semantics bench/SHAPES.md measures (timeout-loop).
GO_MIN = (1, 23)


def find_go() -> str:
    """The first Go toolchain, on PATH or in /usr/local/go, that is recent enough."""
    seen = []
    for go in dict.fromkeys(filter(None, [shutil.which("go"), "/usr/local/go/bin/go"])):
        if not Path(go).exists():
            continue
        out = subprocess.run([go, "version"], capture_output=True, text=True).stdout
        m = re.search(r"go(\d+)\.(\d+)", out)
        if m and (int(m.group(1)), int(m.group(2))) >= GO_MIN:
            return go
        seen.append(f"{go}: {out.strip() or '?'}")
    sys.exit(f"run.py: the Go peers need Go >= {GO_MIN[0]}.{GO_MIN[1]} (bench/peers/go/go.mod); "
             f"found {'; '.join(seen) or 'none (looked on PATH and at /usr/local/go/bin/go)'}")


def go_env() -> dict[str, str]:
    env = dict(os.environ)
    # The peers have no dependencies: never reach for a proxy or another toolchain.
    env.update(GOFLAGS="-mod=mod", GOTOOLCHAIN="local", GOPROXY="off")
    return env


def build(build_dir: Path, go: str | None, peers: set[str]) -> None:
    """The benchmark programs, the Go peer unless go is None, and the other
    peers named in `peers` (Boost.Fiber's through CMake, WUC_BENCH_PEERS)."""
    run_checked(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-G", "Ninja",
                 "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF",
                 f"-DWUC_BENCH_PEERS={'ON' if 'fiber' in peers else 'OFF'}"])
    run_checked(["ninja", "-C", str(build_dir), "benchmarks"])
    if go:
        run_checked([go, "build", "-o", str(build_dir / "bench" / "wucpeer"), "."],
                    cwd=GO_PEER_DIR, env=go_env())
    if "crossbeam" in peers:
        cargo = shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")
        if not Path(cargo).exists():
            log("run.py: no crossbeam peer: cargo not found (https://rustup.rs; "
                "scripts/bench.sh checks for it)")
            return
        # Standard input from /dev/null: rustc reads `-` from an inherited one
        # (docs/benchmarks.md, "Peers").  crossbeam-channel comes from crates.io
        # (Cargo.lock); the first build needs the registry, later ones not.
        log(f"+ {cargo} build --release --target-dir {build_dir / 'bench' / 'crossbeam'}")
        proc = subprocess.run([cargo, "build", "--release", "--target-dir",
                               str(build_dir / "bench" / "crossbeam")],
                              cwd=CROSSBEAM_DIR, stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            sys.exit(f"run.py: cargo build of bench/peers/crossbeam failed (status "
                     f"{proc.returncode}); --skip-peer crossbeam runs without it")


def available_peers(build_dir: Path, wanted: set[str]) -> list[str]:
    """The wanted extra peers whose programs exist in the build tree."""
    out = []
    for name in PEERS:
        if name not in wanted:
            continue
        if (build_dir / PEERS[name].program).exists():
            out.append(name)
        elif name == "fiber":
            log("run.py: no Boost.Fiber peer: libboost-fiber-dev is not installed "
                "(scripts/bench.sh installs it)")
        else:
            log(f"run.py: no {PEERS[name].title} peer ({PEERS[name].program} was not built)")
    return out


def scaled(n: int | None, quick: bool, quick_div: int) -> list[str]:
    if n is None:
        return []
    return ["-n", str(max(1, n // quick_div) if quick else n)]


def peer_command(b: Bench, peer: str, build_dir: Path, quick: bool) -> list[str]:
    """An extra peer's command line: the Go peer's arguments (peer_iters' -n)."""
    window = []
    if b.window_ms is not None:
        window = ["-d", str(max(1, b.window_ms // 10) if quick else b.window_ms)]
    return [str(build_dir / PEERS[peer].program), b.go_name or b.name, *b.go_args, *window,
            *scaled(b.peer_iters.get(peer, b.go_iters), quick, b.quick_div)]


def commands(b: Bench, build_dir: Path, quick: bool) -> tuple[list[str], list[str]]:
    """The wuc program's command line and the Go peer's, for one configuration."""
    if b.driver:
        load = [sys.executable, str(BENCH_DIR / "httpd_load.py"), "--build-dir", str(build_dir),
                "-d", str(1 if quick else b.load_s)]
        return [*load, "wuc", *b.c_args], [*load, *b.go_args, "go", "nginx"]
    window = []
    if b.window_ms is not None:
        window = ["-d", str(max(1, b.window_ms // 10) if quick else b.window_ms)]
    c_cmd = [str(build_dir / "bench" / f"bench_{b.name}"), *b.c_args, *window,
             *scaled(b.c_iters, quick, b.quick_div)]
    go_cmd = [str(build_dir / "bench" / "wucpeer"), b.go_name or b.name, *b.go_args, *window,
              *scaled(b.go_iters, quick, b.quick_div)]
    return c_cmd, go_cmd


def run_one(cmd: list[str], env_extra: dict[str, str]) -> dict[str, tuple[float, str, str]]:
    """Runs one benchmark program; returns {config: (value, unit, name)}."""
    env = dict(os.environ)
    env.update(env_extra)
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit(f"run.py: {' '.join(cmd)} ({env_extra}) exited with status {proc.returncode}\n"
                 f"{proc.stdout}{proc.stderr}")
    out: dict[str, tuple[float, str, str]] = {}
    for line in proc.stdout.splitlines():
        m = RESULT_RE.match(line.strip())
        if m:
            out[m.group(2)] = (float(m.group(3)), m.group(4), m.group(1))
    if not out:
        sys.exit(f"run.py: no RESULT line from {' '.join(cmd)}:\n{proc.stdout}{proc.stderr}")
    return out


@dataclass
class Row:
    """A configuration's values on both sides: wuc and Go, or with
    --preemption-cost wuc with preemption on (`wuc`) and off (`go`)."""

    bench: str
    config: str
    unit: str
    wuc: list[float] = field(default_factory=list)
    go: list[float] = field(default_factory=list)
    go_config: str = ""
    show_go_config: bool = False
    # The extra peers' values (PEERS' keys), where they ran this configuration.
    peers: dict[str, list[float]] = field(default_factory=dict)

    def label(self) -> str:
        if self.show_go_config and self.go_config != self.config:
            return f"{self.config} vs {self.go_config}"
        return self.config

    @staticmethod
    def spread(xs: list[float]) -> float:
        med = statistics.median(xs)
        return (max(xs) - min(xs)) / med if med else 0.0

    def speedup(self) -> float | None:
        if not self.wuc or not self.go:
            return None
        w, g = statistics.median(self.wuc), statistics.median(self.go)
        if self.unit in LOWER_IS_BETTER:
            return g / w if w else None
        return w / g if g else None

    def better(self, a: float, b: float) -> bool:
        return a < b if self.unit in LOWER_IS_BETTER else a > b

    def best_peer(self) -> str | None:
        """"go" or a PEERS key: the side with the best median besides wuc."""
        best = None
        for side, xs in (("go", self.go), *self.peers.items()):
            if xs and (best is None or self.better(statistics.median(xs), best[1])):
                best = (side, statistics.median(xs))
        return best[0] if best else None

    def ratio(self) -> float | None:
        """wuc against the best peer (> 1: wuc is better); the goals use it."""
        best = self.best_peer()
        if not self.wuc or best is None:
            return None
        w = statistics.median(self.wuc)
        g = statistics.median(self.go if best == "go" else self.peers[best])
        if self.unit in LOWER_IS_BETTER:
            return g / w if w else None
        return w / g if g else None

    def peer_cells(self) -> list[str]:
        """latest.csv's peer columns: per PEERS key median and runs, then the
        best peer and the ratio against it."""
        cells = []
        for p in PEERS:
            xs = self.peers.get(p, [])
            cells += [f"{statistics.median(xs):.3f}" if xs else "", ";".join(f"{x:g}" for x in xs)]
        ratio = self.ratio()
        return cells + [peer_title(self.best_peer()), f"{ratio:.3f}" if ratio is not None else ""]

    def cost(self) -> float | None:
        """--preemption-cost: how many times worse `wuc` (on) is than `go` (off)."""
        sp = self.speedup()
        return 1 / sp if sp else None

    def csv_cells(self, ratio: float | None) -> list[str]:
        """Medians, the ratio, spreads and every run's value (both CSV files)."""
        return [self.bench, self.config, self.unit,
                f"{statistics.median(self.wuc):.3f}" if self.wuc else "",
                f"{statistics.median(self.go):.3f}" if self.go else "",
                f"{ratio:.3f}" if ratio is not None else "",
                f"{Row.spread(self.wuc):.4f}" if self.wuc else "",
                f"{Row.spread(self.go):.4f}" if self.go else "",
                ";".join(f"{x:g}" for x in self.wuc), ";".join(f"{x:g}" for x in self.go)]


def peer_title(side: str | None) -> str:
    return "" if side is None else "Go" if side == "go" else PEERS[side].title


def fmt(x: float) -> str:
    if x >= 1000:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:.1f}"
    return f"{x:.2f}"


def print_table(rows: list[Row], preemption_cost: bool = False) -> list[str]:
    a, b, ratio = ("on", "off", "cost") if preemption_cost else ("wuc", "Go", "speedup")
    # A column per extra peer that ran, and then "ratio" (against the best
    # peer of the row) and which peer that was.
    peers = [p for p in PEERS if any(r.peers.get(p) for r in rows)]
    header = ["benchmark", "config", "unit", f"{a} median", f"{b} median",
              *(f"{PEERS[p].title} median" for p in peers),
              *(["ratio", "best peer", "vs Go"] if peers else [ratio]),
              f"{a} spread", f"{b} spread"]
    lines = []
    body = []
    for r in rows:
        sp = r.cost() if preemption_cost else r.speedup()
        spx = f"{sp:.2f}x" if sp is not None else "-"
        rt = r.ratio()
        body.append([r.bench, r.label(), r.unit,
                     fmt(statistics.median(r.wuc)) if r.wuc else "-",
                     fmt(statistics.median(r.go)) if r.go else "-",
                     *(fmt(statistics.median(r.peers[p])) if r.peers.get(p) else "-" for p in peers),
                     *([f"{rt:.2f}x" if rt is not None else "-", peer_title(r.best_peer()) or "-", spx]
                       if peers else [spx]),
                     f"{Row.spread(r.wuc):.1%}" if r.wuc else "-",
                     f"{Row.spread(r.go):.1%}" if r.go else "-"])
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(header)]
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) if i < 3 else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    lines.append(line(header))
    lines.append("|" + "|".join("-" * (w + 2) if i < 3 else "-" * (w + 1) + ":"
                                for i, w in enumerate(widths)) + "|")
    lines.extend(line(b) for b in body)
    for ln in lines:
        print(ln)
    return lines


def goal_checks(rows: list[Row]) -> list[tuple[str, str, bool]]:
    """(goal, value, met) per goal the rows allow to check.  The goal's text
    never contains a measured value (--repeat matches goals by it); goals
    "against Go" are against the best peer of the row (Go or another peer)."""
    def find(bench: str, config: str) -> Row | None:
        return next((r for r in rows if r.bench == bench and r.config == config), None)

    def med(bench: str, config: str, side: str = "wuc") -> float | None:
        r = find(bench, config)
        if r is None:
            return None
        xs = r.wuc if side == "wuc" else r.go if side == "go" else r.peers.get(side, [])
        return statistics.median(xs) if xs else None

    def best(bench: str, config: str) -> tuple[float, str] | None:
        """The best peer's median of a row, and that peer's title."""
        r = find(bench, config)
        side = r.best_peer() if r else None
        if side is None:
            return None
        return med(bench, config, side), peer_title(side)

    checks = []
    for cfg in ("bare", "bare-same-site"):
        v = med("switch", cfg)
        if v is not None:
            checks.append((f"bare switch <= 10 ns ({cfg})", f"{v:.2f} ns", v <= 10))
    v = med("yield", "P1-T2")
    if v is not None:
        checks.append(("yield <= 20 ns (2 threads, 1 worker)", f"{v:.2f} ns", v <= 20))
    w, b = med("yield", "P2-T1"), best("yield", "P2-T1")
    if w is not None and b is not None:
        checks.append(("lone yield at 2 workers <= the best peer's",
                       f"{w:.1f} ns vs {b[1]} {b[0]:.1f} ns", w <= b[0]))
    for r in rows:
        if r.bench == "timer-latency" and r.config.endswith("-p99") and r.wuc:
            v = statistics.median(r.wuc)
            checks.append((f"timer lateness p99 <= 1 ms ({r.config})", f"{v:,.0f} us", v <= 1000))
    for p in (1, 2):
        for bench, cfg, what in (("pingpong", f"P{p}", "park/unpark"),
                                 ("pingpong-chan", f"P{p}-chan", "channels")):
            w, b = med(bench, cfg), best(bench, cfg)
            if w is not None and b is not None:
                checks.append((f"round trip <= 1/3 of the best peer's (P{p}, {what})",
                               f"{w:.1f} ns vs {b[1]} {b[0]:.1f} ns = {b[0] / w:.2f}x",
                               w * 3 <= b[0]))
    for r in rows:
        if r.bench == "rss100k" and r.config.endswith("-VmRSS") and r.wuc:
            v = statistics.median(r.wuc)
            checks.append(("100,000 parked threads <= 1 GiB resident", f"{v:.0f} MiB", v <= 1024))
    checks += life_cycle_checks(med, best)
    # Channels and select: wuc >= 1.5x the best peer in every configuration.
    for r in rows:
        rt = r.ratio()
        if r.bench in SPEEDUP_GOAL_BENCHES and rt is not None:
            checks.append((f"{r.bench} {r.label()} >= 1.5x the best peer",
                           f"{rt:.2f}x (vs {peer_title(r.best_peer())})", rt >= 1.5))
    # elastic: wuc's unbounded channel against wuc's own cap-1024 channel.
    fixed = med("elastic", f"P{CHAN_PROCS}-Fixed1024")
    for mode in ("Seq", "Con"):
        v = med("elastic", f"P{CHAN_PROCS}-{mode}")
        if v is not None and fixed:
            checks.append((f"elastic {mode} (unbounded) >= 0.9x wuc Fixed1024",
                           f"{v / fixed:.2f}x ({v:,.0f} vs {fixed:,.0f} ops/s)", v >= 0.9 * fixed))
    # timeout-loop: against Go's fastest way of writing it, per shape.
    for shape in ("ready", "pc"):
        pairs = [r for r in rows if r.bench == "timeout-loop" and r.wuc and r.go
                 and r.config == f"P{CHAN_PROCS}-{shape}-timeout"]
        if pairs:
            fastest = max(pairs, key=lambda r: statistics.median(r.go))
            w = statistics.median([x for r in pairs for x in r.wuc])
            g = statistics.median(fastest.go)
            checks.append((f"timeout-loop {shape} >= 3x Go's fastest way",
                           f"{w / g:.2f}x ({w:,.0f} vs {g:,.0f} ops/s, {fastest.go_config})",
                           w >= 3 * g))
    return checks + io_goal_checks(rows)


def life_cycle_checks(med, best) -> list[tuple[str, str, bool]]:
    """Issue 21's thread life cycle: spawn+join and spawn+park >= 1.5x the best
    peer, wake+join no slower than Go, bytes per parked thread (resident
    bytes plus page tables) no more than Go's."""
    checks = []
    for p in (1, 2):
        w, b = med("spawn", f"P{p}"), best("spawn", f"P{p}")
        if w is not None and b is not None:
            checks.append((f"spawn+join >= 1.5x the best peer (P{p})",
                           f"{w:.0f} ns vs {b[1]} {b[0]:.0f} ns = {b[0] / w:.2f}x", w * 1.5 <= b[0]))
    cfg = f"P{NPROC}"
    w, g = med("rss100k", f"{cfg}-spawn+park"), med("rss100k", f"{cfg}-spawn+park", "go")
    if w is not None and g is not None:
        checks.append(("spawn+park >= 1.5x Go (100,000 threads)",
                       f"{w:,.0f} ns vs Go {g:,.0f} ns = {g / w:.2f}x", w * 1.5 <= g))
    w, g = med("rss100k", f"{cfg}-wake+join"), med("rss100k", f"{cfg}-wake+join", "go")
    if w is not None and g is not None:
        checks.append(("wake+join <= Go's (100,000 threads)",
                       f"{w:,.0f} ns vs Go {g:,.0f} ns = {g / w:.2f}x", w <= g))

    def per_thread(side: str) -> float | None:
        rss, pte = (med("rss100k", f"{cfg}-bytes-per-thread", side),
                    med("rss100k", f"{cfg}-VmPTE", side))
        return None if rss is None or pte is None else rss + pte * 2**20 / 100_000

    w, g = per_thread("wuc"), per_thread("go")
    if w is not None and g is not None:
        checks.append(("bytes per parked thread (RSS + page tables) <= Go's",
                       f"{w:,.0f} B vs Go {g:,.0f} B", w <= g))
    return checks


def check_goals(rows: list[Row]) -> list[tuple[str, str, bool]]:
    """Prints the goals and whether each is met; returns goal_checks(rows)."""
    print()
    print(GOALS_TEXT)
    checks = goal_checks(rows)
    for what, value, ok in checks:
        print(f"  [{'met' if ok else 'NOT met'}] {what}: {value}")
    w = next((statistics.median(r.wuc) for r in rows if r.bench == "work" and r.wuc), None)
    g = next((statistics.median(r.go) for r in rows if r.bench == "work" and r.go), None)
    if w is not None and g is not None:
        print(f"  (check, not a goal) work loop: wuc {w:.1f} ns, Go {g:.1f} ns per call "
              f"({'within' if abs(w / g - 1) <= 0.1 else 'NOT within'} 10%)")
    return checks


def io_goal_checks(rows: list[Row]) -> list[tuple[str, str, bool]]:
    """The I/O goals (issue 18): (what, value, met) per check."""
    checks = []
    for r in rows:
        sp = r.speedup()
        if sp is None:
            continue
        m = re.fullmatch(r"P\d+-C(\d+)-S(\d+)-rtps", r.config)
        if r.bench == "tcp-echo" and m and m.group(1) in ("100", "1000"):
            checks.append((f"tcp-echo {r.config} >= 1.3x Go", f"{sp:.2f}x", sp >= 1.3))
        if r.bench == "idle-conns" and r.config.endswith("-VmRSS"):
            w, g = statistics.median(r.wuc), statistics.median(r.go)
            checks.append((f"idle-conns {r.config} < Go's", f"{w:.1f} MiB vs Go {g:.1f} MiB",
                           w < g))
        if r.bench == "httpd" and r.config.endswith("-rps"):
            peer, goal = ("nginx", 0.9) if r.go_config.startswith("nginx-") else ("Go", 1.2)
            checks.append((f"httpd {r.config} >= {goal}x {peer}", f"{sp:.2f}x", sp >= goal))
        if r.bench == "httpd" and r.config.endswith("-p99") and not r.go_config.startswith("nginx-"):
            w, g = statistics.median(r.wuc), statistics.median(r.go)
            checks.append((f"httpd {r.config} <= Go's", f"{w:,.0f} us vs Go {g:,.0f} us", w <= g))
    return checks


# Plots: one PNG per benchmark under bench/results/.  Families with a numeric
# parameter in their config string are drawn as throughput against it (one
# line per side and capacity); the others as bars per configuration.
PLOT_AXES = {  # benchmark: (regex of the x value in the config, axis label)
    "select-contend": (r"-C(\d+)-", "clauses C (channels per statement)"),
    "select-spin": (r"-C(\d+)-", "clauses C (channels per statement)"),
    "chan-pc": (r"-N(\d+)-", "threads per side N (producers = consumers)"),
}
SIDE_STYLE = {"wuc": ("tab:blue", "o"), "Go": ("tab:orange", "s"), "crossbeam": ("tab:green", "^"),
              "Boost.Fiber": ("tab:red", "D")}


def plot_results(rows: list[Row], out_dir: Path) -> list[Path]:
    """Writes <benchmark>.png per benchmark; returns the files (none without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        log("PNG plots: skipped, matplotlib is not installed (scripts/bench.sh installs "
            "python3-matplotlib)")
        return []
    written = []
    for bench in dict.fromkeys(r.bench for r in rows):
        mine = [r for r in rows if r.bench == bench and r.wuc]
        fig, ax = plt.subplots(figsize=(7, 4.2 if bench in PLOT_AXES else 5))
        if bench in PLOT_AXES:
            plot_lines(ax, mine, *PLOT_AXES[bench])
        else:
            plot_bars(ax, mine)
        ax.set_title(f"{bench}: wuc and its peers, medians (error bars: min to max of the runs)",
                     fontsize=10)
        ax.yaxis.set_major_formatter(matplotlib.ticker.EngFormatter())
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = out_dir / f"{bench}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def median_and_range(xs: list[float]) -> tuple[float, float, float]:
    med = statistics.median(xs)
    return med, med - min(xs), max(xs) - med


def plot_lines(ax, rows: list[Row], pattern: str, xlabel: str) -> None:
    """Throughput against the config's numeric parameter: a line per side and
    per rest of the config (e.g. the capacity)."""
    series: dict[tuple[str, str], list[tuple[int, list[float]]]] = {}
    for r in rows:
        m = re.search(pattern, r.config)
        if not m:
            continue
        rest = re.sub(pattern, "-", r.config)
        for side, xs in (("wuc", r.wuc), ("Go", r.go),
                         *((PEERS[p].title, v) for p, v in r.peers.items())):
            if xs:
                series.setdefault((side, rest), []).append((int(m.group(1)), xs))
    dashes = {}
    for (side, rest), points in sorted(series.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        points.sort()
        color, marker = SIDE_STYLE[side]
        style = dashes.setdefault(rest, ["-", "--", ":", "-."][len(dashes) % 4])
        meds = [median_and_range(xs) for _, xs in points]
        ax.errorbar([x for x, _ in points], [m[0] for m in meds],
                    yerr=[[m[1] for m in meds], [m[2] for m in meds]], color=color, marker=marker,
                    linestyle=style, capsize=3, label=f"{side} {rest.strip('-')}")
    xs = sorted({x for pts in series.values() for x, _ in pts})
    if xs and xs[-1] / max(xs[0], 1) > 16:
        ax.set_xscale("log")
    ax.set_xticks(xs)
    ax.set_xticklabels([str(x) for x in xs])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"throughput ({rows[0].unit})" if rows else "")
    ax.set_ylim(bottom=0)


def plot_bars(ax, rows: list[Row]) -> None:
    """Bars per configuration, wuc beside Go; configurations in other units than
    the first are left out (rss100k mixes MiB, bytes and ns: its first unit)."""
    unit = rows[0].unit if rows else ""
    rows = [r for r in rows if r.unit == unit]
    sides = [("wuc", lambda r: r.wuc), ("Go", lambda r: r.go)]
    sides += [(PEERS[p].title, lambda r, p=p: r.peers.get(p, [])) for p in PEERS
              if any(r.peers.get(p) for r in rows)]
    width = 0.8 / len(sides)
    for k, (side, get) in enumerate(sides):
        color, _ = SIDE_STYLE[side]
        xs, meds = [], []
        for i, r in enumerate(rows):
            if get(r):
                xs.append(i + (k - (len(sides) - 1) / 2) * width)
                meds.append(median_and_range(get(r)))
        ax.bar(xs, [m[0] for m in meds], width, yerr=[[m[1] for m in meds], [m[2] for m in meds]],
               color=color, capsize=3, label=side)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r.label().replace("P2-", "").replace(" vs ", " vs Go ") for r in rows],
                       rotation=30, ha="right", fontsize=7)
    better = "lower is better" if unit in LOWER_IS_BETTER else "higher is better"
    ax.set_ylabel(f"{unit} ({better})")


def rows_from_csv(path: Path) -> list[Row]:
    """The rows of a latest.csv written by main() (the runs' values included)."""
    def values(cell: str) -> list[float]:
        return [float(x) for x in cell.split(";") if x]
    with path.open(newline="") as f:
        return [Row(d["benchmark"], d["config"], d["unit"], values(d["wuc_runs"]), values(d["go_runs"]),
                    go_config=d["go_config"], show_go_config=d["go_config"] != d["config"],
                    peers={p: values(d[f"{p}_runs"]) for p in PEERS if d.get(f"{p}_runs")})
                for d in csv.DictReader(f)]


def wuc_revision(*git_args: str) -> str:
    """`git <git_args>` of the tree (describe --always, rev-parse --short HEAD),
    plus "-dirty" if anything but bench/results differs from the commit."""
    rev = subprocess.run(["git", "-C", str(ROOT), *git_args],
                         capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no",
                              "--", ".", ":!bench/results"],
                             capture_output=True, text=True).stdout.strip()
    return rev + "-dirty" if rev and changed else rev


# Run files (bench/results/runs/README.md): one per run against the peers, a
# header of "# key: value" lines and the pooled table, one row per
# (benchmark, config, peer config).
RUN_FILE_COLUMNS = ["benchmark", "config", "peer_config", "unit", "wuc", "go", "crossbeam",
                    "fiber", "nginx", "ratio", "best_peer", "vs_go", "wuc_spread", "go_spread",
                    "crossbeam_spread", "fiber_spread", "nginx_spread"]


def num(x: float | None, digits: int = 3) -> str:
    """A run file's number: fixed point without trailing zeros, no separators."""
    if x is None:
        return ""
    out = f"{x:.{digits}f}"
    return out.rstrip("0").rstrip(".") if "." in out else out


def run_file_rows(rows: list[Row]) -> list[list[str]]:
    """The run file's table for rows of measure_against_go (pooled).  httpd's
    rows against nginx (Go config "nginx-...") have their peer in the nginx
    column; their ratio is against nginx and they have no vs_go."""
    out = []
    for r in rows:
        med = {side: statistics.median(xs) for side, xs in (("wuc", r.wuc), ("go", r.go),
                                                            *r.peers.items()) if xs}
        spread = {side: Row.spread(xs) for side, xs in (("wuc", r.wuc), ("go", r.go),
                                                        *r.peers.items()) if xs}
        if r.go_config.startswith("nginx-"):
            for d in (med, spread):
                if "go" in d:
                    d["nginx"] = d.pop("go")
            ratio, best, vs_go = r.speedup(), "nginx" if "nginx" in med else "", None
        else:
            ratio, best, vs_go = r.ratio(), peer_title(r.best_peer()), r.speedup()
        out.append([r.bench, r.config, r.go_config if r.go_config != r.config else "", r.unit,
                    *(num(med.get(side)) for side in ("wuc", "go", *PEERS, "nginx")),
                    num(ratio), best, num(vs_go),
                    *(num(spread.get(side), 4) for side in ("wuc", "go", *PEERS, "nginx"))])
    return out


def run_file_name(start: datetime.datetime, commit: str, tags: list[str]) -> str:
    """<YYYY-MM-DDTHHMM>Z-<commit>[-<tag>...].csv, start in UTC."""
    return "-".join([start.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H%MZ"), commit,
                     *tags]) + ".csv"


def write_run_file(path: Path, header: list[tuple[str, str]], goals: list[list[str]],
                   table: list[list[str]]) -> Path:
    """Writes a run file: `# key: value` per header item (in order), then
    `# goal: <status> <met>/<k> | <goal> | <values, ' / ' between repetitions>`
    per goals.csv row (goal, met_of_k, k, status, values), then the table
    under RUN_FILE_COLUMNS.  Returns path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        f.write("# wuc benchmark run; the format: bench/results/runs/README.md\n")
        for key, value in header:
            for line in value.splitlines() or [""]:
                f.write(f"# {key}: {line}\n")
        for goal, met_of_k, _, status, values in goals:
            f.write(f"# goal: {status} {met_of_k} | {goal} | {values.replace(';', ' / ')}\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(RUN_FILE_COLUMNS)
        w.writerows(table)
    return path


def run_file_header(args: argparse.Namespace, started: datetime.datetime,
                    ended: datetime.datetime, machine: str, load_start: tuple[float, ...],
                    load_end: tuple[float, ...], runs: int, rows: list[Row],
                    peers: list[str], rev: str) -> list[tuple[str, str]]:
    """The header items of a run's file (write_run_file); rev: the short
    commit, "-dirty" at the end if the tree differed from it."""
    utc = datetime.timezone.utc
    s, e = started.astimezone(utc), ended.astimezone(utc)
    took = int((e - s).total_seconds())
    end_day = "" if e.date() == s.date() else f" on {e:%Y-%m-%d}"
    argv0 = Path(sys.argv[0]).resolve()
    script = str(argv0.relative_to(ROOT)) if argv0.is_relative_to(ROOT) else sys.argv[0]
    k = args.repeat
    sides = ["wuc", "Go", *(PEERS[p].title for p in peers)]
    if any(r.go_config.startswith("nginx-") for r in rows):
        sides.append("nginx")
    names = list(dict.fromkeys(r.bench for r in rows))
    covered = [f"{'every benchmark' if not args.only else 'only ' + ', '.join(names)} "
               f"({len(rows)} rows); " +
               (f"{k} repetitions of {runs} runs per side, pooled ({k * runs} per side)"
                if k > 1 else f"{runs} runs per side") +
               f", sides in turn: {', '.join(sides)}"]
    if args.quick:
        covered.append("--quick: 1/20 of the iterations (select-spin 1/200), 1/10 of the windows")
    quiet = max(load_start[0], load_end[0]) <= NPROC
    remarks = ["quick run, orientation only"] if args.quick else []
    remarks.append(f"quiet machine (1-minute load average <= {NPROC}, what the benchmarks add, "
                   f"at the start and the end)" if quiet else
                   f"loaded machine (1-minute load average above the {NPROC} the benchmarks add): "
                   f"wall-clock ratios are noisier")
    if rev.endswith("-dirty"):
        remarks.append("the tree had uncommitted changes (outside bench/results) when the run began")
    if args.no_build:
        remarks.append("--no-build: the programs were built earlier, perhaps from another tree")
    remarks += args.remark or []
    return [
        ("date", f"{s:%Y-%m-%d %H:%M:%S} to {e:%H:%M:%S}{end_day} UTC ({took // 60} min "
                 f"{took % 60} s, the build included)"),
        ("commit", rev),
        ("command", shlex.join([sys.executable, script, *sys.argv[1:]])),
        ("machine", machine),
        ("load", f"{', '.join(f'{x:.1f}' for x in load_start)} at the start; "
                 f"{', '.join(f'{x:.1f}' for x in load_end)} at the end"),
        ("covered", "\n".join(covered)),
        ("remarks", "\n".join(remarks)),
    ]


def machine_summary(go: str | None) -> str:
    model = ""
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.startswith("model name"):
                model = ln.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    gov = "no Go"
    if go:
        gov = subprocess.run([go, "version"], capture_output=True, text=True).stdout.strip()
    cc = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout.splitlines()
    rev = wuc_revision("describe", "--always")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{model or platform.processor()}, {NPROC} CPUs, Linux {platform.release()}; "
            f"{gov}; {cc[0] if cc else 'cc ?'}; wuc {rev or '?'}; load average {load}")


def measure_against_go(benches: list[Bench], build_dir: Path, runs: int, quick: bool,
                       peers: list[str] | None = None) -> tuple[list[Row], list[list[str]]]:
    """Every configuration `runs` times, wuc, Go and the extra peers (of
    `peers`, where they have the benchmark) in turn; the rows and every run."""
    rows: dict[tuple[str, str, str], Row] = {}
    raw: list[list[str]] = []
    for rep in range(runs):
        for b in benches:
            c_cmd, go_cmd = commands(b, build_dir, quick)
            sides = [("wuc", c_cmd, {"WUC_PROCESSORS": str(b.procs)}),
                     ("go", go_cmd, {"GOMAXPROCS": str(b.procs), **b.go_env})]
            sides += [(p, peer_command(b, p, build_dir, quick), {"PEER_PROCS": str(b.procs)})
                      for p in b.peers() if p in (peers or [])]
            # Nobody always runs first (on a warmer or colder machine): with
            # two sides this alternates, with more it rotates.
            k = rep % len(sides)
            sides = sides[k:] + sides[:k] if len(sides) > 2 else sides[::-1] if k else sides
            results = {}
            for side, cmd, env in sides:
                results[side] = run_one(cmd, env)
                for cfg, (value, unit, name) in results[side].items():
                    raw.append([str(rep), side, name, cfg, f"{value}", unit])
            for cfg, (value, unit, name) in results["wuc"].items():
                # One wuc config may pair with several Go ones: a row per pair.
                for gcfg in b.go_configs(cfg):
                    row = rows.setdefault((name, cfg, gcfg),
                                          Row(name, cfg, unit, go_config=gcfg,
                                              show_go_config=b.show_go_config))
                    row.wuc.append(value)
                    if gcfg in results["go"]:
                        gvalue, gunit, _ = results["go"][gcfg]
                        if gunit != unit:
                            sys.exit(f"run.py: unit mismatch for {name} {cfg}: wuc {unit}, "
                                     f"Go {gunit}")
                        row.go.append(gvalue)
                    else:
                        log(f"run.py: warning: no Go result {gcfg!r} for wuc {name} {cfg} "
                            f"(Go printed {sorted(results['go'])})")
                    # The extra peers print the Go peer's config strings.
                    for p in PEERS:
                        if p not in results:
                            continue
                        if gcfg in results[p]:
                            pvalue, punit, _ = results[p][gcfg]
                            if punit != unit:
                                sys.exit(f"run.py: unit mismatch for {name} {cfg}: wuc {unit}, "
                                         f"{PEERS[p].title} {punit}")
                            row.peers.setdefault(p, []).append(pvalue)
                        else:
                            log(f"run.py: warning: no {PEERS[p].title} result {gcfg!r} for wuc "
                                f"{name} {cfg} ({PEERS[p].title} printed {sorted(results[p])})")
            log(f"run {rep + 1}/{runs}: {b.name} P{b.procs} {' '.join(b.c_args)}: " +
                ", ".join(f"{cfg} wuc {results['wuc'][cfg][0]:g} / Go " +
                          "/".join(f"{results['go'].get(g, ('-',))[0]}" for g in b.go_configs(cfg)) +
                          "".join(f" / {PEERS[p].title} " +
                                  "/".join(f"{results[p].get(g, ('-',))[0]}"
                                           for g in b.go_configs(cfg))
                                  for p in PEERS if p in results)
                          for cfg in results["wuc"]))
    return list(rows.values()), raw


def measure_preemption_cost(benches: list[Bench], build_dir: Path, runs: int,
                            quick: bool) -> tuple[list[Row], list[list[str]]]:
    """Every wuc configuration `runs` times with the default time slice (the
    rows' `wuc` side) and with WUC_TIMESLICE=0 (their `go` side), alternating."""
    # A wuc configuration paired with several Go ones runs once.
    unique = {(b.name, b.procs, tuple(b.c_args)): b for b in benches}.values()
    rows: dict[tuple[str, str], Row] = {}
    raw: list[list[str]] = []
    for rep in range(runs):
        for b in unique:
            cmd, _ = commands(b, build_dir, quick)
            sides = [("on", {}), ("off", {"WUC_TIMESLICE": "0"})]
            if rep % 2:
                sides.reverse()
            got = {}
            for side, env in sides:
                got[side] = run_one(cmd, {"WUC_PROCESSORS": str(b.procs), **env})
                for cfg, (value, unit, name) in got[side].items():
                    raw.append([str(rep), side, name, cfg, f"{value}", unit])
                    row = rows.setdefault((name, cfg), Row(name, cfg, unit))
                    (row.wuc if side == "on" else row.go).append(value)
            log(f"run {rep + 1}/{runs}: {b.name} P{b.procs} {' '.join(b.c_args)}: " +
                ", ".join(f"{cfg} on {v:g} / off {got['off'].get(cfg, ('-',))[0]}"
                          for cfg, (v, _, _) in got["on"].items()))
    return list(rows.values()), raw


def write_csv(path: Path, header: list[str], rows: list[list[str]], only: list[str] | None) -> None:
    """Writes header and rows; with --only, keeps the rows whose first cell (the
    benchmark; goals.csv: the goal) is not in `only`.  Rows of an older file
    whose header is the start of this one get empty cells for the new columns."""
    kept: list[list[str]] = []
    if only and path.exists():
        with path.open(newline="") as f:
            old_rows = list(csv.reader(f))
        if old_rows and old_rows[0] == header[:len(old_rows[0])]:
            pad = [""] * (len(header) - len(old_rows[0]))
            kept = [r + pad for r in old_rows[1:] if r and r[0] not in set(only)]
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(kept)
        w.writerows(rows)


def main() -> None:
    names = list(dict.fromkeys(b.name for b in BENCHES))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="1/20 of the iterations (select-spin 1/200), 1/10 of the windows, 3 runs")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help=f"run only this benchmark ({', '.join(names)}); repeatable")
    ap.add_argument("--runs", type=int, help="runs of each side per configuration (default 5, quick 3)")
    ap.add_argument("--build-dir", type=Path, default=ROOT / "build-bench",
                    help="Release build tree for the C programs (default: build-bench/)")
    ap.add_argument("--no-build", action="store_true", help="use the programs already built")
    ap.add_argument("--replot", action="store_true",
                    help="only redraw the PNG plots from bench/results/latest.csv")
    ap.add_argument("--preemption-cost", action="store_true",
                    help="wuc only: each configuration with the default time slice and with "
                         "WUC_TIMESLICE=0; writes bench/results/preemption-cost.csv")
    ap.add_argument("--repeat", type=int, default=1, metavar="K",
                    help="run the selected suite K times and report, per goal, in how many of "
                         "the K it was met (bench/results/goals.csv); latest.csv pools the K")
    ap.add_argument("--skip-peer", action="append", default=[], choices=list(PEERS),
                    help="run without this extra peer (crossbeam, fiber); repeatable")
    ap.add_argument("--remark", action="append", metavar="TEXT",
                    help="a line for the remarks of the run file (bench/results/runs/); "
                         "repeatable")
    args = ap.parse_args()
    started = datetime.datetime.now(datetime.timezone.utc)
    if args.replot:
        plots = plot_results(rows_from_csv(RESULTS_DIR / "latest.csv"), RESULTS_DIR)
        print("wrote " + ", ".join(str(p.relative_to(ROOT)) for p in plots))
        return

    runs = args.runs or (3 if args.quick else 5)
    if runs < 3:
        sys.exit("run.py: --runs must be at least 3 (medians of fewer mean little)")
    if args.only:
        unknown = set(args.only) - set(names)
        if unknown:
            sys.exit(f"run.py: unknown benchmark(s) {sorted(unknown)}; known: {sorted(names)}")
    benches = [b for b in BENCHES if not args.only or b.name in args.only]

    if args.repeat < 1:
        sys.exit("run.py: --repeat must be at least 1")
    cost = args.preemption_cost
    go = None if cost else find_go()
    build_dir = args.build_dir.resolve()
    wanted = set() if cost else set(PEERS) - set(args.skip_peer)
    # The tree the programs are built from: the run file is named after it,
    # not after what the tree holds when the run ends (edits made meanwhile
    # were not measured).  With --no-build the programs may be older still.
    rev = wuc_revision("rev-parse", "--short", "HEAD") or "unknown"
    if not args.no_build:
        build(build_dir, go, wanted)
    peers = available_peers(build_dir, wanted)

    machine = machine_summary(go)
    load_start = os.getloadavg()
    k = args.repeat
    log(f"\nmachine: {machine}")
    log(f"mode: {'quick' if args.quick else 'full'}, {runs} runs per side" +
        (f", the suite {k} times" if k > 1 else "") + ", " +
        ("preemption on and off alternating\n" if cost else
         f"wuc, Go{''.join(', ' + PEERS[p].title for p in peers)} in turn\n"))
    # The committed CSVs come from full runs; the mode column says which.
    mode = ("quick" if args.quick else "full") + ("-only" if args.only else "") + \
        (f"-repeat{k}" if k > 1 else "")
    RESULTS_DIR.mkdir(exist_ok=True)
    raw_dir = RESULTS_DIR / "raw"
    raw_dir.mkdir(exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    pooled: dict[tuple[str, str, str], Row] = {}
    per_rep_goals: list[list[tuple[str, str, bool]]] = []
    raw_files = []
    for i in range(k):
        if k > 1:
            log(f"\n=== repetition {i + 1} of {k} ===")
        ordered, raw = (measure_preemption_cost(benches, build_dir, runs, args.quick) if cost else
                        measure_against_go(benches, build_dir, runs, args.quick, peers))
        # Every repetition's runs in a file of its own, written at once.
        raw_file = raw_dir / (f"{stamp}{'-preemption-cost' if cost else ''}"
                              f"{'-quick' if args.quick else ''}"
                              f"{f'-rep{i + 1}of{k}' if k > 1 else ''}.csv")
        with raw_file.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow([f"# {machine}; {'quick' if args.quick else 'full'}; {runs} runs" +
                        (f"; repetition {i + 1} of {k}" if k > 1 else "")])
            w.writerow(["run", "side", "benchmark", "config", "value", "unit"])
            w.writerows(raw)
        raw_files.append(raw_file)
        print()
        print_table(ordered, preemption_cost=cost)
        if not cost:
            per_rep_goals.append(check_goals(ordered))
        for r in ordered:
            into = pooled.setdefault((r.bench, r.config, r.go_config),
                                     Row(r.bench, r.config, r.unit, go_config=r.go_config,
                                         show_go_config=r.show_go_config))
            into.wuc += r.wuc
            into.go += r.go
            for p, xs in r.peers.items():
                into.peers.setdefault(p, []).extend(xs)
    ordered = list(pooled.values())

    if k > 1:
        print(f"\nAll {k} repetitions pooled ({k * runs} runs per side):")
        print_table(ordered, preemption_cost=cost)
    if cost:
        print("on: the default time slice (or WUC_TIMESLICE from the environment); off: "
              "WUC_TIMESLICE=0.  cost: off median / on median for rates (on / off for times "
              "and memory); > 1 means preemption makes it slower.  spread: (max - min) / median.")
    else:
        for b in benches:
            if b.note:
                print(f"\nnote ({b.name}): {b.note}")
        print("speedup / vs Go: Go median / wuc median for times and memory (ops/s: wuc / Go); "
              "> 1 means wuc is better.  ratio: the same against the best peer of the row "
              "(Go, crossbeam or Boost.Fiber).  spread: (max - min) / median over the runs.")
    goal_rows = [] if cost else goals_over_repetitions(per_rep_goals)

    if cost:
        out = RESULTS_DIR / "preemption-cost.csv"
        write_csv(out, ["benchmark", "config", "unit", "on_median", "off_median", "cost",
                        "on_spread", "off_spread", "on_runs", "off_runs", "mode"],
                  [r.csv_cells(r.cost()) + [mode] for r in ordered], args.only)
    else:
        out = RESULTS_DIR / "latest.csv"
        write_csv(out, ["benchmark", "config", "unit", "wuc_median", "go_median", "speedup",
                        "wuc_spread", "go_spread", "wuc_runs", "go_runs", "go_config", "mode",
                        *(f"{p}_{c}" for p in PEERS for c in ("median", "runs")),
                        "best_peer", "ratio"],
                  [r.csv_cells(r.speedup()) + [r.go_config, mode] + r.peer_cells()
                   for r in ordered], args.only)
        # goals.csv, merged by goal with --only (the goals of the benchmarks
        # not run this time are kept).
        write_csv(RESULTS_DIR / "goals.csv",
                  ["goal", "met_of_k", "k", "status", "values", "mode"],
                  [[*g, mode] for g in goal_rows], [g[0] for g in goal_rows] if args.only else None)
    load_end = os.getloadavg()
    run_file = None
    if not cost:
        # The run's own file (bench/results/runs/README.md), beside latest.csv.
        tags = (["quick"] if args.quick else []) + \
            (["only-" + "+".join(dict.fromkeys(args.only))] if args.only else []) + \
            ([f"repeat{k}"] if k > 1 else [])
        run_file = write_run_file(
            RUNS_DIR / run_file_name(started, rev, tags),
            run_file_header(args, started, datetime.datetime.now(datetime.timezone.utc), machine,
                            load_start, load_end, runs, ordered, peers, rev),
            goal_rows, run_file_rows(ordered))
    print(f"\nload average at the end: {', '.join(f'{x:.1f}' for x in load_end)} "
          f"(start: see the machine line).  The benchmarks add up to {NPROC}; more means other "
          f"work shared the CPUs and the numbers are noisier")
    goals_csv = "" if cost else f", {(RESULTS_DIR / 'goals.csv').relative_to(ROOT)}"
    goals_csv += f", {run_file.relative_to(ROOT)}" if run_file else ""
    print(f"wrote {out.relative_to(ROOT)}{goals_csv}" +
          " and " + ", ".join(str(f.relative_to(ROOT)) for f in raw_files))
    if cost:
        return
    plots = plot_results(ordered, RESULTS_DIR)
    if plots:
        print(f"wrote {len(plots)} PNG plots: " + ", ".join(str(p.relative_to(ROOT)) for p in plots))


def goals_over_repetitions(reps: list[list[tuple[str, str, bool]]]) -> list[list[str]]:
    """Per goal: met in how many of the K repetitions.  Prints a table (with
    K > 1) and returns goals.csv's rows: goal, met_of_k, k, status, values."""
    k = len(reps)
    goals: dict[str, list[tuple[str, bool] | None]] = {}
    for i, checks in enumerate(reps):
        for what, value, ok in checks:
            goals.setdefault(what, [None] * k)[i] = (value, ok)
    out = []
    for what, results in goals.items():
        got = [x for x in results if x is not None]
        met = sum(ok for _, ok in got)
        # A goal met in some repetitions and missed in others is not met
        # (issue 21: a goal that flips between full runs on a quiet machine).
        status = ("met" if met == k else "flips" if met else "NOT met") if len(got) == k else \
            f"checked in {len(got)} of {k}"
        out.append([what, f"{met}/{k}", str(k), status,
                    ";".join(x[0] if x else "-" for x in results)])
    if k > 1:
        print(f"\nGoals over {k} repetitions (met: in all {k}; flips: in some, counts as not met):")
        width = max((len(r[0]) for r in out), default=4)
        print(f"| {'goal'.ljust(width)} | met | status | per repetition |")
        print(f"|{'-' * (width + 2)}|----:|--------|----------------|")
        for what, met_of_k, _, status, values in out:
            print(f"| {what.ljust(width)} | {met_of_k} | {status} | {values.replace(';', ' / ')} |")
        counts = {s: sum(r[3] == s for r in out) for s in ("met", "flips", "NOT met")}
        print(f"{counts['met']} met in {k} of {k}, {counts['flips']} flip, "
              f"{counts['NOT met']} met in none")
    return out


if __name__ == "__main__":
    main()
