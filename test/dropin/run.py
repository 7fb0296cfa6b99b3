#!/usr/bin/env python3
"""run.py -- the drop-in test: does the compiler under test behave exactly as gcc on plain C?

Usage: run.py --wucc PATH [--backend gcc] [--only REGEX] [--keep] [--verbose] [--list] [-j N]

Every case copies a directory of corpus/ (plain C written for this test) into a fresh
temporary directory and runs its shell commands twice: once with the reference back end
(`--backend`, gcc) in place of %cc, once with the compiler under test (`--wucc`).  Both
runs happen at the same absolute path, one after the other (the first one's directory is
renamed away before the second copy is made), so that absolute paths written into outputs
(DW_AT_comp_dir, depfiles, line markers) are the same on both sides and every file can be
compared byte for byte.

Compared, for every command: the exit status, stdout and stderr (normalised only for the
compiler's own name and the temporary paths); after the last command: every file of the
directory (objects, archives, shared objects, executables, depfiles, preprocessed output,
assembly: all byte for byte) and whether anything was left in TMPDIR.  Programs built by a
case are run by its commands, so their output and exit status are compared the same way.

Both sides run with CC set to the back end in the environment (wucc's back end; gcc
ignores it), LC_ALL=C.UTF-8, TZ=UTC and TMPDIR pointing to an empty directory next to the
case.  Cases marked "wucc-only" only mean something for wucc (CC recursion, a CC with
arguments); they run on both sides all the same.

Prints one line per case (a failing case's first difference; --verbose adds all of them with
diffs) and `N passed, N failed`; exits 1 if any case failed.
"""
import argparse
import concurrent.futures
import difflib
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"

COMMAND_TIMEOUT = 60  # seconds per command; the hang guard, not a timing check


class Case:
    def __init__(self, name, src, cmds, gen=None, note=""):
        self.name = name
        self.src = src  # corpus directory copied as the case's working directory
        self.cmds = cmds  # shell commands; %cc is the compiler of the side
        self.gen = gen or {}  # extra files written into the copy: name -> text
        self.note = note


def deep_nesting(n):
    return ("int f(int x) { return " + "(" * n + "x" + ")" * n + "; }\n"
            "int g(int x) {" + "{" * n + " x++; " + "}" * n + " return x; }\n")


STD_MACROS = "__STDC_VERSION__|__STRICT_ANSI__|__GNUC_GNU_INLINE__|__GNUC_STDC_INLINE__"


