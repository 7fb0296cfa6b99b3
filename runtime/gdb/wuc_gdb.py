# wuc_gdb.py - gdb commands for the user threads of a program linked with libwuc.
#
#   info uthreads          one line per user thread: id, name, state, function,
#                          spawn site, and what it waits on
#   uthread N              select user thread N's innermost frame (then `frame`,
#                          `info locals`, `up`... work on its stack)
#   uthread N CMD...       run the gdb command CMD on user thread N (`uthread 3 bt`)
#   uthread none           back to the kernel thread's own frames
#
# Loaded by gdb from the .debug_gdb_scripts section of every program linked
# with libwuc (runtime/gdb_scripts.S), or with `source` from the installed
# share/wuc/gdb/wuc_gdb.py.  Works on a live process and on a core file: it
# only reads memory and never writes a register (docs/debugging.md, "Debugging
# with gdb").
#
# Where it reads (runtime/scheduler.h): every live thread is on the list
# wuc_sched.workers[i]->threads (i < wuc_sched.nworkers) of the worker that
# spawned it (newest first, linked by all_next; main is on worker 0's); a
# worker runs wuc_sched.workers[i]->current on the kernel thread whose id is ->tid; a
# thread that is not running has its callee-saved registers on its own stack at
# ctx.sp (runtime/context_x86_64.S):
#   +0 MXCSR/x87 cw  +8 r15  +16 r14  +24 r13  +32 r12  +40 rbx  +48 rbp
#   +56 return address, and the thread's stack pointer is ctx.sp + 64.
# A core file cannot have its registers set, so a parked thread's stack is
# shown through an unwinder instead: while a user thread is selected, frame 0
# of the current kernel thread unwinds to the user thread's saved registers,
# and a frame filter leaves that frame 0 out of backtraces.  So the user
# thread's frames start at #1.
import struct

import gdb
import gdb.unwinder

# park_state (runtime/scheduler.h): RUNNING and PERMIT, when not on a worker,
# mean queued to run; PUBLISHED (4) is a published park (a statement's wait, a
# blocking channel operation's thread waiter in its cell).
PARK_STATES = {0: "runnable", 1: "runnable", 2: "parked", 3: "done", 4: "parked"}


def _ulong():
    return gdb.lookup_type("unsigned long")


def _sched():
    try:
        return gdb.parse_and_eval("wuc_sched")
    except gdb.error:
        raise gdb.GdbError("no wuc runtime here (no symbol wuc_sched: is the program linked "
                           "with libwuc and built with debug information?)")


def _threads():
    """The live user threads, by id."""
    out = []
    seen = set()
    s = _sched()
    for i in range(int(s["nworkers"])):
        w = s["workers"][i]
        if int(w) == 0:
            continue
        t = w["threads"]
        while int(t) != 0 and int(t) not in seen:
            seen.add(int(t))
            out.append(t)
            t = t["all_next"]
    return sorted(out, key=lambda t: int(t["id"]))


def _running():
    """{uthread address: (worker id, kernel thread id)} for the threads on a worker."""
    s = _sched()
    out = {}
    for i in range(int(s["nworkers"])):
        w = s["workers"][i]
        if int(w) == 0:
            continue
        cur = int(w["current"])
        if cur:
            out[cur] = (int(w["id"]), int(w["tid"]))
    return out


def _find(n):
    for t in _threads():
        if int(t["id"]) == n:
            return t
    raise gdb.GdbError("no live user thread %d (see `info uthreads`)" % n)


def _cstr(v):
    if int(v) == 0:
        return None
    try:
        return v.string()
    except gdb.error:
        return None


def _symbol(addr):
    """The name of the function or object at addr, or None."""
    if addr == 0:
        return None
    try:
        block = gdb.block_for_pc(addr)
        if block is not None and block.function is not None and block.start == addr:
            return block.function.name
    except RuntimeError:
        pass
    try:
        text = gdb.execute("info symbol 0x%x" % addr, to_string=True)
    except gdb.error:
        return None
    if text.startswith("No symbol"):
        return None
    # "replies in section .bss" or "buf + 8 in section .bss of /lib/x.so"
    return text.split(" in section ")[0].strip()


def _object(addr):
    """How the user knows an object: its symbol, else its address."""
    return _symbol(addr) or "0x%x" % addr


def _line_of(return_address):
    sal = gdb.find_pc_line(return_address - 1)
    if sal.symtab is None:
        return None
    return "%s:%d" % (sal.symtab.filename, sal.line)


def _function(t):
    if int(t["id"]) == 1:
        return "main"
    fn = int(t["fn"])
    return _symbol(fn) or "0x%x" % fn


def _spawn_site(t):
    if int(t["id"]) == 1:
        return "-"
    f = _cstr(t["spawn_file"])
    if f:
        return "%s:%d" % (f, int(t["spawn_line"]))
    ra = int(t["spawn_return_address"])
    return _line_of(ra) or "0x%x" % ra


