#!/usr/bin/env python3
"""Prints how the sampled stacks through a function end, for perf_*.wc.

  perf script -F ip,sym | perf_stack_tails.py FUNCTION SPAWN

perf script prints one sample per paragraph, innermost frame first.  For
each sample whose stack holds FUNCTION, the frames from SPAWN (the thread's
spawn function) down to the outermost one are printed as "SPAWN <- ... <-
outermost"; a sample without SPAWN below FUNCTION prints "no SPAWN: " and
its whole stack.  Each distinct line is printed once, sorted.  Frames perf
could not name print as [unknown].  With no sample through FUNCTION at all
it prints "no samples through FUNCTION".
"""
import sys


def main():
    function, spawn = sys.argv[1], sys.argv[2]
    tails = set()
    for paragraph in sys.stdin.read().split('\n\n'):
        frames = []
        for line in paragraph.splitlines():
            fields = line.split(None, 1)
            if len(fields) == 2:
                frames.append(fields[1].split('+')[0].strip())
            elif fields:
                frames.append('[unknown]')
        if function not in frames:
            continue
        below = frames[frames.index(function):]
        if spawn in below:
            tails.add(' <- '.join(below[below.index(spawn):]))
        else:
            tails.add('no ' + spawn + ': ' + ' <- '.join(below))
    if not tails:
        print('no samples through ' + function)
    for tail in sorted(tails):
        print(tail)


if __name__ == '__main__':
    main()