def std_cases():
    """Each program in every standard mode it is valid for (-pedantic-errors where it holds)."""
    out = []
    modes = {
        "knr": ("stack.c getop.c ops.c main.c", "-lm", "./prog < input.txt",
                ["-ansi", "-std=c89 -pedantic-errors", "-std=c90 -pedantic-errors",
                 "-std=iso9899:199409 -pedantic-errors", "-std=gnu89", "-std=gnu90",
                 "-std=c99 -pedantic-errors", "-std=c11", "-std=c17 -pedantic-errors"]),
        "names": ("sim.c simmain.c", "", "./prog",
                  ["-std=gnu89", "-std=c99 -pedantic-errors", "-std=gnu99", "-std=c11",
                   "-std=gnu11 -pedantic-errors", "-std=c17 -pedantic-errors", "-std=c18",
                   "-std=gnu17", "-std=c2x", "-std=gnu2x"]),
        "jsonread": ("json.c jsoncheck.c", "-lm", "./prog docs.jsonl",
                     ["-std=c99 -pedantic-errors", "-std=gnu99", "-std=c11 -pedantic-errors",
                      "-std=gnu11", "-std=c17", "-std=c2x"]),
        "linetool": ("lt_io.c lt_main.c", "", "./prog -s -t 86399 e < input.txt",
                     ["-std=c99 -pedantic-errors", "-std=gnu99", "-std=c11 -pedantic-errors",
                      "-std=gnu17", "-std=c2x", "-std=gnu2x"]),
        "strutil": ("strbuf.c base64.c utf8.c strtest.c", "", "./prog",
                    ["-std=c11", "-std=gnu11 -pedantic-errors", "-std=c17", "-std=gnu2x"]),
        "hashtab": ("ht.c ht_stats.c httest.c", "", "./prog < words.txt",
                    ["-std=c11 -pedantic-errors", "-std=gnu11", "-std=c2x"]),
        "confparse": ("conf.c confdump.c", "", "./prog sample.conf",
                      ["-std=c99", "-std=gnu99", "-std=c11", "-std=c17", "-std=gnu17", "-std=c2x"]),
        "chan": ("chan.c pool.c", "-pthread", "./prog 2",
                 ["-std=c11 -pedantic-errors -pthread", "-std=gnu17 -pthread"]),
    }
    for src, (files, libs, run, stds) in modes.items():
        cmds = []
        for i, std in enumerate(stds):
            tag = re.sub(r"[^a-z0-9]+", "_", std.split()[0].lstrip("-").replace("std=", ""))
            for f in files.split():
                cmds.append(f"%cc {std} -Wall -Wextra -c {f} -o {Path(f).stem}.{tag}.o")
            if i in (0, len(stds) - 1):  # link and run the first and the last mode
                objs = " ".join(f"{Path(f).stem}.{tag}.o" for f in files.split())
                cmds.append(f"%cc {objs} {libs} -o prog && {run}; echo status $?")
        out.append(Case(f"std.{src}", src, cmds))
    out.append(Case("std.invalid", "jsonread", [
        "%cc -std=c89 -pedantic-errors -c json.c",
        "%cc -ansi -c jsoncheck.c -o jc.o",
    ], note="C99 code in C89 modes: the back end's errors"))
    out.append(Case("std.macros", "misc", [
        f"for s in c89 c90 iso9899:199409 c99 c11 c17 c18 c2x gnu89 gnu99 gnu11 gnu17 gnu2x; do "
        f"echo \"-std=$s\"; %cc -std=$s -E -dM -x c /dev/null | grep -E '{STD_MACROS}' | sort; done",
        f"%cc -ansi -E -dM -x c /dev/null | grep -E '{STD_MACROS}'",
        "echo __STDC_VERSION__ | %cc -E -P -x c -",
    ], note="__STDC_VERSION__ of every mode and of the default"))
    return out


