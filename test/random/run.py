#!/usr/bin/env python3
"""Randomized semantic stress: generate, compile and run self-checking programs.

    test/random/run.py --wucc build/bin/wucc --seeds 1-12          # what CTest runs
    test/random/run.py --wucc build/bin/wucc --hours 4 --scale 10  # long mode, fresh seeds, 10x longer runs
    test/random/run.py --wucc build/bin/wucc --count 500 --first 1000
    test/random/run.py --wucc build/bin/wucc --seed 4711 --repeat 200   # hammer one program

Each seed's program (gen.py) is compiled with wucc and run at WUC_PROCESSORS
1, 2 and 4 (--procs), each under a timeout: it must exit 0 and print its "OK"
line.  A failure prints the seed, the kept program and the commands that
reproduce it; the exit status is 1 if any run failed.
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))


def parse_seeds(text):
    seeds = []
    for part in text.split(','):
        if '-' in part:
            a, b = part.split('-')
            seeds.extend(range(int(a), int(b) + 1))
        elif part:
            seeds.append(int(part))
    return seeds


def opt_level(seed):
    """Half the programs are compiled with -O2 (a different lowering of the same checks)."""
    return '-O2' if seed % 2 else '-O0'


class Runner:
    def __init__(self, a):
        self.a = a
        self.failures = []
        self.runs = 0
        os.makedirs(a.workdir, exist_ok=True)

    def repro(self, seed, prog, procs):
        wucc = os.path.relpath(self.a.wucc)
        flags = ' '.join([opt_level(seed)] + self.a.cflags.split())
        return ('python3 %s --seed %d --scale %d -o %s && %s %s %s -o %s.bin && WUC_ABORT=1 WUC_RANDOM_SEED=%d WUC_PROCESSORS=%d %s.bin' %
                (os.path.relpath(os.path.join(HERE, 'gen.py')), seed, self.a.scale, prog, wucc, flags, prog, prog, seed, procs, prog))

    def fail(self, seed, prog, procs, what, out):
        self.failures.append(seed)
        tail = out.strip().splitlines()[-12:]
        print('FAIL seed %d (WUC_PROCESSORS=%s): %s' % (seed, procs, what), flush=True)
        for line in tail: print('    ' + line[:300])
        print('  program: %s' % prog)
        print('  reproduce: %s' % self.repro(seed, prog, procs if isinstance(procs, int) else 2), flush=True)

    def one(self, seed):
        a = self.a
        prog = os.path.join(a.workdir, 'seed-%d.wc' % seed)
        binary = prog + '.bin'
        gen = [sys.executable, os.path.join(HERE, 'gen.py'), '--seed', str(seed), '--scale', str(a.scale), '-o', prog]
        subprocess.run(gen + (['--sabotage', a.sabotage] if a.sabotage else []), check=True)
        c = subprocess.run([a.wucc, opt_level(seed)] + a.cflags.split() + [prog, '-o', binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=600)
        if c.returncode != 0:
            self.fail(seed, prog, '-', 'wucc failed (exit %d)' % c.returncode, c.stdout)
            return
        ok = True
        for procs in a.procs:
            for _ in range(a.repeat):
                self.runs += 1
                # A fixed WUC_RANDOM_SEED (the program's seed): [[wuc::fair]] draws repeat at one
                # worker, so the fairness check (gen.py, rs_fairness) is reproducible there.
                env = dict(os.environ, WUC_PROCESSORS=str(procs), WUC_ABORT='1', WUC_RANDOM_SEED=str(seed))
                try:
                    p = subprocess.run([binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                                       env=env, timeout=a.timeout, errors='replace')
                except subprocess.TimeoutExpired as e:
                    out = e.stdout.decode(errors='replace') if isinstance(e.stdout, bytes) else (e.stdout or '')
                    self.fail(seed, prog, procs, 'hung: no exit within %g s' % a.timeout, out)
                    ok = False
                    break
                if a.sabotage:  # the checks must catch the sabotage
                    if p.returncode != 3 or 'VIOLATION: ' not in p.stdout:
                        self.fail(seed, prog, procs, 'sabotage %s not caught (exit status %d)' % (a.sabotage, p.returncode), p.stdout)
                        ok = False
                        break
                elif p.returncode != 0 or ('OK seed %d:' % seed) not in p.stdout:
                    self.fail(seed, prog, procs, 'exit status %d' % p.returncode, p.stdout)
                    ok = False
                    break
            if not ok: break
        if ok and not a.keep:
            for f in (prog, binary):
                if os.path.exists(f): os.remove(f)
        elif os.path.exists(binary) and not a.keep:
            os.remove(binary)
        if a.verbose: print('seed %d: %s' % (seed, 'ok' if ok else 'FAILED'), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--wucc', required=True)
    ap.add_argument('--cflags', default='', help='more flags for wucc (e.g. a sanitized libwuc\'s -fsanitize=...)')
    ap.add_argument('--seeds', help='seeds to run: 1-12,40,41')
    ap.add_argument('--seed', type=int, help='one seed')
    ap.add_argument('--first', type=int, help='first seed of --count/--hours (default: from the clock, printed)')
    ap.add_argument('--count', type=int, help='run this many consecutive seeds')
    ap.add_argument('--hours', type=float, help='run consecutive seeds for this long')
    ap.add_argument('--procs', default='1,2,4', help='WUC_PROCESSORS values (default 1,2,4)')
    ap.add_argument('--scale', type=int, default=1, help='multiply every thread\'s loop count (longer runs of the same programs)')
    ap.add_argument('--sabotage', choices=['tree', 'lose'], help='generate sabotaged programs (gen.py): each run must report a VIOLATION')
    ap.add_argument('--repeat', type=int, default=1, help='runs of each program at each WUC_PROCESSORS')
    ap.add_argument('--timeout', type=float, default=60, help='seconds before a run counts as hung')
    ap.add_argument('--workdir', default='/tmp/wuc-random', help='where programs are written (failing ones are kept)')
    ap.add_argument('--keep', action='store_true', help='keep every program, not just failing ones')
    ap.add_argument('-v', '--verbose', action='store_true')
    a = ap.parse_args()
    a.procs = [int(p) for p in a.procs.split(',')]
    a.wucc = os.path.abspath(a.wucc)
    a.workdir = os.path.abspath(a.workdir)
    r = Runner(a)
    start = time.time()
    if a.seeds or a.seed is not None:
        seeds = parse_seeds(a.seeds) if a.seeds else [a.seed]
        for s in seeds: r.one(s)
        n = len(seeds)
    else:
        first = a.first if a.first is not None else int(start) % 1000000 * 1000
        print('first seed %d' % first, flush=True)
        n = 0
        while (a.count is None or n < a.count) and (a.hours is None or time.time() - start < a.hours * 3600):
            r.one(first + n)
            n += 1
            if n % 50 == 0:
                print('%d seeds (%d..%d), %d runs, %d failed, %.0f s' % (n, first, first + n - 1, r.runs, len(r.failures), time.time() - start),
                      flush=True)
    print('%d seeds, %d runs, %d failed%s, %.0f s' % (n, r.runs, len(r.failures),
                                                    (' (seeds %s)' % ','.join(map(str, r.failures))) if r.failures else '',
                                                    time.time() - start), flush=True)
    return 1 if r.failures else 0


if __name__ == '__main__':
    sys.exit(main())
