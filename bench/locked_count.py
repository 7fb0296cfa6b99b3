#!/usr/bin/env python3
"""Locked instructions a program executed, from a callgrind profile.

    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=OUT PROGRAM ...
    python3 bench/locked_count.py PROGRAM OUT            # the total
    python3 bench/locked_count.py --by-site PROGRAM OUT  # and each site's count

A locked instruction (a `lock`-prefixed read-modify-write, or `xchg` with
memory, which locks implicitly) drains the store buffer and takes its cache
line exclusively: on the development machine one costs 5.5-7 ns back to
back, 20 or more ordinary instructions' worth.  Counting them per element,
like bench/instructions.sh counts instructions, tells what a change does to
the part of a path that the instruction count underweights, and no load on
the machine disturbs the count.

The sites come from `objdump -d PROGRAM`.  Callgrind names an address relative
to its object when it has the object's debug information and absolute
otherwise (libwuc's code lives in the section wuc_text, which valgrind's
reader does not take as code): the offset per object is found by matching
callgrind's function names against the program's symbols.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter, defaultdict

POSITION = re.compile(r"^(0x[0-9a-f]+|[+-]\d+|\*)\s+(?:0x[0-9a-f]+|[+-]?\d+|\*)\s+(\d+)")
NAMED = re.compile(r"^fn=\((\d+)\)(?: (.*))?$")


def locked_sites(program: str) -> dict[int, tuple[str, str]]:
    """Address -> (function, instruction) of every locked instruction."""
    sites: dict[int, tuple[str, str]] = {}
    function = "?"
    dump = subprocess.run(["objdump", "-d", "--no-show-raw-insn", program],
                          capture_output=True, text=True, check=True).stdout
    for line in dump.splitlines():
        if m := re.match(r"^[0-9a-f]+ <(.*)>:", line):
            function = m.group(1)
        elif m := re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line):
            insn = m.group(2)
            if insn.startswith("lock ") or (insn.startswith("xchg") and "(" in insn):
                sites[int(m.group(1), 16)] = (function, insn)
    return sites


def symbols(program: str) -> dict[str, int]:
    out = subprocess.run(["nm", program], capture_output=True, text=True, check=True).stdout
    return {f[2]: int(f[0], 16) for f in (l.split() for l in out.splitlines()) if len(f) == 3}


def executions(profile: str) -> tuple[dict[tuple[str, int], int], dict[str, dict[str, int]]]:
    """(object, address) -> executions, and per object each function's lowest
    executed address (its entry), from which main() finds the object's offset."""
    counts: dict[tuple[str, int], int] = defaultdict(int)
    entries: dict[str, dict[str, int]] = defaultdict(dict)
    names: dict[str, str] = {}
    obj, function, addr, skip_next = "", None, 0, False
    for line in open(profile):
        if line.startswith("ob="):
            obj = line[3:].split(")")[0]
        elif m := NAMED.match(line.rstrip("\n")):
            if m.group(2):
                names[m.group(1)] = m.group(2)
            function = names.get(m.group(1))
        elif line.startswith("calls="):
            skip_next = True  # the next position line is the call's inclusive cost
        elif m := POSITION.match(line):
            p = m.group(1)
            addr = int(p, 16) if p.startswith("0x") else addr + (int(p) if p != "*" else 0)
            if function is not None:
                entry = entries[obj].get(function)
                entries[obj][function] = addr if entry is None else min(entry, addr)
            if skip_next:
                skip_next = False
                continue
            counts[(obj, addr)] += int(m.group(2))
    return counts, entries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program")
    ap.add_argument("profile")
    ap.add_argument("--by-site", action="store_true", help="also each site's count")
    args = ap.parse_args()
    sites = locked_sites(args.program)
    syms = symbols(args.program)
    counts, firsts = executions(args.profile)
    # Per object, the offset that maps most of its function entries onto symbols.
    offset: dict[str, int] = {}
    for obj, entries in firsts.items():
        votes = Counter(addr - syms[name] for name, addr in entries.items() if name in syms)
        if votes:
            offset[obj] = votes.most_common(1)[0][0]
    per_site: dict[int, int] = defaultdict(int)
    for (obj, addr), n in counts.items():
        if obj in offset and addr - offset[obj] in sites:
            per_site[addr - offset[obj]] += n
    if args.by_site:
        for a, n in sorted(per_site.items(), key=lambda kv: -kv[1]):
            print(f"{n:>14,}  {sites[a][0]:<40} {sites[a][1]}")
    print(sum(per_site.values()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