CASES = [
    # --- compile steps ---------------------------------------------------------------------
    Case("compile.c", "misc", ["%cc -c t.c", "%cc -O2 -Wall -c t.c -o t2.o"]),
    Case("compile.S", "misc", ["%cc -S t.c", "%cc -O2 -S -o - t.c"]),
    Case("compile.E", "misc", ["%cc -E t.c", "%cc -E t.c -o t.i", "%cc -E -P t.c -o tp.i"]),
    Case("compile.E_dM", "misc", ["%cc -E -dM t.c", "%cc -E -dM -x c /dev/null -o builtin.h"]),
    Case("compile.E_C_dD", "misc", ["%cc -E -C t.c -o tc.i", "%cc -E -dD t.c -o td.i"]),
    Case("compile.M", "misc", ["%cc -M t.c", "%cc -M -MG t.c"]),
    Case("compile.MM", "misc", ["%cc -MM t.c", "%cc -MM t.c rsp.c -o both.d"]),
    Case("compile.MD", "misc", ["%cc -MD -c t.c", "mkdir obj && %cc -MD -c t.c -o obj/t.o"]),
    Case("compile.MMD_MF_MT", "misc", ["%cc -MMD -MF x.d -MT t -c t.c",
                                       "%cc -MMD -MP -MQ '$(OBJ)/t.o' -c t.c -o q.o"]),
    Case("compile.MM_c", "misc", ["%cc -MM -c t.c", "%cc -MM -c t.c -o rule.o"]),
    Case("compile.multi_c", "misc", ["%cc -c t.c usetable.c rsp.c -DRSP_MODE=1"]),
    Case("compile.save_temps", "misc", ["%cc -save-temps -c t.c", "%cc -pipe -c rsp.c -DRSP_MODE=2"]),
    Case("compile.syntax_only", "misc", ["%cc -fsyntax-only t.c", "%cc -fsyntax-only error.c"]),
    Case("compile.g", "misc", [
        "%cc -g -c t.c",
        "readelf --debug-dump=info t.o | grep -m2 -E 'DW_AT_(name|comp_dir)'",
        "mkdir sub && cp t.c t.h sub/ && %cc -g -O2 -c sub/t.c -o sub.o",
        "readelf --debug-dump=info sub.o | grep -m2 -E 'DW_AT_(name|comp_dir)'",
        "%cc -g3 t.c -o tg && readelf --debug-dump=info tg | grep -m2 -E 'DW_AT_(name|comp_dir)'",
    ], note="the CU is named after the user's file, in the user's directory"),
    Case("compile.error", "misc", ["%cc -c error.c", "%cc -Wall -c error.c -o e.o; echo $?"]),
    Case("compile.prose", "misc", ["%cc -c prose.c", "%cc -Wall -Wextra -pedantic -c prose.c -o p2.o",
                                   "%cc -E prose.c -o prose.i"],
         note="#if 0 prose with apostrophes: gcc warns and goes on"),
    Case("compile.empty", "misc", ["%cc -c empty.c", "%cc -pedantic-errors -c empty.c -o e2.o",
                                   "%cc -std=c99 -pedantic -c empty.c -o e3.o"]),
    Case("compile.deep_nesting", "misc", ["%cc -c deep.c"], gen={"deep.c": deep_nesting(5000)},
         note="5,000 nested parentheses and braces"),
    Case("compile.wpadded", "misc", ["%cc -Wpadded -Werror -c t.c",
                                     "%cc -std=c99 -pedantic-errors -Wpadded -Werror -c rsp.c -DRSP_MODE=0"]),
    Case("compile.errors_flags", "misc", ["%cc -fno-such-flag -c t.c", "%cc", "%cc -c nothere.c",
                                          "%cc -c t.c -o", "%cc -c t.c rsp.c -o x.o"]),
    Case("compile.assembler", "misc", [
        "%cc -S t.c -o t.s && %cc -c t.s -o t_s.o",
        "%cc -c add3.S && %cc -E add3.S -o add3.i",
        "%cc add3.o useadd3.c -o useadd3 && ./useadd3",
        "%cc -x assembler-with-cpp -c add3.S -o add3b.o && cmp add3.o add3b.o",
    ], note=".s and .S inputs (assembled, preprocessed), -x assembler-with-cpp"),
    Case("compile.lto", "misc", [
        "%cc -O2 -flto t.c -o tlto && ./tlto",
        "%cc -O2 -flto -c t.c -o tl.o && %cc -O2 -flto tl.o -o tl2 && ./tl2 && rm tl.o",
    ], note="LTO objects are not reproducible with gcc itself: only the programs are kept"),
    Case("link.asan", "misc", ["%cc -fsanitize=address,undefined -g t.c -o tasan && ./tasan"]),
    # --- names and features of ordinary programs ---------------------------------------------
    Case("names.sim", "names", ["%cc -Wall -Wextra -Werror sim.c simmain.c -o sim && ./sim"],
         note="semaphore, latch, seconds, chan_send, channel(), future, uthread_spawn, bool"),
    Case("names.when", "misc", ["%cc -Wall when.c -o when && ./when; echo status $?"],
         note="`when`, `or`, `and`, `timeout`, `closed` as ordinary names"),
    Case("features.linetool", "linetool", [
        "%cc -std=c99 -pedantic-errors -Wall -Wextra -Werror -c lt_io.c lt_main.c",
        "%cc lt_io.o lt_main.o -o lt",
        "./lt -i -s -t 1700000000 apple < input.txt",
        "./lt < input.txt",
        "./lt -x",
    ], note="_XOPEN_SOURCE, _FILE_OFFSET_BITS, _GNU_SOURCE before includes: popen, fseeko, "
            "mkstemp, localtime_r, strcasestr, asprintf, getline"),
    Case("features.confparse", "confparse", [
        "%cc -O2 -Wall -Wextra -Werror conf.c confdump.c -o confdump",
        "./confdump sample.conf", "./confdump bad.conf", "./confdump sample.conf paths log",
    ], note="_POSIX_C_SOURCE: strdup, getline"),
    Case("features.knr", "knr", [
        "%cc -ansi -pedantic-errors -Wall -c stack.c getop.c ops.c main.c",
        "%cc stack.o getop.o ops.o main.o -lm -o calc && ./calc < input.txt",
    ], note="K&R definitions"),
    # --- links -------------------------------------------------------------------------------
    Case("link.objects", "strutil", [
        "%cc -Wall -Wextra -c strbuf.c base64.c utf8.c",
        "%cc -c strtest.c -o strtest.o",
        "%cc strbuf.o base64.o utf8.o strtest.o -o strtest && ./strtest",
    ]),
    Case("link.one_step", "jsonread", [
        "%cc -O2 -std=c99 json.c jsoncheck.c -lm -o jsoncheck",
        "./jsoncheck docs.jsonl", "./jsoncheck < docs.jsonl | tail -1",
    ]),
    Case("link.mixed", "knr", ["%cc -c stack.c getop.c",
                               "%cc stack.o getop.o ops.c main.c -lm -o calc && ./calc < input.txt"]),
    Case("link.pthread", "chan", ["%cc -pthread -O2 chan.c pool.c -o pool && ./pool 3"]),
    Case("link.undefined", "misc", ["%cc usetable.c -o x"]),
    Case("link.static", "misc", ["%cc -static -O2 t.c -o ts && ./ts"]),
    Case("link.archive", "hashtab", [
        "%cc -std=c11 -Wall -Wextra -c ht.c ht_stats.c",
        "ar rcs libht.a ht.o ht_stats.o",
        "%cc httest.c -L. -lht -o httest && ./httest < words.txt",
        "%cc -DWITH_STATS httest.c -L . -l ht -o httest2 && ./httest2 < words.txt",
        "%cc httest.c -u ht_stats_enabled -L. -lht -o httest3 && nm httest3 | grep -c ht_get_stats",
        "%cc httest.c -L. -lht -o httest4 && nm httest4 | grep -c ht_get_stats",
        "%cc -shared -fPIC -Xlinker --no-undefined ht.c ht_stats.c -o libht.so",
    ], note="a static archive; -u pulls a member in"),
    Case("link.shared", "plugin", [
        "%cc -Wall -Wextra -shared -fPIC -o libplug_rot13.so plug_rot13.c",
        "%cc -Wall -Wextra -fPIC -c plug_squeeze.c && %cc -shared -o libplug_squeeze.so plug_squeeze.o",
        "%cc -Wall -Wextra -rdynamic filt.c -ldl -o filt",
        "./filt ./libplug_rot13.so=3 ./libplug_squeeze.so --fault < text.txt",
        "./filt --crash < /dev/null",
        "./filt ./libnothere.so",
        "nm -D --defined-only libplug_rot13.so | awk '{print $3}'",
        "readelf -d libplug_rot13.so | grep -E 'NEEDED|SONAME'",
    ], note="plugins loaded with dlopen; the host's SIGSEGV handler stays its own"),
    Case("link.shared_gcc_host", "plugin", [
        "gcc -rdynamic filt.c -ldl -o filt_gcc",
        "%cc -shared -fPIC plug_rot13.c -o librot.so",
        "./filt_gcc ./librot.so --fault < text.txt",
        "./filt_gcc ./librot.so --crash < text.txt",
    ], note="a library linked by %cc, loaded by a program gcc built"),
    Case("link.soname", "plugin", [
        "%cc -shared -fPIC -Wl,-soname,libsq.so.1 -o libsq.so.1.0 plug_squeeze.c",
        "readelf -d libsq.so.1.0 | grep SONAME",
        "%cc -shared -fPIC -Xlinker --no-undefined plug_rot13.c -o x.so",
    ]),
    # --- response files ----------------------------------------------------------------------
    Case("rsp.files", "misc", ["%cc @c.rsp", "%cc @link.rsp", "./rspprog"]),
    Case("rsp.nested", "misc", ["%cc @nested.rsp", "%cc @nothere.rsp"]),
    # --- flags with separate values, -x ------------------------------------------------------
    Case("flags.z_now", "misc", ["%cc t.c -z now -o tz && readelf -d tz | grep -E 'FLAGS'",
                                 "%cc t.c -Xlinker -z -Xlinker now -o tx && cmp tz tx && ./tx"]),
    Case("flags.imacros_include", "misc", ["%cc -imacros f.h t.c -o ti && ./ti",
                                           "%cc -include f.h t.c -o tinc && ./tinc",
                                           "%cc -include f.h -E t.c -o tinc.i"]),
    Case("flags.isysroot_iprefix", "misc", [
        "%cc -isysroot / -c t.c -o ts.o",
        "mkdir -p d/sub && cp f.h d/sub/ && %cc -iprefix d/ -iwithprefix sub -include f.h -c t.c -o tp.o",
        "%cc -iprefix d/ -iwithprefixbefore sub -M t.c",
    ]),
    Case("flags.param", "misc", ["%cc -O2 --param max-inline-insns-single=10 -c t.c -o tp.o",
                                 "%cc -O2 --param=max-inline-insns-single=10 -S t.c -o tp.s",
                                 "%cc --param no-such-param=1 -c t.c -o tq.o"]),
    Case("flags.separate_values", "misc", [
        "mkdir inc && cp t.h inc/ && %cc -I inc -D GREETING='\"separate\"' -U NOTHING -c t.c -o sep.o",
        "%cc sep.o -L . -l m -o sep && ./sep",
        "%cc -isystem inc -idirafter /usr/include -iquote inc -MMD -MF sep.d -c t.c -o sep2.o",
        "%cc -o named -O1 t.c && ./named",
    ]),
    Case("flags.x", "misc", [
        "%cc -x c -c prog.txt -o prog.o && %cc prog.o -o prog && ./prog; echo status $?",
        "%cc -x c prog.txt -o prog2 && ./prog2; echo status $?",
        "%cc -x c table.inc -x none usetable.c -o ut && ./ut",
        "%cc -c t.c && %cc -x c table.inc -x none t.o -o tt && ./tt",
        "%cc -c table.inc; echo status $?",
    ]),
    Case("flags.stdin", "misc", [
        "%cc -x c -c - -o stdin.o < t.c",
        "%cc -x c - -o fromstdin < prog.txt; ./fromstdin; echo status $?",
        "%cc -E -x c - < t.c",
        "%cc -c - < t.c",
    ]),
    Case("flags.Wp_Wa", "misc", ["%cc -Wp,-DGREETING=\\\"wp\\\" -Wa,--noexecstack t.c -o twp && ./twp"]),
    # --- information queries -----------------------------------------------------------------
    # Never `-o /dev/null`: a compiler that removes its output after an error would remove
    # /dev/null itself (we run as root in CI); dev_null_intact() watches for it anyway.
    Case("info.v", "misc", ["%cc -v", "%cc -v -E -x c /dev/null -o null.i", "%cc -v -c t.c",
                            "%cc -v t.o -o tv"]),
    Case("info.versions", "misc", ["%cc -dumpversion", "%cc -dumpfullversion", "%cc -dumpmachine"]),
    Case("info.print_file_name", "misc", ["%cc -print-file-name=libc.so",
                                          "%cc -print-file-name=crtbegin.o",
                                          "%cc -print-file-name=include",
                                          "%cc -print-file-name=libnothere.a"]),
    Case("info.print_search_dirs", "misc", ["%cc -print-search-dirs"]),
    Case("info.print_prog_name", "misc", ["%cc -print-prog-name=ld", "%cc -print-prog-name=cc1",
                                          "%cc -print-prog-name=as"]),
    Case("info.print_libgcc", "misc", ["%cc -print-libgcc-file-name"]),
    Case("info.multiarch", "misc", ["%cc -print-multiarch", "%cc -print-multi-directory",
                                    "%cc -print-multi-os-directory", "%cc -print-multi-lib",
                                    "%cc -print-sysroot"]),
    # --- preprocessed input ------------------------------------------------------------------
    Case("preproc.gcc_E_P", "jsonread", [
        "gcc -std=c99 -E -P json.c -o json_pp.c",
        "%cc -std=c99 -Wall -c json_pp.c -o json_pp.o",
        "gcc -std=c99 -E json.c -o json.i && %cc -c json.i -o json_i.o",
        "%cc -std=c99 -E -P jsoncheck.c -o jc_pp.c && %cc -std=c99 -c jc_pp.c -o jc_pp.o",
        "%cc json_pp.o jc_pp.o -lm -o jc && ./jc docs.jsonl | tail -2",
    ], note="gcc -E -P output compiled again (no system headers left to include)"),
    # --- warnings ----------------------------------------------------------------------------
    Case("warn.wall_wextra", "warn", ["%cc -Wall -Wextra -c warn.c",
                                      "%cc -Wall -Wextra -O2 -fno-diagnostics-show-caret -c warn.c -o w2.o"]),
    Case("warn.wpadded_werror", "warn", ["%cc -Wpadded -c warn.c -o w3.o",
                                         "%cc -Wall -Werror -c warn.c -o w4.o",
                                         "%cc -Wall -Werror=format -c warn.c -o w5.o"]),
    Case("warn.run", "warn", ["%cc -w warn.c -o warn && ./warn 3 17 -4 12 9"]),
    # --- CMake: compiler identification, implicit directories, try_compile checks -------------
    Case("cmake.project", "cmakeproj", [
        "cmake -S . -B b -DCMAKE_C_COMPILER=%cc -DCMAKE_BUILD_TYPE=Release > /dev/null",
        "grep -hE 'COMPILER_ID |VERSION|STANDARD_COMPUTED|IMPLICIT|COMPILER_ABI|SIZEOF' "
        "b/CMakeFiles/*/CMakeCCompiler.cmake",
        "cmake --build b > /dev/null && ./b/sizes",
        "cp b/sizes b/config.h . && rm -rf b",
    ], note="what CMake finds out about the compiler (the build tree names it: not compared)"),
    # --- make and the CC variable (wucc-only) ------------------------------------------------
    Case("make.cc", "confparse", ["timeout 20 make CC=%cc", "timeout 20 make CC=%cc check",
                                  "timeout 20 make CC=%cc clean"],
         note="wucc-only: make puts CC=wucc in the recipes' environment"),
    Case("cc_env.recursion", "misc", ["CC=%cc timeout 20 %cc -c t.c -o rec.o; echo status $?",
                                      "CC=%cc timeout 20 %cc t.c -o rec && ./rec"],
         note="wucc-only: CC names the compiler itself"),
    Case("cc_env.with_args", "misc", ["CC='gcc -m64' timeout 20 %cc -c t.c -o m64.o",
                                      "CC='gcc -m64' timeout 20 %cc t.c -o m64 && ./m64"],
         note="wucc-only: a CC with arguments"),
] + std_cases()


