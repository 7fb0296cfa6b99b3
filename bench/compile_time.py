#!/usr/bin/env python3
"""compile_time.py — wucc -c against cc -c, on the dialect and on plain C.

Dialect row: generates a large extended-C file (default 200 waituntil
statements in about 2,000 lines: all-or, mixed and guarded statements over
channels, futures, locks and timeouts), then times, alternating, `wucc -c
file.wc` and `cc -c lowered.c` (the C that `wucc --emit-c` wrote for the same
file), both at -O2.  Prints the medians and the ratio (the goal is at most 2x).

Plain-C row: the CPU time (user + sys of the child processes, so the back end
and everything wucc starts count) to compile every file of the drop-in corpus
(test/dropin/corpus, plain C, about 3,000 lines) with `cc -O2 -c` and with
`wucc -O2 -c`, alternating, each run one pass over all files.  Prints the
medians and the ratio (the goal is at most 1.05: plain C costs what the back
end costs).

Usage: python3 bench/compile_time.py [--wucc PATH] [--statements N] [--runs N]
                                     [--only dialect|plain]
"""
import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "dropin" / "corpus"
PLAIN_FLAGS = ["-O2", "-w", "-DRSP_MODE=0"]  # misc/rsp.c takes RSP_MODE from its command line

SHAPES = [
    # all-or over two channels, one converted receive
    """    waituntil (x << a) {{ sum += x; }} or waituntil (y << b) {{ sum += (int)y; }}""",
    # guarded all-or with a timeout and an else
    """    when (i > {k}) waituntil (a << i) {{ sum++; }}
    or waituntil (timeout(10`us)) {{ sum--; }}
    or else {{ sum += 2; }}""",
    # mixed: (A or B) and C
    """    (waituntil (x << a) {{ sum += x; }} or waituntil (f) {{ sum += 3; }})
    and waituntil (l) {{ sum += 4; }}""",
    # a lock, a semaphore, a latch and closed()
    """    waituntil (l) {{ sum++; }} or waituntil (s) {{ sum++; }} or waituntil (e) {{ sum++; }}
    or waituntil (closed(a)) {{ sum = 0; }}""",
]


def generate(statements: int) -> str:
    out = ["#include <wuc.h>", "", "static channel(int) a;", "static channel(long) b;",
           "static future(int) f;", "static owner_lock l;", "static semaphore s;", "static latch e;",
           ""]
    per_fn = 10
    for fn in range(0, statements, per_fn):
        out.append(f"int step{fn}(int i) {{")
        out.append("  int x = 0, sum = 0;")
        out.append("  long y = 0;")
        for k in range(fn, min(fn + per_fn, statements)):
            out.append(f"  /* statement {k} */")
            out.append(f"  x = i + {k};")
            out.append("  y = (long)x * 2;")
            out.append("  sum ^= (int)(y >> 3);")
            out.append("  if (sum < 0) sum = -sum;")
            out.append(f"  if (i % 7 == {k % 7}) {{")
            out.append(SHAPES[k % len(SHAPES)].format(k=k))
            out.append("  }")
        out.append("  return sum;")
        out.append("}")
        out.append("")
    return "\n".join(out) + "\n"


def timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_of(cmds: list[list[str]], env: dict) -> float:
    """User + sys CPU seconds of running cmds one after the other (and their children)."""
    before = children_cpu()
    for cmd in cmds:
        subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return children_cpu() - before


def plain_c_row(args: argparse.Namespace, d: str) -> None:
    env = dict(os.environ, CC=args.cc)  # wucc's back end
    out = str(Path(d) / "plain.o")
    files, skipped = [], []
    for f in sorted(CORPUS.glob("*/*.c")):
        # Only what both compile: the corpus has a file with deliberate errors, and a file
        # wucc rejects is the drop-in test's business, not a time.
        ok = all(subprocess.run([*cc, *PLAIN_FLAGS, "-c", str(f), "-o", out], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
                 for cc in (shlex.split(args.cc), [args.wucc]))
        (files if ok else skipped).append(f)
    lines = sum(f.read_text().count("\n") for f in files)

    def cmds(cc: list[str]) -> list[list[str]]:
        return [[*cc, *PLAIN_FLAGS, "-c", str(f), "-o", out] for f in files]

    wucc_cmds, cc_cmds = cmds([args.wucc]), cmds(shlex.split(args.cc))
    wucc_t, cc_t = [], []
    for _ in range(args.runs):
        wucc_t.append(cpu_of(wucc_cmds, env))
        cc_t.append(cpu_of(cc_cmds, env))
    w, c = statistics.median(wucc_t), statistics.median(cc_t)
    print(f"plain C: {lines} lines in {len(files)} files of test/dropin/corpus, -O2 -c each")
    if skipped:
        print(f"  left out (cc or wucc fails on them): "
              f"{', '.join(str(f.relative_to(CORPUS)) for f in skipped)}")
    print(f"wucc: median {w * 1000:.0f} ms CPU  (runs: {', '.join(f'{t*1000:.0f}' for t in wucc_t)})")
    print(f"cc:   median {c * 1000:.0f} ms CPU  (runs: {', '.join(f'{t*1000:.0f}' for t in cc_t)})")
    print(f"ratio wucc/cc (plain C, CPU): {w / c:.3f} (goal <= 1.05)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wucc", default=str(ROOT / "build" / "bin" / "wucc"))
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--statements", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", choices=["dialect", "plain"], help="only this row")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="wuc-compile-") as d:
        if args.only != "dialect":
            plain_c_row(args, d)
        if args.only == "plain":
            return
        src = Path(d) / "big.wc"
        src.write_text(generate(args.statements))
        lowered = Path(d) / "big.c"
        subprocess.run([args.wucc, "--emit-c", str(src), "-o", str(lowered)], check=True)
        lines = src.read_text().count("\n")
        include = ROOT / "stdlib"
        wucc_cmd = [args.wucc, f"--cc={args.cc}", "-O2", "-c", str(src), "-o", str(Path(d) / "a.o")]
        cc_cmd = [args.cc, "-std=gnu11", "-O2", f"-I{include}", "-c", str(lowered), "-o",
                  str(Path(d) / "b.o")]
        wucc_t, cc_t = [], []
        for _ in range(args.runs):
            wucc_t.append(timed(wucc_cmd))
            cc_t.append(timed(cc_cmd))
        w, c = statistics.median(wucc_t), statistics.median(cc_t)
        print(f"source: {lines} lines, {args.statements} waituntil statements")
        print(f"wucc -c: median {w * 1000:.0f} ms  (runs: {', '.join(f'{t*1000:.0f}' for t in wucc_t)})")
        print(f"cc -c lowered: median {c * 1000:.0f} ms  (runs: {', '.join(f'{t*1000:.0f}' for t in cc_t)})")
        print(f"ratio wucc/cc: {w / c:.2f} (goal <= 2)")


if __name__ == "__main__":
    sys.exit(main())