def _clause_kind(ops):
    """chan_recv, latch, timeout... from the ops table's name (WUC_SELECTABLE_OPS)."""
    name = _symbol(int(ops))
    if not name:
        try:
            name = _symbol(int(ops["register_select"]))
        except gdb.error:
            name = None
    if not name:
        return "resource"
    for prefix in ("wuc_selectable_ops_", "wuc_selectable_reg_", "wuc_"):
        if name.startswith(prefix):
            name = name[len(prefix):]
    if name.endswith("_register"):
        name = name[:-len("_register")]
    return name


def _waituntil_clauses(stmt_addr):
    """The enabled clauses of the waituntil statement whose wuc_select_stmt is at
    stmt_addr (the first member of the statement's wuc_wu, <wuc/waituntil.h>)."""
    try:
        w = gdb.Value(stmt_addr).cast(gdb.lookup_type("wuc_wu").pointer()).dereference()
    except gdb.error:
        return None
    n = int(w["n"])
    if n <= 0 or n > 1024 or int(w["cl"]) == 0:
        return None
    out = []
    site = None
    for i in range(n):
        c = w["cl"][i]
        if int(c["__wuc_node"]["stmt"]) != stmt_addr:
            return None  # not a lowered statement's clauses
        csite = _cstr(c["__wuc_node"]["site"])
        if site is None and csite:
            site = csite
        if not int(c["enabled"]):
            continue
        kind = _clause_kind(c["ops"])
        res = int(c["res"])
        if kind in ("chan_recv", "chan_send", "chan_closed") and res:
            res = int(gdb.Value(res).cast(gdb.lookup_type("wuc_chan").pointer().pointer())
                      .dereference())
        text = "%s %s" % (kind, _object(res))
        if csite:
            text += " (%s)" % csite
        out.append(text)
    return site, out


def _waits(t):
    what = _cstr(t["wait_what"])
    if not what:
        return ""
    obj = int(t["wait_object"])
    f = _cstr(t["wait_file"])
    line = int(t["wait_line"])
    # Line 0: wait_file is the whole site, "FILE:LINE" (chan_send/chan_recv, WUC_SITE_).
    at = (" at %s:%d" % (f, line) if line > 0 else " at " + f) if f else ""
    if what == "uthread_join" and obj:
        joined = gdb.Value(obj).cast(t.type)
        return "uthread_join for user thread %d%s" % (int(joined["id"]), at)
    if what == "waituntil" and obj:
        found = _waituntil_clauses(obj)
        if found is not None:
            site, clauses = found
            if not at and site:
                at = " at " + site.rsplit(":", 1)[0]
            return "waituntil%s: %s" % (at, ", ".join(clauses))
    if obj:
        return "%s on %s%s" % (what, _object(obj), at)
    return what + at


def _saved_return_address(t):
    sp = int(t["ctx"]["sp"])
    if sp == 0:
        return 0
    try:
        return struct.unpack("<Q", bytes(gdb.selected_inferior().read_memory(sp + 56, 8)))[0]
    except gdb.MemoryError:
        return 0


def _not_started(t):
    """A thread that has never run resumes at the first instruction of
    wuc_context_entry (context.c, wuc_context_init)."""
    ra = _saved_return_address(t)
    return ra != 0 and _symbol(ra) == "wuc_context_entry"


def _state(t, running):
    addr = int(t)
    if addr in running:
        return "running on worker %d" % running[addr][0]
    state = PARK_STATES.get(int(t["park_state"]), "?")
    if state == "runnable" and _not_started(t):
        return "runnable, not started"
    return state


def _name(t):
    return t["name"].string().split("\0")[0] or "-"


def _cell(fn, *args):
    """One column of a thread's line; `?` if the runtime's fields are not what
    this script expects (a libwuc of another version) or memory is unreadable."""
    try:
        return fn(*args)
    except (gdb.error, gdb.MemoryError):
        return "?"