# The self-test: a compiler that is gcc with one deliberate difference must fail these cases.
SABOTAGE = {
    # kind: (what the wrapper does before exec'ing the back end, cases that must catch it)
    "object": ('set -- "$@" -fno-ident', r"^(compile\.c|link\.archive|link\.shared)$"),
    "define": ('set -- -DGREETING=\\\"sabotage\\\" "$@"', r"^(compile\.E|flags\.stdin|link\.static)$"),
    "stderr": ('trap \'echo "note: one more line" >&2\' EXIT; "$CC" "$@"; exit $?',
               r"^(warn\.wall_wextra|info\.versions)$"),
    "status": ('"$CC" "$@"; exit 0', r"^(compile\.error|link\.undefined)$"),
    "tmpdir": ('mktemp -d "${TMPDIR:-/tmp}/wucc-XXXXXX" >/dev/null', r"^(compile\.c|info\.v)$"),
}


def write_sabotaged(kind, backend, where):
    """A wrapper named wucc: the back end with one difference (SABOTAGE[kind])."""
    path = Path(where) / "wucc"
    path.write_text(f"#!/bin/bash\nCC={shlex.quote(backend)}\n{SABOTAGE[kind][0]}\n"
                    'exec $CC "$@"\n')
    path.chmod(0o755)
    return str(path)


