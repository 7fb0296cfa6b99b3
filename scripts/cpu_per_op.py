#!/usr/bin/env python3
"""CPU time per operation of one benchmark, for several wuc builds and the Go peer.

    python3 scripts/cpu_per_op.py --build before=/tmp/old/build-bench --build after=build-bench \\
        --go build-bench/bench/wucpeer --runs 7 -n 2000000 --procs 1 \\
        timeout-loop -shape ready -timer none

Runs `<build>/bench/bench_<name> -n N ARGS` (and `wucpeer <name> -n N ARGS`, or
--go-args instead of ARGS) under `perf stat -e task-clock`, the sides
alternating run by run, and prints the median CPU nanoseconds per operation:
task-clock / (1.05 N), since every program runs a warm-up of N/20 first.

Why CPU time: on a shared, overloaded machine a program's wall-clock
throughput measures how much of a CPU the kernel gave it, not its code.  CPU
time per operation of a 1-worker run (--procs 1) does not depend on that
(cache interference from other processes still adds noise: use several
runs).  It says nothing about parallel speed-ups: use bench/run.py on a quiet
machine for those.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile


def cpu_ms(cmd: list[str], env: dict[str, str]) -> float:
    with tempfile.NamedTemporaryFile("r", suffix=".stat") as out:
        subprocess.run(["perf", "stat", "-x,", "-e", "task-clock", "-o", out.name, *cmd],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        for line in out.read().splitlines():
            if "task-clock" in line:
                return float(line.split(",")[0])
    sys.exit(f"cpu_per_op: no task-clock reading for {' '.join(cmd)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", action="append", default=[], metavar="LABEL=DIR",
                    help="a wuc benchmark build directory (repeat to compare builds)")
    ap.add_argument("--go", metavar="WUCPEER", help="the Go peer binary (bench/peers/go)")
    ap.add_argument("--go-args", help="arguments for the Go peer instead of the wuc ones")
    ap.add_argument("--go-env", action="append", default=[], metavar="K=V",
                    help="environment of the Go runs only (e.g. GODEBUG=asynctimerchan=1)")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("-n", type=int, required=True, help="operations per timed round")
    ap.add_argument("--procs", type=int, default=1, help="WUC_PROCESSORS and GOMAXPROCS")
    ap.add_argument("name")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()

    sides: list[tuple[str, list[str], dict[str, str]]] = []
    env = dict(os.environ, WUC_PROCESSORS=str(a.procs), GOMAXPROCS=str(a.procs))
    for spec in a.build:
        label, _, path = spec.partition("=")
        sides.append((label, [os.path.join(path, "bench", f"bench_{a.name}"), "-n", str(a.n), *a.args], env))
    if a.go:
        go_env = dict(env, **dict(kv.split("=", 1) for kv in a.go_env))
        go_args = a.go_args.split() if a.go_args is not None else a.args
        sides.append(("go", [a.go, a.name, "-n", str(a.n), *go_args], go_env))
    if not sides:
        sys.exit("cpu_per_op: give at least one --build or --go")

    samples: dict[str, list[float]] = {label: [] for label, _, _ in sides}
    for i in range(a.runs):
        order = sides if i % 2 == 0 else list(reversed(sides))
        for label, cmd, side_env in order:
            samples[label].append(cpu_ms(cmd, side_env) * 1e6 / (a.n * 1.05))
    print(f"{a.name} {' '.join(a.args)}: CPU ns per operation, median of {a.runs} "
          f"(procs {a.procs}, n {a.n})")
    for label, _, _ in sides:
        xs = samples[label]
        print(f"  {label:>8} {statistics.median(xs):8.1f}   runs: {' '.join(f'{x:.1f}' for x in xs)}")


if __name__ == "__main__":
    main()