class InfoUthreads(gdb.Command):
    """List the user threads of a wuc program: id, name, state, function, spawn site
and what the thread waits on (docs/debugging.md, "Debugging with gdb")."""

    def __init__(self):
        super().__init__("info uthreads", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        running = _running()
        rows = [("Id", "Name", "State", "Function", "Spawned at", "Waits")]
        for t in _threads():
            rows.append((str(int(t["id"])), _cell(_name, t), _cell(_state, t, running),
                         _cell(_function, t), _cell(_spawn_site, t), _cell(_waits, t)))
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        for r in rows:
            line = "  ".join(r[i].ljust(widths[i]) for i in range(5)) + "  " + r[5]
            gdb.write(line.rstrip() + "\n")


# ---- a user thread's stack ----------------------------------------------------


class _FrameId:
    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class _Selection:
    """The user thread whose saved registers frame 0 of kernel thread `ptid`
    unwinds to (None: nothing selected)."""
    current = None  # (ptid, registers)


class UthreadUnwinder(gdb.unwinder.Unwinder):
    def __init__(self):
        super().__init__("wuc-uthread")

    def __call__(self, pending_frame):
        sel = _Selection.current
        if sel is None or pending_frame.level() != 0:
            return None
        ptid, regs = sel
        if gdb.selected_thread() is None or gdb.selected_thread().ptid != ptid:
            return None
        ulong = _ulong()
        # Frame 0's id: the user thread's saved stack pointer, below its frames,
        # so that gdb's check that frames go outwards holds.
        info = pending_frame.create_unwind_info(
            _FrameId(gdb.Value(regs["ctx_sp"]).cast(ulong), pending_frame.read_register("rip")))
        for reg, value in regs.items():
            if reg != "ctx_sp":
                info.add_saved_register(reg, gdb.Value(value).cast(ulong))
        return info


class UthreadFrameFilter:
    """Leaves out frame 0 (the kernel thread's own) while a user thread is selected."""

    def __init__(self):
        self.name = "wuc-uthread"
        self.priority = 100
        self.enabled = True
        gdb.frame_filters[self.name] = self

    def filter(self, frames):
        sel = _Selection.current
        if sel is None or gdb.selected_thread() is None or gdb.selected_thread().ptid != sel[0]:
            return frames
        return (f for f in frames if f.inferior_frame().level() != 0)


def _saved_registers(t):
    sp = int(t["ctx"]["sp"])
    if sp == 0:
        raise gdb.GdbError("user thread %d has no saved context" % int(t["id"]))
    words = struct.unpack("<8Q", bytes(gdb.selected_inferior().read_memory(sp, 64)))
    if words[7] == 0:
        raise gdb.GdbError(
            "user thread %d: its stack is not in this core file (gdb's generate-core-file on "
            "Linux 6.13 or later skips stacks guarded by MADV_GUARD_INSTALL: run the program with "
            "WUC_STACK_GUARD=mprotect, or take the kernel's core dump)" % int(t["id"]))
    return {"ctx_sp": sp, "r15": words[1], "r14": words[2], "r13": words[3], "r12": words[4],
            "rbx": words[5], "rbp": words[6], "rip": words[7], "rsp": sp + 64}


def _kernel_thread(tid):
    for th in gdb.selected_inferior().threads():
        if th.ptid[1] == tid:
            return th
    raise gdb.GdbError("no kernel thread with LWP %d" % tid)


def _select(sel):
    _Selection.current = sel
    gdb.invalidate_cached_frames()


def _enter(t):
    """Makes t's stack the selected one; returns what _leave needs to undo it."""
    saved = (gdb.selected_thread(), _Selection.current)
    running = _running()
    if int(t) in running:
        _select(None)
        _kernel_thread(running[int(t)][1]).switch()
        return saved
    if int(t["park_state"]) == 3:
        raise gdb.GdbError("user thread %d is done" % int(t["id"]))
    if _not_started(t):
        raise gdb.GdbError("user thread %d has not started yet: it has no frames" % int(t["id"]))
    _select((gdb.selected_thread().ptid, _saved_registers(t)))
    frame = gdb.newest_frame().older()
    if frame is None:
        _select(saved[1])
        raise gdb.GdbError("cannot unwind user thread %d" % int(t["id"]))
    frame.select()
    return saved


def _leave(saved):
    thread, sel = saved
    if thread is not None and thread.is_valid():
        thread.switch()
    _select(sel)


class Uthread(gdb.Command):
    """uthread N: select user thread N's innermost frame (`frame`, `info locals`,
`up` then work on its stack; the selection ends when the program resumes or
with `uthread none`).
uthread N CMD: run the gdb command CMD on user thread N, e.g. `uthread 3 bt`.
A parked or runnable thread's frames start at #1 (frame #0 is the kernel
thread's own); a running thread's are those of its worker's kernel thread."""

    def __init__(self):
        super().__init__("uthread", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        words = arg.split(None, 1)
        if not words:
            raise gdb.GdbError("usage: uthread N [COMMAND], or uthread none")
        if words[0] == "none":
            _select(None)
            return
        try:
            n = int(words[0])
        except ValueError:
            raise gdb.GdbError("uthread: expected a user thread id, got `%s`" % words[0])
        t = _find(n)
        if len(words) == 1:
            _enter(t)
            gdb.execute("frame", from_tty)
            return
        saved = _enter(t)
        try:
            gdb.execute(words[1], from_tty)
        finally:
            _leave(saved)


def _on_resume(event):
    if _Selection.current is not None:
        _select(None)


if not getattr(gdb, "_wuc_gdb_loaded", False):
    gdb._wuc_gdb_loaded = True
    gdb.unwinder.register_unwinder(None, UthreadUnwinder(), replace=True)
    UthreadFrameFilter()
    InfoUthreads()
    Uthread()
    gdb.events.cont.connect(_on_resume)