# ---------------------------------------------------------------------------------------------


class Side:
    """One run of a case: each command's (status, stdout, stderr), then the files."""

    def __init__(self):
        self.steps = []
        self.files = {}
        self.leftover_tmp = []


def dev_null_intact():
    try:
        return stat.S_ISCHR(os.stat("/dev/null").st_mode)
    except OSError:
        return False


class DevNullGone(Exception):
    pass


def run_command(cmd, cwd, env, timeout):
    p = subprocess.Popen(["bash", "-c", "ulimit -c 0; " + cmd], cwd=cwd, env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        return "timeout", out, err + f"\n[run.py: killed after {timeout} s]\n".encode()


def collect_files(root):
    files = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for f in sorted(filenames):
            p = Path(dirpath) / f
            rel = str(p.relative_to(root))
            files[rel] = os.readlink(p).encode() if p.is_symlink() else p.read_bytes()
    return files


class Normaliser:
    """The same for both sides: the names and paths of both compilers, the case's paths."""

    def __init__(self, base, compiler, backend):
        self.work = str(base / "w")
        self.tmp = str(base / "tmp")
        names, paths = set(), set()
        for prog in (compiler, backend.split()[0]):
            names.add(Path(prog).name)
            for p in (prog, shutil.which(prog)):
                if p and os.sep in p:
                    paths.add(p)
                    paths.add(os.path.realpath(p))
        self.paths = sorted(paths, key=len, reverse=True)
        alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        self.name_re = re.compile(rb"(^|[\s='\"(])(?:" + alt.encode() + rb")(?=[:\s'\"]|$)", re.M)

    def __call__(self, data):
        for p in self.paths:
            data = data.replace(p.encode(), b"CC")
        data = data.replace(self.tmp.encode(), b"<TMPDIR>").replace(self.work.encode(), b"<WORK>")
        data = re.sub(rb"<TMPDIR>/cc[A-Za-z0-9]{6}(\.[A-Za-z0-9]+)", rb"<TMPDIR>/ccXXXXXX\1", data)
        # bash pads a crashed program's pid to a width that depends on the pid
        data = re.sub(rb"(bash: line \d+:) +\d+ ", rb"\1 PID ", data)
        return self.name_re.sub(rb"\1CC", data)


def run_side(case, base, compiler, backend, norm, timeout):
    work, tmp = base / "w", base / "tmp"
    shutil.copytree(CORPUS / case.src, work, symlinks=True)
    for name, text in case.gen.items():
        (work / name).write_text(text)
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "MFLAGS", "MAKELEVEL",
                        "GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH", "CPATH",
                        "C_INCLUDE_PATH", "DEPENDENCIES_OUTPUT", "SUNPRO_DEPENDENCIES")
           and not k.startswith("WUC")}
    env.update(CC=backend, LC_ALL="C.UTF-8", TZ="UTC", TMPDIR=str(tmp))
    # A path is one word; a back end given with arguments ("gcc -m64") is several.
    words = [compiler] if os.path.exists(compiler) else shlex.split(compiler)
    subst = " ".join(shlex.quote(w) for w in words)
    side = Side()
    for cmd in case.cmds:
        rc, out, err = run_command(cmd.replace("%cc", subst), work, env, timeout)
        side.steps.append((rc, norm(out), norm(err)))
        if not dev_null_intact():
            raise DevNullGone(f"/dev/null is no longer a character device after `{cmd}` "
                              f"run with {compiler}")
    side.files = collect_files(work)
    side.leftover_tmp = sorted(os.listdir(tmp))
    return side


