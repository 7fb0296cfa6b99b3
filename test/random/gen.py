#!/usr/bin/env python3
"""Writes one random, well-formed waituntil program that checks itself.

    test/random/gen.py --seed N [--scale K] [-o prog.wc]

The same seed always gives the same program.  The program (see rs_check.h,
pasted at its top) exits 0 and prints "OK ..." when every check held, and
exits non-zero with "VIOLATION: ..." otherwise; a hang (deadlock report or
the driver's timeout) is also a failure, because the protocols below make
every program terminate when the runtime is correct:

- producers run a fixed number of statements over send clauses (plus
  latches, futures, locks, semaphores, timeouts, readable/writable of a pipe,
  guards, else); every send
  is eventually served because every consumer comes back, within one
  timeout, to a statement that receives from all of its open channels;
- channels are closed only after all their producers finished (by main after
  joining the producers, or by a channel's last producer); consumers run
  until closed(ch) has been seen for each of their channels;
- latches and futures are set by setter threads that wait for nothing, and
  setter0 writes the pipe's one byte (readable from then on, writable always);
- lock and semaphore bodies never wait for another thread's lock or permit;
- a consumer statement that is not an all-or over every open channel has a
  timeout or an else at its root, so it cannot hold a producer up for long.
"""
import argparse
import os
import math
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
UNBOUNDED = 'CHAN_UNBOUNDED'


class Leaf:
    def __init__(self, kind, arg, **kw):
        self.kind = kind  # send recv closed timeout latch future lock sem fd
        self.arg = arg    # channel / resource index / duration text
        self.kw = kw
        self.index = None


class Node:
    def __init__(self, kind, kids):
        self.kind = kind  # 'and' / 'or'
        self.kids = kids


