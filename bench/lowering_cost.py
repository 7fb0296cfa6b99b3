#!/usr/bin/env python3
"""lowering_cost.py — what two wucc builds' lowerings cost, side by side.

For changes to lowering/: both compilers lower the same sources, and the
lowered C of each is measured with the same back end, headers and libwuc
(those the wucc binaries were built against):

  compile  bench/compile_time.py's generated file (N statements): lines of
           lowered C (and how many are #line directives), the back end's CPU
           time for -O2 -c (user+sys, median of alternating runs: CPU time
           survives a loaded machine better than wall time), text size;
  run      a single-thread loop (bench/lowering_loop.wc) compiled -O2 by each
           wucc: instructions per loop iteration under callgrind (the
           difference of two run lengths, so start-up cancels out), for an
           all-or send + receive pair and for a mixed pair.

Usage: python3 bench/lowering_cost.py --old OLD_WUCC [--new NEW_WUCC]
           [--cc gcc] [--statements 100] [--runs 5] [--no-run]
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import compile_time  # noqa: E402  (the generated source)


def cpu_seconds(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def text_size(obj):
    out = subprocess.run(["size", str(obj)], check=True, capture_output=True, text=True).stdout
    return int(out.splitlines()[1].split()[0])


def instructions(binary, n, mode):
    env = dict(os.environ, WUC_PROCESSORS="1")
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                        str(binary), str(n), str(mode)], env=env, capture_output=True, text=True,
                       check=True)
    return int(re.search(r"Collected : (\d+)", r.stderr).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="the wucc to compare against")
    ap.add_argument("--new", default=str(ROOT / "build" / "bin" / "wucc"))
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--statements", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-run", action="store_true", help="skip the callgrind part")
    args = ap.parse_args()
    sides = {"old": args.old, "new": args.new}
    with tempfile.TemporaryDirectory(prefix="wuc-lowering-cost-") as d:
        d = Path(d)
        src = d / "big.wc"
        src.write_text(compile_time.generate(args.statements))
        times = {k: [] for k in sides}
        for k, wucc in sides.items():
            subprocess.run([wucc, "--emit-c", str(src), "-o", str(d / f"{k}.c")], check=True)
        cc = [args.cc, "-std=gnu11", "-O2", f"-I{ROOT / 'stdlib'}", "-c"]
        for _ in range(args.runs):
            for k in sides:
                times[k].append(cpu_seconds(cc + [str(d / f"{k}.c"), "-o", str(d / f"{k}.o")]))
        print(f"compile: {args.statements} statements, {args.cc} -O2 -c on the lowered C, "
              f"{args.runs} alternating runs")
        for k in sides:
            lines = (d / f"{k}.c").read_text().splitlines()
            directives = sum(1 for l in lines if l.startswith("#line"))
            print(f"  {k}: {len(lines)} lines ({directives} #line), "
                  f"CPU median {statistics.median(times[k]) * 1000:.0f} ms "
                  f"(runs {', '.join(f'{t * 1000:.0f}' for t in times[k])}), "
                  f"text {text_size(d / f'{k}.o')} bytes")
        if args.no_run:
            return 0
        print("run: instructions per iteration (callgrind, WUC_PROCESSORS=1, "
              "(I(2n) - I(n)) / n, n = 50000)")
        for k, wucc in sides.items():
            exe = d / f"loop-{k}"
            subprocess.run([wucc, "-O2", str(ROOT / "bench" / "lowering_loop.wc"), "-o", str(exe)],
                           check=True)
            per = []
            for mode, what in ((1, "all-or pair"), (2, "mixed pair")):
                n = 50000
                per.append(f"{what} {(instructions(exe, 2 * n, mode) - instructions(exe, n, mode)) / n:.0f}")
            print(f"  {k}: " + ", ".join(per))
    return 0


if __name__ == "__main__":
    sys.exit(main())