def describe_binary_difference(a, b, name, ref_dir, cand_dir):
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lines = [f"    sizes {len(a)} (gcc) vs {len(b)} (wucc), first difference at byte {first}"]
    if a[:4] == b[:4] == b"\x7fELF":
        for tool in (["nm", "-a"], ["nm", "-D"]):
            ra = subprocess.run(tool + [str(ref_dir / name)], capture_output=True, text=True)
            rb = subprocess.run(tool + [str(cand_dir / name)], capture_output=True, text=True)
            if ra.stdout != rb.stdout:
                d = list(difflib.unified_diff(ra.stdout.splitlines(), rb.stdout.splitlines(),
                                              f"gcc/{name}", f"wucc/{name}", n=0, lineterm=""))
                lines.append(f"    {' '.join(tool)} differs ({len(d) - 2} lines):")
                lines += ["      " + line for line in d[2:14]]
                break
    return lines


def text_diff(a, b, label):
    d = list(difflib.unified_diff(a.decode(errors="replace").splitlines(),
                                  b.decode(errors="replace").splitlines(),
                                  f"gcc {label}", f"wucc {label}", n=1, lineterm=""))
    shown = ["      " + line for line in d[:24]]
    if len(d) > 24:
        shown.append(f"      ... ({len(d) - 24} more diff lines)")
    return shown