class Gen:
    def __init__(self, seed, scale=1, sabotage=None):
        self.r = random.Random(seed)
        self.seed = seed
        self.scale = scale
        self.sabotage = sabotage
        self.r_loop = random.Random(seed * 7919 + 1)  # a separate stream: adding a choice keeps older programs
        self.r_hyg = random.Random(seed * 7927 + 3)  # names and jumps (docs/lowering.md, "Names"), likewise
        self.r_c = random.Random(seed * 7933 + 5)  # C idioms around statements and local types, likewise
        self.r_fd = random.Random(seed * 7937 + 7)  # fd clauses (readable/writable of a pipe), likewise
        self.r_fam = random.Random(seed * 7949 + 11)  # clause families and [[wuc::fair]], likewise
        self.outer = []  # (exec record, out label) of the statements whose bodies are being emitted
        self.stmt_no = 0
        self.out = []

    # ---------------------------------------------------------------- program shape
    def plan(self):
        r = self.r
        self.nchan = r.randint(1, 5)
        caps = []
        for _ in range(self.nchan):
            caps.append(r.choice(['0', '0', '1', '2', str(r.randint(3, 8)), str(r.choice([64, 256, 1024])), UNBOUNDED, UNBOUNDED]))
        self.caps = caps
        self.zero_init = [c == '0' and r.random() < 0.3 for c in caps]  # a zeroed static channel is a rendezvous channel
        self.etype = [r.choice(['int', 'int', 'long long', 'msg']) for _ in range(self.nchan)]
        self.msg_pad = r.choice([0, 4, 40, 120])
        self.nprod = r.randint(1, 4)
        self.ncons = r.randint(1, 4)
        self.nwork = r.randint(0, 3)
        self.nset = r.randint(1, 2)
        self.nlatch = r.randint(0, 3)
        self.nfut = r.randint(0, 3)
        self.nlock = r.randint(0, 2)
        self.nsem = r.randint(0, 2)
        self.sem_permits = [r.randint(1, 3) for _ in range(self.nsem)]
        # Who sends to and receives from which channel: every channel has at least one of each.
        self.prod_chans = [set() for _ in range(self.nprod)]
        self.cons_chans = [set() for _ in range(self.ncons)]
        for c in range(self.nchan):
            self.prod_chans[r.randrange(self.nprod)].add(c)
            self.cons_chans[r.randrange(self.ncons)].add(c)
        for p in range(self.nprod):
            for c in range(self.nchan):
                if r.random() < 0.3: self.prod_chans[p].add(c)
            if not self.prod_chans[p]: self.prod_chans[p].add(r.randrange(self.nchan))
        for k in range(self.ncons):
            for c in range(self.nchan):
                if r.random() < 0.25: self.cons_chans[k].add(c)
            if not self.cons_chans[k]: self.cons_chans[k].add(r.randrange(self.nchan))
        self.prod_chans = [sorted(s) for s in self.prod_chans]
        self.cons_chans = [sorted(s) for s in self.cons_chans]
        # The last producer of a channel closes it, or main does after joining every producer.
        self.close_by_producer = [r.random() < 0.5 for _ in range(self.nchan)]
        # Thread indices: producers first (they are the senders), then consumers, workers, setters.
        self.t_prod = list(range(self.nprod))
        self.t_cons = list(range(self.nprod, self.nprod + self.ncons))
        self.t_work = list(range(self.nprod + self.ncons, self.nprod + self.ncons + self.nwork))
        self.t_set = list(range(self.nprod + self.ncons + self.nwork, self.nprod + self.ncons + self.nwork + self.nset))
        self.nthreads = self.nprod + self.ncons + self.nwork + self.nset
        self.iters = r.choice([10, 20, 40, 80]) * self.scale
        self.maxseq = 0
        # A pipe: readable once setter0 has written its one byte (like a latch), writable always.
        self.pipe = self.r_fd.random() < 0.5

    # ---------------------------------------------------------------- helpers
    def emit(self, line, ind):
        self.out.append('  ' * ind + line)

    def chan_name(self, c):
        return 'ch%d' % c

    def elem_type(self, c):
        return 'struct rs_msg' if self.etype[c] == 'msg' else self.etype[c]

    def recv_note(self, c, var):
        """The accounting of a value received from channel c into var."""
        note = 'rs_mrecv(me, %d, &%s);' % (c, var) if self.etype[c] == 'msg' else 'rs_recv(me, %d, %s);' % (c, var)
        if self.sabotage == 'lose':  # each place that receives forgets its first value, as if it were lost
            return '{ static int seen; if (seen++) %s }' % note
        return note

    def thread_begin(self, name, me):
        self.emit('static void %s(void *arg) {' % name, 0)
        self.emit('const int me = %d;' % me, 1)
        self.emit('(void)arg;', 1)
        self.c_idioms_at_start()

    def c_idioms_at_start(self):
        """Sometimes, in a function that holds statements: a member named `when` (a.when, p->when,
        .when = 1) and a channel of a type declared in the function, and one of an enum type."""
        c = self.r_c
        if c.random() < 0.4:
            self.emit('struct rs_flags { int when; } rs_f = { .when = 1 }, *rs_fp = &rs_f;', 1)
            self.emit('if (rs_f.when + rs_fp->when != 2) rs_fail("a member named when");', 1)
        if c.random() < 0.4:
            self.emit('{', 1)
            self.emit('struct rs_local { int v; long long v2; };', 2)
            self.emit('static channel(struct rs_local) rs_lc;', 2)
            self.emit('struct rs_local in = { me, 2 * me }, out = { 0, 0 };', 2)
            self.emit('if (!chan_try_send(&rs_lc, in)) chan_try_recv(&rs_lc, &out);', 2)
            self.emit('}', 1)
        if c.random() < 0.3:
            self.emit('{', 1)
            self.emit('static channel(enum rs_colour { RS_RED, RS_GREEN, RS_BLUE }) rs_ec;', 2)
            self.emit('enum rs_colour got = RS_RED;', 2)
            self.emit('if (chan_try_recv(&rs_ec, &got) && got > RS_BLUE) rs_fail("an enum element changed");', 2)
            self.emit('}', 1)

    def c_idiom_around(self, ind):
        """Sometimes, around a statement: a pragma pair, or a macro that opens a block."""
        c = self.r_c
        x = c.random()
        if x < 0.15:
            return ['_Pragma("GCC diagnostic push")'], ['_Pragma("GCC diagnostic pop")']
        if x < 0.3:
            return ['RS_IF_TRUE(me >= 0) {'], ['}']
        return [], []

    def thread_end(self):
        self.emit('rs_at(me, "finished", -1);', 1)
        self.emit('}', 0)

    def duration(self):
        r = self.r
        return r.choice(['0', '1`us', '50`us', '200`us', '500`us', '1`ms', '2`ms', 'microseconds(300)', 'milliseconds(1)', '0.5`ms'])

    def extra_leaf(self):
        """A clause that becomes available without help from this thread."""
        r = self.r
        kinds = ['timeout']
        if self.nlatch: kinds += ['latch', 'latch']
        if self.nfut: kinds += ['future', 'future']
        if self.nlock: kinds += ['lock', 'lock']
        if self.nsem: kinds += ['sem']
        k = r.choice(kinds)
        if k == 'timeout': leaf = Leaf('timeout', self.duration())
        elif k == 'latch': leaf = Leaf('latch', r.randrange(self.nlatch))
        elif k == 'future': leaf = Leaf('future', r.randrange(self.nfut))
        elif k == 'lock': leaf = Leaf('lock', r.randrange(self.nlock))
        else: leaf = Leaf('sem', r.randrange(self.nsem))
        if self.pipe and self.r_fd.random() < 0.25: leaf = Leaf('fd', self.r_fd.choice('rw'))
        return leaf

    def random_tree(self, leaves, allow_and=True):
        """A random and/or tree over the given leaves, in the given order."""
        r = self.r
        if len(leaves) == 1: return leaves[0]
        split = sorted(r.sample(range(1, len(leaves)), r.randint(1, min(3, len(leaves) - 1))))
        parts, prev = [], 0
        for s in split + [len(leaves)]:
            parts.append(leaves[prev:s])
            prev = s
        kind = 'and' if allow_and and r.random() < 0.45 else 'or'
        return Node(kind, [self.random_tree(p, allow_and) for p in parts])

    # ---------------------------------------------------------------- statements
    def number(self, tree, leaves):
        if isinstance(tree, Leaf):
            tree.index = len(leaves)
            leaves.append(tree)
        else:
            for k in tree.kids: self.number(k, leaves)

    def has_and(self, t):
        return isinstance(t, Node) and (t.kind == 'and' or any(self.has_and(k) for k in t.kids))

    def desc_nodes(self, t, parent, out):
        me = len(out)
        if isinstance(t, Leaf):
            out.append('{RS_LEAF, %d, %d}' % (parent, t.index))
        else:
            # Sabotage 'tree': the checks are told every node is an and.
            is_and = t.kind == 'and' or self.sabotage == 'tree'
            out.append('{%s, %d, 0}' % ('RS_AND' if is_and else 'RS_OR', parent))
            for k in t.kids: self.desc_nodes(k, me, out)

    def render_or(self, t, ctx, ind):
        if isinstance(t, Node) and t.kind == 'or':
            parts = []
            for k in t.kids:
                if isinstance(k, Node) and k.kind == 'or' and self.r.random() < 0.5:
                    parts.append(self.render_paren(k, ctx, ind))
                else:
                    parts.append(self.render_and(k, ctx, ind))
            return self.join(parts, self.r.choice(['or', 'or', '||']), ind)
        return self.render_and(t, ctx, ind)

    def render_and(self, t, ctx, ind):
        if isinstance(t, Node) and t.kind == 'and':
            parts = []
            for k in t.kids:
                if isinstance(k, Leaf): parts.append(self.render_leaf(k, ctx, ind))
                else: parts.append(self.render_paren(k, ctx, ind))
            return self.join(parts, self.r.choice(['and', 'and', '&&']), ind)
        if isinstance(t, Leaf): return self.render_leaf(t, ctx, ind)
        return self.render_paren(t, ctx, ind)

    def render_paren(self, t, ctx, ind):
        return ['('] + self.render_or(t, ctx, ind) + [')']

    def join(self, parts, word, ind):
        out = list(parts[0])
        for p in parts[1:]:
            out.append(word)
            out.extend(p)
        return out

    def operand(self, ctx, i, obj):
        """The resource operand: plain, by pointer, or reporting its evaluation."""
        if ctx['ev'][i]: return '(rs_ev(&%s, %d), &%s)' % (ctx['x'], i, obj)
        return self.r.choice([obj, '&' + obj, '*&' + obj])

    def render_leaf(self, lf, ctx, ind):
        r, x, i = self.r, ctx['x'], lf.index
        guard = ''
        if ctx['guard'][i] is not None:
            guard = 'when (rs_g(&%s, %d, %s)) ' % (x, i, ctx['guard'][i])
        body = ['rs_body(&%s, %d);' % (x, i)]
        k = lf.kind
        if k == 'send':
            c = lf.arg
            v = 'sv%d_%d' % (ctx['no'], i)
            if self.etype[c] == 'msg':
                val = '(%s = rs_msv(&%s, %d, rs_mval(me, %d, ep)))' % (v, x, i, c)
                body.append('rs_sent(%s.v);' % v)
            else:
                val = '(%s = rs_sv(&%s, %d, rs_val(me, %d, ep)%s))' % (v, x, i, c, ctx['value_extra'].get(i, ''))
                body.append('rs_sent(%s);' % v)
            res = '%s << %s' % (self.operand(ctx, i, self.chan_name(c)), val)
        elif k == 'recv':
            c = lf.arg
            v = 'rv%d_%d' % (ctx['no'], i)
            res = '%s << %s' % (v, self.operand(ctx, i, self.chan_name(c)))
            body.append(self.recv_note(c, v))
        elif k == 'closed':
            c = lf.arg
            res = 'closed(%s)' % self.operand(ctx, i, self.chan_name(c))
            body.append('rs_closed_seen(%d, chan_len(&%s)); open[%d] = 0;' % (c, self.chan_name(c), c))
        elif k == 'timeout':
            d = lf.arg
            res = 'timeout((rs_ev(&%s, %d), %s))' % (x, i, d) if ctx['ev'][i] else 'timeout(%s)' % d
        elif k == 'fd':
            fd = 'rs_pipe[0]' if lf.arg == 'r' else 'rs_pipe[1]'
            word = 'readable' if lf.arg == 'r' else 'writable'
            res = '%s((rs_ev(&%s, %d), %s))' % (word, x, i, fd) if ctx['ev'][i] else '%s(%s)' % (word, fd)
            if lf.arg == 'r': body.append('rs_pipe_seen();')
        elif k == 'latch':
            res = self.operand(ctx, i, 'la%d' % lf.arg)
            body.append('rs_latch_seen(%d);' % lf.arg)
        elif k == 'future':
            res = self.operand(ctx, i, 'fu%d' % lf.arg)
            body.append('rs_future_seen(%d, future_get(&fu%d));' % (lf.arg, lf.arg))
        elif k == 'lock':
            res = self.operand(ctx, i, 'lk%d' % lf.arg)
            body.append('rs_lock_in(%d, me);' % lf.arg)
            if r.random() < 0.3: body.append('uthread_yield();')
            if ctx['depth'] == 0 and ctx['nest'] and r.random() < 0.35:
                body.append(('NEST', lf.arg))
            body.append('rs_lock_out(%d, me);' % lf.arg)
        elif k == 'sem':
            res = self.operand(ctx, i, 'se%d' % lf.arg)
            body.append('rs_sem_in(%d);' % lf.arg)
            if r.random() < 0.3: body.append('uthread_yield();')
            body.append('rs_sem_out(%d);' % lf.arg)
        if k in ('latch', 'future', 'timeout') and ctx['depth'] == 0 and ctx['nest'] and r.random() < 0.2:
            body.append(('NEST', None))
        if ctx['jumps'] and r.random() < 0.2:
            body.append('if (%s) { %s.jumped = 1; %s }' % (r.choice(['it % 3 == 1', 'it & 1', '1', 'it % 5 == 4']), x,
                                                           r.choice(['break;', 'continue;', 'goto %s;' % ctx['out']])))
        h = self.r_hyg
        if h.random() < 0.15:
            # A label and a switch inside the body, jumped to only from inside it (a jump into a body is an error).
            lbl = 's%d_c%d_in' % (ctx['no'], i)
            body.insert(1, 'goto %s;' % lbl)
            body.insert(2, 'rs_fail("s%d: a goto inside a body did not jump");' % ctx['no'])
            body.insert(3, '%s: switch (it %% 3) { case 0: break; case 1: if (it < 0) goto %s; break; default: break; }' % (lbl, lbl))
        if ctx['outer'] and h.random() < 0.15:
            # Out of this statement and the one whose body holds it (only bodies without bookkeeping after it).
            ox, oout = ctx['outer']
            body.append('if (%s) { %s.jumped = 1; %s.jumped = 1; goto %s; }' % (h.choice(['it % 3 == 2', 'it & 2']), x, ox, oout))
        return [('CLAUSE', guard + 'waituntil (' + res + ')', body)]

    def shadow_names(self, sid, leaves, guard):
        """Sometimes declares, around statement number sid (wucc counts from 0 in text order), variables named like
        the temporaries wucc once generated for it (wu<sid>_clause<i>_<kind>...) or like it without the reserved
        prefix (wuc<sid>...), and uses them in guards and send values where a shadowing temporary would change the
        outcome (docs/lowering.md, "Names").  Edits guard in place."""
        h = self.r_hyg
        out = dict(decls=[], value_extra={})
        if h.random() >= 0.3: return out
        kinds = dict(send='send', recv='recv', closed='closed', timeout='timeout', latch='latch', future='future_int',
                     lock='owner_lock', sem='semaphore', fd='readable')
        pre = h.choice(['wu', 'wuc'])
        out['decls'].append('int %s%d = 0, %s%d_end = 0;' % (pre, sid, pre, sid))
        out['decls'].append('(void)%s%d; (void)%s%d_end;' % (pre, sid, pre, sid))
        sends = []
        for lf in leaves:
            i = lf.index
            if lf.kind == 'send' and self.etype[lf.arg] != 'msg' and sends and h.random() < 0.7:
                j = h.choice(sends)
                name, k = '%s%d_clause%d_send_value' % (pre, sid, j), h.randint(2, 999)
                if name not in ' '.join(out['decls']):
                    out['decls'].append('long long %s = %d;' % (name, k))
                    out['value_extra'][i] = ' + (%s - %d)' % (name, k)
            if lf.kind == 'send': sends.append(i)
            if guard[i] is not None and h.random() < 0.5:
                name = '%s%d_clause%d_%s_enabled' % (pre, sid, i, kinds[lf.kind])
                out['decls'].append('int %s = 1;' % name)
                guard[i] = '(%s) && %s' % (guard[i], name)
            elif guard[i] is not None and h.random() < 0.3:
                guard[i] = '(%s) + %s%d' % (guard[i], pre, sid)
        return out

    def statement(self, tree, role, ind, depth=0, else_guard=None, has_else=False, nest=False, jumps=True, outer=None):
        """Emits one statement in its own block with its checks."""
        r = self.r
        self.stmt_no += 1
        no = self.stmt_no
        leaves = []
        self.number(tree, leaves)
        n = len(leaves)
        assert n <= 24
        x = 'x%d' % depth
        guard, ev = [], []
        for lf in leaves:
            g = None
            if lf.kind in ('recv', 'closed') and (lf.kind == 'closed' or lf.kw.get('must_guard') or r.random() < 0.6):
                g = 'open[%d]' % lf.arg
                # In a serve statement both clauses of a channel are enabled exactly while it is open:
                # closed(ch) is the way out, and only the receive can drain the channel for it.
                if not lf.kw.get('exact_guard') and r.random() < 0.2: g += ' && (it % 4 != 3)'
            elif not lf.kw.get('no_guard') and r.random() < 0.25:
                g = r.choice(['1', '0', 'it % 3 != 1', 'it & 1', '(it + me) % 4 != 0'])
            guard.append(g)
            ev.append(r.random() < 0.4)
        shadows = self.shadow_names(no - 1, leaves, guard)
        ctx = dict(x=x, guard=guard, ev=ev, no=no, depth=depth, nest=nest, jumps=jumps, out='s%d_out' % no,
                   value_extra=shadows['value_extra'], outer=outer)
        all_or = not self.has_and(tree)
        nodes = []
        self.desc_nodes(tree, -1, nodes)
        bools = lambda xs: ', '.join('1' if v else '0' for v in xs)
        self.emit('{ /* s%d: %s */' % (no, 'all-or' if all_or else 'mixed'), ind)
        ind += 1
        self.emit('static const struct rs_node nodes[] = {%s};' % ', '.join(nodes), ind)
        self.emit('static const unsigned char transfer[] = {%s}, has_guard[] = {%s}, has_ev[] = {%s}, is_send[] = {%s};' % (
            bools(lf.kind in ('send', 'recv') for lf in leaves), bools([g is not None for g in guard] + [else_guard is not None]),
            bools(ev), bools(lf.kind == 'send' for lf in leaves)), ind)
        self.emit('static const struct rs_desc desc = {"s%d", %d, %d, nodes, transfer, has_guard, has_ev, is_send, %d, %d};' % (
            no, len(nodes), n, int(all_or), int(has_else)), ind)
        self.emit('struct rs_exec %s;' % x, ind)
        self.emit('rs_begin(&%s, &desc);' % x, ind)
        if depth == 0: self.emit('rs_at(me, "s%d", it);' % no, ind)
        for lf in leaves:  # set latches and futures stay set: such a clause must win over later ones
            if lf.kind == 'latch': self.emit('%s.ready[%d] = latch_is_set(&la%d);' % (x, lf.index, lf.arg), ind)
            if lf.kind == 'future': self.emit('%s.ready[%d] = future_ready(&fu%d);' % (x, lf.index, lf.arg), ind)
        for lf in leaves:
            if lf.kind == 'recv':
                t = self.etype[lf.arg]
                if t == 'msg': self.emit('struct rs_msg rv%d_%d = {0};' % (no, lf.index), ind)
                else:
                    # An int channel may be received into a wider type (assignment conversion).
                    tt = 'long long' if t == 'int' and r.random() < 0.3 else t
                    self.emit('%s rv%d_%d = 0;' % (tt, no, lf.index), ind)
            elif lf.kind == 'send':
                if self.etype[lf.arg] == 'msg': self.emit('struct rs_msg sv%d_%d = {0};' % (no, lf.index), ind)
                else: self.emit('long long sv%d_%d = 0;' % (no, lf.index), ind)
        if role == 'prod': self.emit('ep++;', ind)
        for d in shadows['decls']: self.emit(d, ind)
        self.emit('do {', ind)
        items = self.render_or(tree, ctx, ind + 1)
        if has_else:
            eg = 'when (rs_g(&%s, %d, %s)) ' % (x, n, else_guard) if else_guard is not None else ''
            items.append(r.choice(['or', '||']))
            items.append(('ELSE', eg, x))
        self.outer.append((x, ctx['out']))
        self.emit_items(items, ind + 1)
        self.outer.pop()
        self.emit('} while (0);', ind)
        self.emit('%s:' % ctx['out'], ind)
        self.emit('rs_end(&%s);' % x, ind)
        for lf in leaves:
            if lf.kind == 'recv':
                v = 'rv%d_%d' % (no, lf.index)
                val = v + '.v' if self.etype[lf.arg] == 'msg' else v
                self.emit('if (%s != 0 && !%s.ran[%d]) {' % (val, x, lf.index), ind)
                self.emit('if (!%s.jumped) rs_fail("s%d: clause %d received a value but its body did not run");' % (x, no, lf.index), ind + 1)
                self.emit(self.recv_note(lf.arg, v), ind + 1)
                self.emit('}', ind)
            elif lf.kind == 'send':
                v = 'sv%d_%d' % (no, lf.index) + ('.v' if self.etype[lf.arg] == 'msg' else '')
                self.emit('if (%s.jumped && %s.values[%d] && !%s.ran[%d]) rs_maybe_sent(%s);' % (x, x, lf.index, x, lf.index, v), ind)
        ind -= 1
        self.emit('}', ind)
        return leaves

    def emit_items(self, items, ind):
        for it in items:
            if isinstance(it, str):
                self.emit(it, ind)
            elif it[0] == 'ELSE':
                self.emit('%selse { rs_else(&%s); }' % (it[1], it[2]), ind)
            else:
                _, head, body = it
                if len(body) == 1 and self.r.random() < 0.5:
                    self.emit(head + ' ' + body[0], ind)
                    continue
                self.emit(head + ' {', ind)
                for b in body:
                    if isinstance(b, tuple):
                        self.nested(b[1], ind + 1)
                    else:
                        self.emit(b, ind + 1)
                self.emit('}', ind)

    def nested(self, lock, ind):
        """A statement inside a body: only clauses that need nobody's lock or permit."""
        r = self.r
        kinds = ['timeout'] + ['latch'] * (self.nlatch > 0) + ['future'] * (self.nfut > 0) + ['lock'] * (lock is not None)
        leaves = []
        for _ in range(r.randint(1, 3)):
            k = r.choice(kinds)
            if k == 'timeout': leaves.append(Leaf('timeout', self.duration()))
            elif k == 'latch': leaves.append(Leaf('latch', r.randrange(self.nlatch)))
            elif k == 'future': leaves.append(Leaf('future', r.randrange(self.nfut)))
            else: leaves.append(Leaf('lock', lock))
        tree = self.random_tree(leaves)
        # A body of a latch, future or timeout clause has no bookkeeping after its nested statement: a jump may
        # leave both statements from there.
        outer = self.outer[-1] if lock is None else None
        self.statement(tree, 'nested', ind, depth=1, has_else=r.random() < 0.3, else_guard=None, nest=False,
                       outer=outer)

    # ---------------------------------------------------------------- threads
    def producer(self, p):
        r = self.r
        me = self.t_prod[p]
        chans = self.prod_chans[p]
        self.thread_begin('producer%d' % p, me)
        self.emit('int ep = 0;', 1)
        ntemp = r.randint(2, 5)
        self.emit('for (int it = 0; it < %d; it++) {' % self.iters, 1)
        self.emit('switch (it %% %d) {' % ntemp, 2)
        maxsends = 0
        for k in range(ntemp):
            self.emit('case %d: {' % k, 2)
            form = r.random()
            tsends = 0  # values this template evaluates per iteration
            if form < 0.15:
                c = r.choice(chans)
                tsends = 1
                mk = 'rs_mval' if self.etype[c] == 'msg' else 'rs_val'
                vt = 'struct rs_msg' if self.etype[c] == 'msg' else 'long long'
                vv = 'v.v' if self.etype[c] == 'msg' else 'v'
                self.emit('rs_at(me, "plain send on ch%d", it);' % c, 3)
                self.emit('%s v = %s(me, %d, ++ep);' % (vt, mk, c), 3)
                if r.random() < 0.5:
                    self.emit('if (!chan_send(&%s, v)) rs_fail("producer %d: chan_send on open channel %d failed");' % (self.chan_name(c), p, c), 3)
                    self.emit('rs_sent(%s);' % vv, 3)
                else:
                    self.emit('if (chan_try_send(&%s, v)) rs_sent(%s);' % (self.chan_name(c), vv), 3)
            else:
                leaves = []
                nsend = r.randint(1, 4)
                for _ in range(nsend): leaves.append(Leaf('send', r.choice(chans)))
                for _ in range(r.choice([0, 0, 1, 2])): leaves.append(self.extra_leaf())
                r.shuffle(leaves)
                tsends = nsend
                tree = self.random_tree(leaves)
                has_else = r.random() < 0.15
                self.statement(tree, 'prod', 3, has_else=has_else,
                               else_guard=r.choice([None, None, 'it & 1']) if has_else else None, nest=True)
            if self.r_fam.random() < 0.25: tsends += self.family_send(chans, 3)
            maxsends = max(maxsends, tsends)
            self.emit('break;', 3)
            self.emit('}', 2)
        self.emit('}', 2)
        self.emit('if (it % 7 == 3) uthread_yield();', 2)
        self.emit('}', 1)
        self.maxseq = max(self.maxseq, self.iters * maxsends + 1)
        for c in chans:
            self.emit('if (atomic_fetch_sub(&producers_left[%d], 1) == 1 && close_by_producer[%d]) {' % (c, c), 1)
            self.emit('atomic_store(&rs_close_started[%d], 1);' % c, 2)
            self.emit('chan_close(&%s);' % self.chan_name(c), 2)
            self.emit('}', 1)
        self.thread_end()

    def consumer(self, k):
        r = self.r
        me = self.t_cons[k]
        chans = self.cons_chans[k]
        self.thread_begin('consumer%d' % k, me)
        self.emit('unsigned char open[RS_CHANS] = {0};', 1)
        if len(chans) == 1 and self.r_loop.random() < 0.4:
            # A plain receive loop, as most channel users write it.
            c = chans[0]
            self.emit('%s v = {0};' % self.elem_type(c), 1)
            self.emit('rs_at(me, "chan_recv loop on ch%d", 0);' % c, 1)
            self.emit('while (chan_recv(&%s, &v)) %s' % (self.chan_name(c), self.recv_note(c, 'v')), 1)
            self.emit('rs_closed_seen(%d, chan_len(&%s));' % (c, self.chan_name(c)), 1)
            self.thread_end()
            return
        for c in chans: self.emit('open[%d] = 1;' % c, 1)
        self.emit('for (int it = 0; %s; it++) {' % ' || '.join('open[%d]' % c for c in chans), 1)
        ntemp = r.randint(2, 4)
        self.emit('switch (it %% %d) {' % ntemp, 2)
        for t in range(ntemp):
            self.emit('case %d: {' % t, 2)
            form = 'serve' if t == 0 else r.choice(['serve', 'escape', 'escape', 'plain'])
            if form == 'serve':
                # All-or over every open channel (receive, then closed), extras after them.
                leaves = []
                order = list(chans)
                r.shuffle(order)
                for c in order:
                    leaves.append(Leaf('recv', c, must_guard=True, exact_guard=True))
                    leaves.append(Leaf('closed', c, exact_guard=True))
                for _ in range(r.choice([0, 0, 1, 2])): leaves.append(self.extra_leaf())
                tree = self.random_tree(leaves, allow_and=False)
                self.statement(tree, 'cons', 3, has_else=r.random() < 0.1, nest=False, jumps=True)
            elif form == 'escape':
                # Any tree over distinct channels and extras, with a timeout (or else) at its root.
                leaves = []
                for c in r.sample(chans, r.randint(1, len(chans))):
                    what = r.choice(['recv', 'recv', 'closed', 'both'])
                    if what in ('recv', 'both'): leaves.append(Leaf('recv', c))
                    if what in ('closed', 'both'): leaves.append(Leaf('closed', c))
                for _ in range(r.choice([0, 1, 2])): leaves.append(self.extra_leaf())
                r.shuffle(leaves)
                sub = self.random_tree(leaves)
                use_else = r.random() < 0.25
                if use_else:
                    tree = sub
                else:
                    kids = [sub]
                    kids.insert(r.randint(0, 1), Leaf('timeout', r.choice(['200`us', '1`ms', 'milliseconds(2)', '500`us']), no_guard=True))
                    tree = Node('or', kids)
                self.statement(tree, 'cons', 3, has_else=use_else, nest=False, jumps=True)
            else:
                c = r.choice(chans)
                note = self.recv_note(c, 'v')
                self.emit('%s v = {0};' % self.elem_type(c), 3)
                self.emit('rs_at(me, "plain receive on ch%d", it);' % c, 3)
                if len(chans) == 1 and r.random() < 0.6:
                    self.emit('if (open[%d]) {' % c, 3)
                    self.emit('if (chan_recv(&%s, &v)) %s' % (self.chan_name(c), note), 4)
                    self.emit('else { rs_closed_seen(%d, chan_len(&%s)); open[%d] = 0; }' % (c, self.chan_name(c), c), 4)
                    self.emit('}', 3)
                else:
                    self.emit('if (chan_try_recv(&%s, &v)) %s' % (self.chan_name(c), note), 3)
            if self.r_fam.random() < 0.3: self.family_serve(chans, 3)
            self.emit('break;', 3)
            self.emit('}', 2)
        self.emit('}', 2)
        self.emit('uthread_yield();', 2)
        self.emit('}', 1)
        self.thread_end()

    def family_send(self, chans, ind):
        """An 'and' family of sends (docs/language.md, 'Clause families'): one value to each of
        the producer's channels of one element type, each evaluated in the element's operand
        (rule 1: once per element, in index order), all in one statement epoch; each body
        accounts its own element's value.  Returns how many values it evaluates."""
        r = self.r_fam
        c0 = r.choice(chans)
        group = [c for c in chans if self.etype[c] == self.etype[c0]]
        if len(group) > 1 and r.random() < 0.5: r.shuffle(group)
        t = self.elem_type(c0)
        msg = self.etype[c0] == 'msg'
        k = len(group)
        self.emit('{ /* an and family of sends to %s */' % ', '.join(self.chan_name(c) for c in group), ind)
        self.emit('static channel(%s) *const rs_pf[] = {%s};' % (t, ', '.join('&' + self.chan_name(c) for c in group)), ind + 1)
        self.emit('static const int rs_pfc[] = {%s};' % ', '.join(str(c) for c in group), ind + 1)
        self.emit('%s rs_pv[%d];' % ('struct rs_msg' if msg else 'long long', k), ind + 1)
        self.emit('++ep;', ind + 1)
        self.emit('rs_at(me, "family send", it);', ind + 1)
        mk = 'rs_mval' if msg else 'rs_val'
        v = 'rs_pv[i].v' if msg else 'rs_pv[i]'
        self.emit('waituntil and for (int i = 0; i < %d; i++) (rs_pf[i] << (rs_pv[i] = %s(me, rs_pfc[i], ep))) { rs_sent(%s); }' % (k, mk, v), ind + 1)
        self.emit('}', ind)
        return k

    def family_serve(self, chans, ind):
        """A statement over clause families (docs/language.md, 'Clause families'): a receive
        family and a closed family over the consumer's channels of one element type, sometimes
        [[wuc::fair]], and a timeout (other channels may be the ones with data).  The body
        accounts the value with the channel of the element that completed, so the per-program
        check (every value received exactly once, on the channel it was sent on) also checks
        that the index the body runs with is that element's."""
        r = self.r_fam
        c0 = r.choice(chans)
        group = [c for c in chans if self.etype[c] == self.etype[c0]]
        if len(group) > 1 and r.random() < 0.5: r.shuffle(group)
        t = self.elem_type(c0)
        k = len(group)
        self.emit('{ /* clause families over %s */' % ', '.join(self.chan_name(c) for c in group), ind)
        self.emit('static channel(%s) *const rs_fam[] = {%s};' % (t, ', '.join('&' + self.chan_name(c) for c in group)), ind + 1)
        self.emit('static const int rs_famc[] = {%s};' % ', '.join(str(c) for c in group), ind + 1)
        self.emit('%s rs_fv = {0};' % t, ind + 1)
        self.emit('rs_at(me, "family serve", it);', ind + 1)
        note = 'rs_mrecv(me, rs_famc[i], &rs_fv);' if self.etype[c0] == 'msg' else 'rs_recv(me, rs_famc[i], rs_fv);'
        if self.sabotage == 'lose':
            note = '{ static int seen; if (seen++) %s }' % note
        fair = '[[wuc::fair]] ' if r.random() < 0.5 else ''
        idx = r.choice(['int', 'unsigned', 'size_t', 'long'])
        self.emit('%swaituntil for (%s i = 0; i < %d; i++) when (open[rs_famc[i]]) (rs_fv << rs_fam[i]) { %s }' % (fair, idx, k, note), ind + 1)
        self.emit('or waituntil for (%s i = 0; i < %d; i++) when (open[rs_famc[i]]) (closed(rs_fam[i])) {' % (idx, k), ind + 1)
        self.emit('rs_closed_seen(rs_famc[i], chan_len(rs_fam[i]));', ind + 2)
        self.emit('open[rs_famc[i]] = 0;', ind + 2)
        self.emit('}', ind + 1)
        self.emit('or waituntil (timeout(%s)) {}' % r.choice(['200`us', '500`us', '1`ms']), ind + 1)
        self.emit('}', ind)

    def worker(self, w):
        r = self.r
        me = self.t_work[w]
        self.thread_begin('worker%d' % w, me)
        ntemp = r.randint(2, 5)
        self.emit('for (int it = 0; it < %d; it++) {' % self.iters, 1)
        self.emit('switch (it %% %d) {' % ntemp, 2)
        for t in range(ntemp):
            self.emit('case %d: {' % t, 2)
            form = r.random()
            if form < 0.15 and (self.nlock or self.nsem):
                self.emit('rs_at(me, "plain lock or semaphore", it);', 3)
                if self.nlock and (not self.nsem or r.random() < 0.5):
                    l = r.randrange(self.nlock)
                    if r.random() < 0.5:
                        self.emit('lock_acquire(&lk%d); rs_lock_in(%d, me); rs_lock_out(%d, me); lock_release(&lk%d);' % (l, l, l, l), 3)
                    else:
                        self.emit('if (lock_try_acquire(&lk%d)) { rs_lock_in(%d, me); rs_lock_out(%d, me); lock_release(&lk%d); }' % (l, l, l, l), 3)
                else:
                    s = r.randrange(self.nsem)
                    self.emit('semaphore_acquire(&se%d); rs_sem_in(%d); uthread_yield(); rs_sem_out(%d); semaphore_release(&se%d);' % (s, s, s, s), 3)
            else:
                leaves = [self.extra_leaf() for _ in range(r.randint(1, 6))]
                tree = self.random_tree(leaves)
                has_else = r.random() < 0.2
                before, after = self.c_idiom_around(3)
                for line in before: self.emit(line, 3)
                self.statement(tree, 'work', 3, has_else=has_else,
                               else_guard=r.choice([None, '(it & 2)']) if has_else else None, nest=True)
                for line in after: self.emit(line, 3)
            self.emit('break;', 3)
            self.emit('}', 2)
        self.emit('}', 2)
        self.emit('if (it % 5 == 2) uthread_yield();', 2)
        self.emit('}', 1)
        self.thread_end()

    def setter(self, s):
        r = self.r
        me = self.t_set[s]
        self.thread_begin('setter%d' % s, me)
        self.emit('rs_at(me, "setting", 0);', 1)
        jobs = []
        for l in range(self.nlatch):
            if l % self.nset == s or r.random() < 0.3: jobs.append(('latch', l))
        for f in range(self.nfut):
            if f % self.nset == s or r.random() < 0.4: jobs.append(('future', f))
        r.shuffle(jobs)
        if self.pipe and s == 0: jobs.insert(self.r_fd.randint(0, len(jobs)), ('pipe', 0))
        for kind, i in jobs:
            d = r.choice(['for (int y = 0; y < %d; y++) uthread_yield();' % r.randint(0, 50),
                          'uthread_sleep(microseconds(%d));' % r.randint(0, 3000)])
            self.emit(d, 1)
            if kind == 'pipe':
                self.emit('atomic_store(&rs_pipe_written, 1);', 1)
                self.emit('if (write(rs_pipe[1], "x", 1) != 1) rs_fail("cannot write the pipe");', 1)
            elif kind == 'latch':
                self.emit('atomic_store(&rs_latch_set_started[%d], 1);' % i, 1)
                self.emit('latch_set(&la%d);' % i, 1)
            else:
                self.emit('rs_future_set_result(%d, %d, future_set(&fu%d, %d));' % (i, (me + 1) * 64 + i, i, (me + 1) * 64 + i), 1)
        self.thread_end()

    # ---------------------------------------------------------------- the program
    def program(self):
        self.plan()
        r = self.r
        body = self.out
        # Threads first (they fix RS_MAXSEQ), then the header in front.
        for p in range(self.nprod): self.producer(p); self.emit('', 0)
        for k in range(self.ncons): self.consumer(k); self.emit('', 0)
        for w in range(self.nwork): self.worker(w); self.emit('', 0)
        for s in range(self.nset): self.setter(s); self.emit('', 0)
        self.fairness = self.r_fam.random() < 0.5
        if self.fairness: self.fairness_check()
        threads = self.out
        self.out = []
        self.main()
        main = self.out
        self.out = []
        head = ['/* Generated by test/random/gen.py --seed %d: a random waituntil program that checks itself.' % self.seed,
                ' * channels: %s */' % ', '.join('ch%d cap %s %s' % (c, self.caps[c], self.etype[c]) for c in range(self.nchan))]
        sizes = dict(RS_SENDERS=self.nprod, RS_MAXSEQ=self.maxseq, RS_THREADS=self.nthreads, RS_CHANS=self.nchan,
                     RS_LOCKS=self.nlock, RS_SEMS=self.nsem, RS_LATCHES=self.nlatch, RS_FUTURES=self.nfut, RS_MSG_PAD=max(1, self.msg_pad))
        for k, v in sizes.items(): head.append('#define %s %d' % (k, v))
        with open(os.path.join(HERE, 'rs_check.h')) as f: head.append(f.read())
        head.append('#define RS_IF_TRUE(c) if (c) /* a macro that opens a block */')
        head += self.hostile_macros()
        decl = []
        for c in range(self.nchan):
            decl.append('static channel(%s) %s;' % (self.elem_type(c), self.chan_name(c)))
        for i in range(self.nlatch): decl.append('static latch la%d;' % i)
        for i in range(self.nfut): decl.append('static future(int) fu%d;' % i)
        for i in range(self.nlock): decl.append('static owner_lock lk%d;' % i)
        for i in range(self.nsem): decl.append('static semaphore se%d;' % i)
        if self.pipe:
            decl.append('static int rs_pipe[2];')
            decl.append('static atomic_int rs_pipe_written;')
            decl.append('static void rs_pipe_seen(void) {')
            decl.append('  if (!atomic_load(&rs_pipe_written)) rs_fail("readable(pipe) completed before anything was written");')
            decl.append('}')
        decl.append('static atomic_int producers_left[RS_CHANS];')
        decl.append('static const unsigned char close_by_producer[RS_CHANS] = {%s};' % ', '.join(str(int(b)) for b in self.close_by_producer))
        decl.append('')
        return '\n'.join(head + decl + threads + main) + '\n'

    def hostile_macros(self):
        """Sometimes, after the checks and before everything wucc lowers: macros named like the members and
        temporaries the generated code, the type definitions wucc writes and the library's macros once used.
        Names the program shares with the library (core, value) may only be renamed; the others may expand to
        a token no use of them survives (docs/lowering.md, "Names")."""
        h = self.r_hyg
        if h.random() >= 0.4: return []
        private = ['node', 'data', 'chan', 'res', 'site', 'needed', 'elem', 'stmt', 'status', 'try_only', 'live',
                   'enabled', 'ops', 'pending', 'cl', 'elem_size', 'convert_to', 'register_select', 'unregister_select',
                   'on_selected', 'memset', 'cleanup', 'unused', 'annotate', 'wuc_value_', 'wuc_out_', 'wuc_fut_', 'n',
                   's', 'r', 'f', 'e', 'w', 'T', 'tag', 'ch']
        names = h.sample(private, h.randint(3, 10)) + [n for n in ('core', 'value') if h.random() < 0.3]
        out = ['/* Macros named like what generated code names (docs/lowering.md, "Names"). */']
        for n in names:
            out.append('#define %s %s' % (n, 'rs_m_' + n if n in ('core', 'value') or h.random() < 0.5 else '!'))
        return out

    def fairness_check(self):
        """A statistical check of [[wuc::fair]] over a clause family (docs/language.md, 'Fair
        choice', 'Clause families'): K set latches (always ready), one of them sometimes
        guarded out, R statements; each candidate's wins must lie within 6 standard deviations
        of R / candidates, and the body's index must be a candidate's.  run.py fixes
        WUC_RANDOM_SEED, so at one worker the draws repeat."""
        r = self.r_fam
        k = r.randint(2, 6)
        skip = r.choice([-1, -1, r.randrange(k)])
        cands = k - (skip >= 0)
        rounds = 600 * cands * self.scale
        p = 1.0 / cands
        sd = math.sqrt(rounds * p * (1 - p))
        lo, hi = int(rounds * p - 6 * sd), int(rounds * p + 6 * sd) + 1
        e = self.emit
        e('static void rs_fairness(void) {', 0)
        e('static latch rs_fl[%d];' % k, 1)
        e('long rs_wins[%d] = {0};' % k, 1)
        e('for (int rs_k = 0; rs_k < %d; rs_k++) latch_set(&rs_fl[rs_k]);' % k, 1)
        e('for (long rs_r = 0; rs_r < %d; rs_r++) {' % rounds, 1)
        e('[[wuc::fair]] waituntil for (int i = 0; i < %d; i++) when (i != %d) (rs_fl[i]) {' % (k, skip), 2)
        e('if (i < 0 || i >= %d || i == %d) rs_fail("fair family: the body ran with index %%d", i);' % (k, skip), 3)
        e('rs_wins[i]++;', 3)
        e('}', 2)
        e('}', 1)
        e('for (int rs_k = 0; rs_k < %d; rs_k++)' % k, 1)
        e('if (rs_k != %d && (rs_wins[rs_k] < %d || rs_wins[rs_k] > %d)) rs_fail("fair family: element %%d won %%ld of %d (expected %d to %d)", rs_k, rs_wins[rs_k]);' % (skip, lo, hi, rounds, lo, hi), 2)
        e('}', 0)
        e('', 0)

    def main(self):
        r = self.r
        e = self.emit
        e('int main(void) {', 0)
        e('signal(SIGABRT, rs_on_abort);', 1)
        if self.pipe: e('if (pipe(rs_pipe) != 0) rs_fail("pipe");', 1)
        for c in range(self.nchan):
            if not self.zero_init[c]: e('chan_init(&%s, %s);' % (self.chan_name(c), self.caps[c]), 1)
            e('atomic_store(&producers_left[%d], %d);' % (c, sum(c in pc for pc in self.prod_chans)), 1)
        for s in range(self.nsem):
            e('semaphore_init(&se%d, %d);' % (s, self.sem_permits[s]), 1)
            e('rs_sem_permits[%d] = %d;' % (s, self.sem_permits[s]), 1)
        spawns = [('producer%d' % p, 'tp%d' % p) for p in range(self.nprod)] + [('consumer%d' % k, 'tc%d' % k) for k in range(self.ncons)] + \
                 [('worker%d' % w, 'tw%d' % w) for w in range(self.nwork)] + [('setter%d' % s, 'ts%d' % s) for s in range(self.nset)]
        r.shuffle(spawns)
        for fn, h in spawns: e('uthread_t *%s = uthread_spawn(%s, NULL);' % (h, fn), 1)
        for p in range(self.nprod): e('uthread_join(tp%d);' % p, 1)
        e('/* Every producer is done: close every channel (again, for those their last producer closed). */', 1)
        for c in range(self.nchan):
            e('atomic_store(&rs_close_started[%d], 1);' % c, 1)
            e('chan_close(&%s);' % self.chan_name(c), 1)
        rest = [h for _, h in spawns if not h.startswith('tp')]
        for h in rest: e('uthread_join(%s);' % h, 1)
        e('long sent = 0, received = 0;', 1)
        e('rs_check_values(&sent, &received);', 1)
        for c in range(self.nchan):
            t = self.elem_type(c)
            e('{ %s v; if (chan_try_recv(&%s, &v)) rs_fail("ch%d not drained at the end"); }' % (t, self.chan_name(c), c), 1)
        for l in range(self.nlock):
            e('if (!lock_try_acquire(&lk%d)) rs_fail("lock %d still held at the end");' % (l, l), 1)
            e('lock_release(&lk%d);' % l, 1)
        for s in range(self.nsem):
            n = self.sem_permits[s]
            e('for (int i = 0; i < %d; i++) if (!semaphore_try_acquire(&se%d)) rs_fail("semaphore %d lost a permit");' % (n, s, s), 1)
            e('if (semaphore_try_acquire(&se%d)) rs_fail("semaphore %d gained a permit");' % (s, s), 1)
        for f in range(self.nfut):
            e('if (!atomic_load(&rs_future_winner[%d]) || future_get(&fu%d) != atomic_load(&rs_future_winner[%d])) rs_fail("future %d: value is not the one future_set accepted");' % (f, f, f, f), 1)
        for l in range(self.nlatch):
            e('if (!latch_is_set(&la%d)) rs_fail("latch %d not set");' % (l, l), 1)
        if self.fairness: e('rs_fairness();', 1)
        e('printf("OK seed %d: %%ld values sent, %%ld received\\n", sent, received);' % self.seed, 1)
        e('return 0;', 1)
        e('}', 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--scale', type=int, default=1, help='multiplies every thread\'s loop count (same program otherwise)')
    ap.add_argument('--sabotage', choices=['tree', 'lose'],
                    help='a program whose checks must fail: tree (the checks see every or as an and), lose (the first value each receive takes is not counted)')
    ap.add_argument('-o', '--output', default='-')
    a = ap.parse_args()
    text = Gen(a.seed, a.scale, a.sabotage).program()
    if a.output == '-': sys.stdout.write(text)
    else:
        with open(a.output, 'w') as f: f.write(text)


if __name__ == '__main__':
    main()
