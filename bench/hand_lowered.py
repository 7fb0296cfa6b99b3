#!/usr/bin/env python3
"""The dialect benchmarks against the hand-lowered C programs they replaced.

    python3 bench/hand_lowered.py              # every configuration, 5 runs per side
    python3 bench/hand_lowered.py --quick      # run.py's --quick sizes, 3 runs
    python3 bench/hand_lowered.py --only futures --runs 7
    python3 bench/hand_lowered.py --instructions   # instructions per operation (callgrind)

Until commit HAND_LOWERED_REF the channel, select, future and timeout benchmarks
were plain C whose waituntil statements were lowered by hand (bench/lowered.h).
This script takes those sources from git, builds them against the libwuc of the
harness's Release tree (build-bench/, which run.py builds; --build builds it
here) with the flags the C benchmarks get there, and runs every wuc
configuration of run.py with both programs, alternating which goes first.  It
prints, per configuration, the medians, dialect / hand-lowered (> 1: the
wucc-generated code is faster) and each side's spread.  Only the statement
code differs between the two: same runtime, same shapes, same flags.

--instructions counts instead of timing, which no load on the machine can
disturb: each program runs under `valgrind --tool=callgrind` on one worker
with -n N and -n 2N, and the difference of the two totals divided by the
difference in operations (each run also does a warm-up of n/20) is the
instruction count of one operation, start-up and teardown cancelled out.
(select-order runs for a fixed time, not a count: left out there.)

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as harness  # noqa: E402  (run.py: the configurations, running, formatting)

HAND_LOWERED_REF = "b4ae2c6"
PROGRAMS = ("select-contend", "select-spin", "select-order", "futures", "chan-pc", "elastic",
            "timeout-loop", "shared-done")
HEADERS = ("lowered.h", "shapes.h", "bench.h")


def build_hand_lowered(build_dir: Path, names: list[str]) -> Path:
    """Writes the old sources under build_dir/hand-lowered and compiles them."""
    out = build_dir / "hand-lowered"
    out.mkdir(parents=True, exist_ok=True)
    for f in [f"{n}.c" for n in names] + list(HEADERS):
        text = subprocess.run(["git", "-C", str(harness.ROOT), "show", f"{HAND_LOWERED_REF}:bench/{f}"],
                              capture_output=True, text=True, check=True).stdout
        # The element-type member of a channel is __wuc_elem since (a reserved name).
        text = text.replace("(ch)->elem[0]", "(ch)->__wuc_elem[0]")
        (out / f).write_text(text)
    # The latch's trait functions lost their short names since (e320dd7: <wuc/*.h> are
    # prefixed-only); the old sources call them by those names.
    renames = [f"-D{old}=wuc_{old}" for old in ("latch_register", "latch_unregister",
                                                 "latch_on_selected")]
    for n in names:
        harness.run_checked(["cc", "-O3", "-DNDEBUG", "-std=gnu11", "-Wall", "-Wextra", *renames,
                             f"-I{harness.ROOT / 'runtime'}", f"-I{harness.ROOT / 'stdlib'}",
                             str(out / f"{n}.c"), str(build_dir / "runtime" / "libwuc.a"),
                             "-ldl", "-rdynamic", "-o", str(out / f"bench_{n}")])
    return out


def instructions(cmd: list[str], out: Path) -> int:
    """Total instructions executed by cmd under callgrind, on one worker."""
    harness.run_one(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                    {"WUC_PROCESSORS": "1"})
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    sys.exit(f"hand_lowered.py: no instruction total in {out}")


def instructions_per_op(configs: list, build_dir: Path, old_dir: Path, n: int) -> None:
    header = ["benchmark", "arguments", "dialect (.wc)", "hand-lowered (.c)", "wc - c"]
    body = []
    for b in configs:
        if b.window_ms is not None:
            continue
        per_op = []
        for prog in (build_dir / "bench" / f"bench_{b.name}", old_dir / f"bench_{b.name}"):
            ir = [instructions([str(prog), *b.c_args, "-n", str(k)], old_dir / "callgrind.out")
                  for k in (n, 2 * n)]
            per_op.append((ir[1] - ir[0]) / (n * 21 / 20))  # n more operations and n/20 more warm-up
        harness.log(f"{b.name} {' '.join(b.c_args)}: {per_op[0]:.0f} / {per_op[1]:.0f}")
        body.append([b.name, " ".join(b.c_args), f"{per_op[0]:.0f}", f"{per_op[1]:.0f}",
                     f"{per_op[0] - per_op[1]:+.0f}"])
    print_table(header, body, 2)
    print(f"instructions per operation (callgrind, one worker, -n {n} and {2 * n}); wc - c > 0: "
          "the wucc-generated code executes more.")


def print_table(header: list[str], body: list[list[str]], left: int) -> None:
    widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(header)]
    print()
    for cells in [header, ["-" * w for w in widths], *body]:
        print("| " + " | ".join(x.ljust(w) if i < left else x.rjust(w)
                                for i, (x, w) in enumerate(zip(cells, widths))) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="run.py's --quick sizes, 3 runs")
    ap.add_argument("--only", action="append", metavar="NAME", choices=PROGRAMS,
                    help="only this benchmark; repeatable")
    ap.add_argument("--runs", type=int, help="runs per side and configuration (default 5, quick 3)")
    ap.add_argument("--build-dir", type=Path, default=harness.ROOT / "build-bench")
    ap.add_argument("--build", action="store_true", help="build the Release tree first")
    ap.add_argument("--instructions", action="store_true",
                    help="instructions per operation under callgrind instead of timings")
    ap.add_argument("-n", type=int, default=20000, help="--instructions: the smaller -n (default 20000)")
    args = ap.parse_args()
    runs = args.runs or (3 if args.quick else 5)
    names = list(args.only or PROGRAMS)
    build_dir = args.build_dir.resolve()
    if args.build:
        harness.run_checked(["cmake", "-S", str(harness.ROOT), "-B", str(build_dir), "-G", "Ninja",
                             "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF"])
        harness.run_checked(["ninja", "-C", str(build_dir), "benchmarks"])
    old_dir = build_hand_lowered(build_dir, names)

    # One entry per distinct wuc command (timeout-loop pairs one with several Go ones).
    configs, seen = [], set()
    for b in harness.BENCHES:
        key = (b.name, tuple(b.c_args))
        if b.name in names and key not in seen:
            seen.add(key)
            configs.append(b)

    if args.instructions:
        instructions_per_op(configs, build_dir, old_dir, args.n)
        return
    harness.log(f"\nmachine: {harness.machine_summary(harness.find_go())}")
    rows: dict[tuple[str, str], tuple[list[float], list[float], str]] = {}
    for rep in range(runs):
        for b in configs:
            window = []
            if b.window_ms is not None:
                window = ["-d", str(max(1, b.window_ms // 10) if args.quick else b.window_ms)]
            tail = [*b.c_args, *window, *harness.scaled(b.c_iters, args.quick, b.quick_div)]
            sides = [("wc", build_dir / "bench" / f"bench_{b.name}"), ("c", old_dir / f"bench_{b.name}")]
            if rep % 2:
                sides.reverse()
            for side, prog in sides:
                for cfg, (value, unit, name) in harness.run_one([str(prog), *tail],
                                                                 {"WUC_PROCESSORS": str(b.procs)}).items():
                    wc, c, _ = rows.setdefault((name, cfg), ([], [], unit))
                    (wc if side == "wc" else c).append(value)
            harness.log(f"run {rep + 1}/{runs}: {b.name} {' '.join(b.c_args)}")

    header = ["benchmark", "config", "unit", "dialect (.wc)", "hand-lowered (.c)", "wc / c",
              "wc spread", "c spread"]
    body = []
    for (name, cfg), (wc, c, unit) in rows.items():
        mw, mc = statistics.median(wc), statistics.median(c)
        ratio = (mc / mw) if unit in harness.LOWER_IS_BETTER else (mw / mc)
        body.append([name, cfg, unit, harness.fmt(mw), harness.fmt(mc), f"{ratio:.2f}x",
                     f"{harness.Row.spread(wc):.1%}", f"{harness.Row.spread(c):.1%}"])
    print_table(header, body, 3)
    print("wc / c: dialect median / hand-lowered median (ns: the inverse); > 1: the dialect "
          "program is faster.  spread: (max - min) / median.")


if __name__ == "__main__":
    main()