def is_text(data):
    return b"\0" not in data[:4096]


def compare(case, ref, cand, ref_dir, cand_dir):
    """Returns a list of (summary, detail lines) for each difference."""
    problems = []
    for i, (cmd, r, c) in enumerate(zip(case.cmds, ref.steps, cand.steps)):
        where = f"step {i + 1} `{cmd}`"
        if r[0] != c[0]:
            problems.append((f"{where}: exit status {r[0]} (gcc) vs {c[0]} (wucc)", []))
        for label, a, b in (("stdout", r[1], c[1]), ("stderr", r[2], c[2])):
            if a != b:
                problems.append((f"{where}: {label} differs", text_diff(a, b, label)))
    for name in sorted(set(ref.files) | set(cand.files)):
        if name not in cand.files:
            problems.append((f"file {name}: written by gcc only", []))
        elif name not in ref.files:
            problems.append((f"file {name}: written by wucc only", []))
        elif ref.files[name] != cand.files[name]:
            a, b = ref.files[name], cand.files[name]
            if is_text(a) and is_text(b):
                detail = text_diff(a, b, name)
            else:
                detail = describe_binary_difference(a, b, name, ref_dir, cand_dir)
            problems.append((f"file {name} differs", detail))
    if ref.leftover_tmp != cand.leftover_tmp:
        problems.append((f"TMPDIR left with {len(cand.leftover_tmp)} entries (gcc: "
                         f"{len(ref.leftover_tmp)}): {' '.join(cand.leftover_tmp[:5])}", []))
    return problems


def run_case(case, args):
    base = Path(tempfile.mkdtemp(prefix=f"dropin-{case.name}-", dir=args.workdir)).resolve()
    try:
        norm = Normaliser(base, args.wucc, args.backend)
        ref = run_side(case, base, args.backend, args.backend, norm, args.timeout)
        (base / "w").rename(base / "gcc")
        shutil.rmtree(base / "tmp")
        cand = run_side(case, base, args.wucc, args.backend, norm, args.timeout)
        (base / "w").rename(base / "wucc")
        shutil.rmtree(base / "tmp")
        problems = compare(case, ref, cand, base / "gcc", base / "wucc")
    except DevNullGone:
        raise
    except Exception as e:  # a broken case must show, not stop the others
        problems = [(f"harness error: {type(e).__name__}: {e}", [])]
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    return case, problems, base


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wucc", help="the compiler under test")
    ap.add_argument("--backend", default="gcc", help="the reference back end (default gcc)")
    ap.add_argument("--only", help="run the cases whose name matches this regular expression")
    ap.add_argument("--keep", action="store_true", help="keep every case's directories")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="print every difference of a failing case, with diffs")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--workdir", help="where the temporary directories go (default: $TMPDIR)")
    ap.add_argument("--timeout", type=int, default=COMMAND_TIMEOUT, help="seconds per command")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--sabotage", choices=sorted(SABOTAGE),
                    help="self-test: compile with gcc plus one deliberate difference; the cases "
                         "that must notice it must fail (exit 0 if all of them do)")
    args = ap.parse_args()

    only = args.only
    if args.sabotage:
        wrapper_dir = tempfile.mkdtemp(prefix="dropin-sabotage-")
        args.wucc = write_sabotaged(args.sabotage, args.backend, wrapper_dir)
        only = SABOTAGE[args.sabotage][1]
    cases = [c for c in CASES if not only or re.search(only, c.name)]
    if args.list:
        for c in cases:
            print(f"{c.name:28} {c.src:10} {c.note}")
        return 0
    if not args.wucc:
        ap.error("--wucc is required")
    args.wucc = str(Path(args.wucc).absolute()) if os.sep in args.wucc else args.wucc
    for tool in (args.backend.split()[0], "make", "readelf", "nm", "ar", "bash", "timeout"):
        if shutil.which(tool) is None:
            print(f"run.py: {tool} not found (scripts/setup.sh installs it)", file=sys.stderr)
            return 2
    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
    if not dev_null_intact():
        print("run.py: /dev/null is not a character device: restore it first "
              "(as root: rm -f /dev/null && mknod -m 666 /dev/null c 1 3)", file=sys.stderr)
        return 2

    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        try:
            for case, problems, base in pool.map(lambda c: run_case(c, args), cases):
                if not problems:
                    passed += 1
                    print(f"PASS {case.name}", flush=True)
                    continue
                failed += 1
                more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
                print(f"FAIL {case.name}: {problems[0][0]}{more}", flush=True)
                for summary, detail in (problems if args.verbose else []):
                    print(f"  - {summary}")
                    for line in detail:
                        print(line)
                if args.keep:
                    print(f"  kept: {base}")
        except DevNullGone as e:
            print(f"run.py: stopped: {e}; restore it (as root: rm -f /dev/null && "
                  "mknod -m 666 /dev/null c 1 3)", file=sys.stderr)
            pool.shutdown(cancel_futures=True)
            return 2
    print(f"{passed} passed, {failed} failed")
    if args.sabotage:
        shutil.rmtree(wrapper_dir, ignore_errors=True)
        ok = passed == 0 and failed == len(cases) > 0
        print(f"sabotage {args.sabotage}: " + ("every case caught it" if ok else
                                               f"{passed} case(s) missed it"))
        return 0 if ok else 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
