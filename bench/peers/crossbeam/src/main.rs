//! wucpeer-crossbeam: the crossbeam-channel peer of the wuc channel and select
//! benchmarks.  The same shapes, flags, counts and result lines as the Go peer
//! (bench/peers/go, bench/SHAPES.md), one configuration per invocation:
//!
//!     RESULT name=<bench> config=<cfg> value=<number> unit=<unit>
//!
//! Usage: wucpeer-crossbeam BENCH [flags], BENCH one of select-contend,
//! select-spin, select-order, chan-pc, elastic, pingpong.
//!
//! crossbeam has no user threads: every thread of a shape is an OS thread.
//! The worker count P of the config string (Go's GOMAXPROCS, wuc's
//! WUC_PROCESSORS) comes from PEER_PROCS (default: the CPUs this process may
//! use); when it is below that, the process pins itself to the first P of its
//! allowed CPUs (sched_setaffinity), so that P bounds the threads running at
//! once as it bounds Go's and wuc's workers.

use crossbeam_channel::{bounded, select, unbounded, Receiver, Sender};
use std::process::exit;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

fn result(name: &str, config: &str, value: f64, unit: &str) {
    println!("RESULT name={name} config={config} value={value:.3} unit={unit}");
}

fn die(msg: &str) -> ! {
    eprintln!("wucpeer-crossbeam: {msg}");
    exit(2);
}

fn check_sum(bench: &str, got: i64, want: i64) {
    if got != want {
        eprintln!("wucpeer-crossbeam {bench}: received values sum to {got}, want {want}");
        exit(1);
    }
}

/// 0 + 1 + ... + (q-1): one producer's share of the checksum.
fn triangle(q: usize) -> i64 {
    q as i64 * (q as i64 - 1) / 2
}

fn per_second(count: usize, d: Duration) -> f64 {
    count as f64 / d.as_secs_f64()
}

// ---- P: the worker count, and pinning to P CPUs ---------------------------

const CPU_WORDS: usize = 16; // cpu_set_t: 1024 bits

extern "C" {
    fn sched_getaffinity(pid: i32, size: usize, mask: *mut u64) -> i32;
    fn sched_setaffinity(pid: i32, size: usize, mask: *const u64) -> i32;
}

/// Reads PEER_PROCS and, when it is below the number of allowed CPUs, pins
/// the process (this thread, before any other exists) to the first P of them.
fn setup_procs() -> usize {
    let mut mask = [0u64; CPU_WORDS];
    // SAFETY: mask is a cpu_set_t-sized buffer; pid 0 is this thread.
    let ok = unsafe { sched_getaffinity(0, std::mem::size_of_val(&mask), mask.as_mut_ptr()) } == 0;
    let allowed: Vec<usize> = if ok {
        (0..CPU_WORDS * 64)
            .filter(|&c| mask[c / 64] >> (c % 64) & 1 == 1)
            .collect()
    } else {
        (0..thread::available_parallelism().map_or(1, |n| n.get())).collect()
    };
    let p = match std::env::var("PEER_PROCS") {
        Ok(s) => s
            .parse::<usize>()
            .ok()
            .filter(|&p| p > 0)
            .unwrap_or_else(|| die("PEER_PROCS must be a positive number")),
        Err(_) => allowed.len().max(1),
    };
    if ok && p < allowed.len() {
        let mut pinned = [0u64; CPU_WORDS];
        for &c in &allowed[..p] {
            pinned[c / 64] |= 1 << (c % 64);
        }
        // SAFETY: as above.
        if unsafe { sched_setaffinity(0, std::mem::size_of_val(&pinned), pinned.as_ptr()) } != 0 {
            die("sched_setaffinity failed");
        }
    }
    p
}

// ---- The start barrier (bench/SHAPES.md, "Timing") -------------------------

/// Threads created first, behind one barrier; the clock starts just before
/// main opens it (main is its last member, and waits until every member has
/// counted itself ready, as Go's group does) and stops when the last thread
/// has been joined.  Read as main left the barrier, `t0` came late when the
/// members outnumber the CPUs (chan-pc N500: 1,000 threads released at once,
/// main among them): rates above what the CPUs can do.
struct Group {
    barrier: Arc<Barrier>,
    ready: Arc<AtomicUsize>,
    members: usize,
    threads: Vec<thread::JoinHandle<()>>,
}

impl Group {
    fn new(members: usize) -> Group {
        Group {
            barrier: Arc::new(Barrier::new(members + 1)),
            ready: Arc::new(AtomicUsize::new(0)),
            members,
            threads: Vec::new(),
        }
    }

    fn spawn<F: FnOnce() + Send + 'static>(&mut self, f: F) {
        let (b, ready) = (self.barrier.clone(), self.ready.clone());
        self.threads.push(thread::spawn(move || {
            ready.fetch_add(1, Ordering::Release);
            b.wait();
            f();
        }));
    }

    /// Opens the barrier once every member is ready; returns t0, read
    /// before the opening (no member has started).
    fn open(&self) -> Instant {
        while self.ready.load(Ordering::Acquire) < self.members {
            thread::yield_now();
        }
        let t0 = Instant::now();
        self.barrier.wait();
        t0
    }

    fn run(self) -> Duration {
        let t0 = self.open();
        for t in self.threads {
            t.join().unwrap_or_else(|_| die("a thread panicked"));
        }
        t0.elapsed()
    }
}

// ---- select-contend, select-spin --------------------------------------------

// The selects are written out per channel count, as in the Go peer (a
// select! has a fixed list of operations; crossbeam's dynamic Select would be
// the analogue of reflect.Select).

fn send_any(chs: &[Sender<i64>], v: i64) {
    let r = match chs.len() {
        2 => select! {
            send(chs[0], v) -> r => r, send(chs[1], v) -> r => r,
        },
        4 => select! {
            send(chs[0], v) -> r => r, send(chs[1], v) -> r => r,
            send(chs[2], v) -> r => r, send(chs[3], v) -> r => r,
        },
        _ => select! {
            send(chs[0], v) -> r => r, send(chs[1], v) -> r => r,
            send(chs[2], v) -> r => r, send(chs[3], v) -> r => r,
            send(chs[4], v) -> r => r, send(chs[5], v) -> r => r,
            send(chs[6], v) -> r => r, send(chs[7], v) -> r => r,
        },
    };
    r.unwrap_or_else(|_| die("send on a disconnected channel"));
}

fn recv_any(chs: &[Receiver<i64>]) -> i64 {
    let r = match chs.len() {
        2 => select! {
            recv(chs[0]) -> r => r, recv(chs[1]) -> r => r,
        },
        4 => select! {
            recv(chs[0]) -> r => r, recv(chs[1]) -> r => r,
            recv(chs[2]) -> r => r, recv(chs[3]) -> r => r,
        },
        _ => select! {
            recv(chs[0]) -> r => r, recv(chs[1]) -> r => r,
            recv(chs[2]) -> r => r, recv(chs[3]) -> r => r,
            recv(chs[4]) -> r => r, recv(chs[5]) -> r => r,
            recv(chs[6]) -> r => r, recv(chs[7]) -> r => r,
        },
    };
    r.unwrap_or_else(|_| die("receive from a disconnected channel"))
}

/// send_any with a default clause: one poll, never blocks.
fn try_send_any(chs: &[Sender<i64>], v: i64) -> bool {
    let r = match chs.len() {
        2 => select! {
            send(chs[0], v) -> r => r, send(chs[1], v) -> r => r,
            default => return false,
        },
        4 => select! {
            send(chs[0], v) -> r => r, send(chs[1], v) -> r => r,
            send(chs[2], v) -> r => r, send(chs[3], v) -> r => r,
            default => return false,
        },
        _ => select! {
            send(chs[0], v) -> r => r, send(chs[1], v) -> r => r,
            send(chs[2], v) -> r => r, send(chs[3], v) -> r => r,
            send(chs[4], v) -> r => r, send(chs[5], v) -> r => r,
            send(chs[6], v) -> r => r, send(chs[7], v) -> r => r,
            default => return false,
        },
    };
    r.unwrap_or_else(|_| die("send on a disconnected channel"));
    true
}

fn try_recv_any(chs: &[Receiver<i64>]) -> Option<i64> {
    let r = match chs.len() {
        2 => select! {
            recv(chs[0]) -> r => r, recv(chs[1]) -> r => r,
            default => return None,
        },
        4 => select! {
            recv(chs[0]) -> r => r, recv(chs[1]) -> r => r,
            recv(chs[2]) -> r => r, recv(chs[3]) -> r => r,
            default => return None,
        },
        _ => select! {
            recv(chs[0]) -> r => r, recv(chs[1]) -> r => r,
            recv(chs[2]) -> r => r, recv(chs[3]) -> r => r,
            recv(chs[4]) -> r => r, recv(chs[5]) -> r => r,
            recv(chs[6]) -> r => r, recv(chs[7]) -> r => r,
            default => return None,
        },
    };
    Some(r.unwrap_or_else(|_| die("receive from a disconnected channel")))
}

fn select_contend(
    name: &str,
    p: usize,
    n: usize,
    pairs: usize,
    nch: usize,
    cap: usize,
    spin: bool,
) {
    if ![2, 4, 8].contains(&nch) {
        die(&format!("{name}: -c must be 2, 4 or 8, not {nch}"));
    }
    if spin && cap == 0 {
        die(&format!(
            "{name}: -cap 0 livelocks (both sides poll, nobody waits); use a buffered capacity"
        ));
    }
    let q = (n / pairs).max(1);
    let run = |q: usize| -> Duration {
        let (txs, rxs): (Vec<_>, Vec<_>) = (0..nch).map(|_| bounded::<i64>(cap)).unzip();
        let sums: Arc<Vec<AtomicI64>> = Arc::new((0..pairs).map(|_| AtomicI64::new(0)).collect());
        let mut g = Group::new(2 * pairs);
        for _ in 0..pairs {
            let txs = txs.clone();
            g.spawn(move || {
                for i in 0..q {
                    if spin {
                        while !try_send_any(&txs, i as i64) {}
                    } else {
                        send_any(&txs, i as i64);
                    }
                }
            });
        }
        for c in 0..pairs {
            let (rxs, sums) = (rxs.clone(), sums.clone());
            g.spawn(move || {
                let mut sum = 0i64;
                for _ in 0..q {
                    sum += if spin {
                        loop {
                            if let Some(v) = try_recv_any(&rxs) {
                                break v;
                            }
                        }
                    } else {
                        recv_any(&rxs)
                    };
                }
                sums[c].store(sum, Ordering::Relaxed);
            });
        }
        let d = g.run();
        let total: i64 = sums.iter().map(|s| s.load(Ordering::Relaxed)).sum();
        check_sum(name, total, pairs as i64 * triangle(q));
        d
    };
    run((q / 20).max(1));
    let d = run(q);
    result(
        name,
        &format!("P{p}-N{pairs}-C{nch}-cap{cap}"),
        per_second(q * pairs, d),
        "ops/s",
    );
}

// ---- select-order ------------------------------------------------------------

/// One consumer's receive count, published every 256 receives, on its own
/// cache line.
#[repr(align(64))]
struct Counter(AtomicI64);

fn select_order(p: usize, window: Duration, cap: usize) {
    const PUBLISH: i64 = 256;
    let run = |window: Duration| -> (i64, i64, Duration) {
        let (a_tx, a_rx) = bounded::<i64>(cap);
        let (b_tx, b_rx) = bounded::<i64>(cap);
        let stop = Arc::new(AtomicBool::new(false));
        let cnt = Arc::new([Counter(AtomicI64::new(0)), Counter(AtomicI64::new(0))]);
        // t0 in ns since `epoch` (0: not set yet), set by main when the
        // barrier opens; the consumers watch the clock every 256 receives and
        // the first to see the window over wakes main (dropping `over`).
        let epoch = Instant::now();
        let t0 = Arc::new(AtomicU64::new(0));
        let (over_tx, over_rx) = bounded::<()>(0);
        let fired = Arc::new(AtomicBool::new(false));
        let over_tx = Arc::new(std::sync::Mutex::new(Some(over_tx)));
        let tick = {
            let (cnt, t0, fired, over_tx) =
                (cnt.clone(), t0.clone(), fired.clone(), over_tx.clone());
            move |k: usize, i: i64| {
                cnt[k].0.store(i, Ordering::Relaxed);
                let start = t0.load(Ordering::Acquire);
                if start != 0
                    && epoch.elapsed().as_nanos() as u64 - start >= window.as_nanos() as u64
                    && !fired.swap(true, Ordering::AcqRel)
                {
                    over_tx.lock().unwrap().take(); // closes `over`
                }
            }
        };
        let mut g = Group::new(4);
        let mut producers = Vec::new();
        {
            // P1
            let (a, b, stop) = (a_tx.clone(), b_tx.clone(), stop.clone());
            let (tx, rx) = bounded::<()>(1);
            producers.push(rx);
            g.spawn(move || {
                let mut i = 0i64;
                while !stop.load(Ordering::Relaxed) {
                    let r = select! { send(a, i) -> r => r, send(b, i) -> r => r };
                    r.unwrap_or_else(|_| die("select-order: send on a disconnected channel"));
                    i += 1;
                }
                drop(tx);
            });
        }
        {
            // C1
            let (a, b, tick) = (a_rx.clone(), b_rx.clone(), tick.clone());
            g.spawn(move || {
                let mut sum = 0i64;
                let mut i = 1i64;
                loop {
                    let r = select! { recv(a) -> r => r, recv(b) -> r => r };
                    match r {
                        Ok(v) => sum = sum.wrapping_add(v),
                        Err(_) => break, // both producers gone: the run is over
                    }
                    if i % PUBLISH == 0 {
                        tick(0, i);
                    }
                    i += 1;
                }
                std::hint::black_box(sum);
            });
        }
        {
            // P2
            let (b, stop) = (b_tx.clone(), stop.clone());
            let (tx, rx) = bounded::<()>(1);
            producers.push(rx);
            g.spawn(move || {
                let mut i = 0i64;
                while !stop.load(Ordering::Relaxed) {
                    b.send(i)
                        .unwrap_or_else(|_| die("select-order: send on a disconnected channel"));
                    i += 1;
                }
                drop(tx);
            });
        }
        {
            // C2
            let (b, tick) = (b_rx.clone(), tick.clone());
            g.spawn(move || {
                let mut sum = 0i64;
                let mut i = 1i64;
                while let Ok(v) = b.recv() {
                    sum = sum.wrapping_add(v);
                    if i % PUBLISH == 0 {
                        tick(1, i);
                    }
                    i += 1;
                }
                std::hint::black_box(sum);
            });
        }
        // Only the threads hold the channels' ends from here on.
        drop((a_tx, b_tx, a_rx, b_rx, tick));
        let start = g.open();
        t0.store(
            ((start - epoch).as_nanos() as u64).max(1),
            Ordering::Release,
        );
        let _ = over_rx.recv(); // Err once a consumer dropped the sender
        let (c1, c2) = (
            cnt[0].0.load(Ordering::Relaxed),
            cnt[1].0.load(Ordering::Relaxed),
        );
        let d = start.elapsed();
        stop.store(true, Ordering::Relaxed);
        // Wait for the producers only (as Go's peer); the consumers drain
        // what is left and end when the channels disconnect.
        for rx in producers {
            let _ = rx.recv();
        }
        (c1, c2, d)
    };
    run((window / 20).max(Duration::from_millis(1)));
    let (c1, c2, d) = run(window);
    let cfg = format!("P{p}-cap{cap}");
    let s = d.as_secs_f64();
    result(
        "select-order",
        &format!("{cfg}-total"),
        (c1 + c2) as f64 / s,
        "ops/s",
    );
    result(
        "select-order",
        &format!("{cfg}-pair1"),
        c1 as f64 / s,
        "ops/s",
    );
    result(
        "select-order",
        &format!("{cfg}-pair2"),
        c2 as f64 / s,
        "ops/s",
    );
}

// ---- chan-pc -------------------------------------------------------------------

/// bench/SHAPES.md, chan-pc: the work loop, exactly the Go peer's.
fn work(mut x: u64, limit: u64) -> u64 {
    if limit == 0 {
        return x;
    }
    loop {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if x < limit {
            return x;
        }
    }
}

fn work_limit(mean: i64) -> u64 {
    if mean <= 0 {
        0
    } else {
        u64::MAX / mean as u64
    }
}

fn work_seed(k: usize) -> u64 {
    (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

static WORK_SINK: AtomicU64 = AtomicU64::new(0);

fn chan_pc(p: usize, n: usize, pairs: usize, cap: usize, mean: i64) {
    let limit = work_limit(mean);
    let q = (n / pairs).max(1);
    let run = |q: usize| -> Duration {
        let (tx, rx) = bounded::<i64>(cap);
        let sums: Arc<Vec<AtomicI64>> = Arc::new((0..pairs).map(|_| AtomicI64::new(0)).collect());
        let mut g = Group::new(2 * pairs);
        for k in 0..pairs {
            let tx = tx.clone();
            g.spawn(move || {
                let mut x = work_seed(k);
                for i in 0..q {
                    tx.send(i as i64)
                        .unwrap_or_else(|_| die("chan-pc: send on a disconnected channel"));
                    x = work(x, limit);
                }
                WORK_SINK.fetch_add(x, Ordering::Relaxed);
            });
        }
        for c in 0..pairs {
            let (rx, sums) = (rx.clone(), sums.clone());
            g.spawn(move || {
                let mut x = work_seed(pairs + c);
                let mut sum = 0i64;
                for _ in 0..q {
                    sum += rx
                        .recv()
                        .unwrap_or_else(|_| die("chan-pc: receive from a disconnected channel"));
                    x = work(x, limit);
                }
                sums[c].store(sum, Ordering::Relaxed);
                WORK_SINK.fetch_add(x, Ordering::Relaxed);
            });
        }
        let d = g.run();
        let total: i64 = sums.iter().map(|s| s.load(Ordering::Relaxed)).sum();
        check_sum("chan-pc", total, pairs as i64 * triangle(q));
        d
    };
    run((q / 20).max(1));
    let d = run(q);
    result(
        "chan-pc",
        &format!("P{p}-N{pairs}-cap{cap}-w{mean}"),
        per_second(q * pairs, d),
        "ops/s",
    );
}

// ---- elastic -------------------------------------------------------------------

/// The article's four benchmarks; Seq and Con use crossbeam's own unbounded
/// channel (no emulation needed, as for wuc's CHAN_UNBOUNDED).
fn elastic(p: usize, n: usize, mode: &str) {
    let run = |n: usize| -> Duration {
        let (tx, rx) = match mode {
            "FixedNoBuf" => bounded::<i64>(0),
            "Fixed1024" => bounded::<i64>(1024),
            "Seq" | "Con" => unbounded::<i64>(),
            _ => die(&format!(
                "elastic: -mode must be FixedNoBuf, Fixed1024, Seq or Con, not {mode:?}"
            )),
        };
        // Seq: the consumer starts once the producer has closed its end;
        // `produced` disconnects when the producer drops its sender.
        let (produced_tx, produced_rx) = bounded::<()>(0);
        let seq = mode == "Seq";
        let mut g = Group::new(2);
        g.spawn(move || {
            for i in 0..n {
                tx.send(i as i64)
                    .unwrap_or_else(|_| die("elastic: send on a disconnected channel"));
            }
            drop(tx);
            drop(produced_tx);
        });
        g.spawn(move || {
            if seq {
                let _ = produced_rx.recv();
            }
            for i in 0..n {
                match rx.recv() {
                    Ok(v) if v == i as i64 => {}
                    got => {
                        eprintln!("wucpeer-crossbeam elastic: received {got:?}, want {i}");
                        exit(1);
                    }
                }
            }
        });
        g.run()
    };
    run((n / 20).max(1));
    let d = run(n);
    result(
        "elastic",
        &format!("P{p}-{mode}"),
        per_second(n, d),
        "ops/s",
    );
}

// ---- pingpong --------------------------------------------------------------------

/// The Go peer's pingpong: a round trip over two rendezvous channels between
/// main and one thread (paired with wuc's pingpong-chan and pingpong).
fn pingpong(p: usize, iters: usize) {
    let run = |n: usize| -> Duration {
        let (ping_tx, ping_rx) = bounded::<()>(0);
        let (pong_tx, pong_rx) = bounded::<()>(0);
        let t = thread::spawn(move || {
            for _ in 0..n {
                ping_rx.recv().unwrap();
                pong_tx.send(()).unwrap();
            }
        });
        let t0 = Instant::now();
        for _ in 0..n {
            ping_tx.send(()).unwrap();
            pong_rx.recv().unwrap();
        }
        let d = t0.elapsed();
        t.join().unwrap();
        d
    };
    run(iters / 20 + 1);
    let d = run(iters);
    result(
        "pingpong",
        &format!("P{p}"),
        d.as_nanos() as f64 / iters as f64,
        "ns/op",
    );
}

// ---- flags -----------------------------------------------------------------------

const USAGE: &str = "usage: wucpeer-crossbeam BENCH [flags]   (P from PEER_PROCS)
  select-contend|select-spin [-n N] [-t PAIRS] [-c 2|4|8] [-cap K]
  select-order [-d MS] [-cap K]
  chan-pc [-n N] [-t PAIRS] [-cap K] [-w MEAN]
  elastic [-n N] [-mode FixedNoBuf|Fixed1024|Seq|Con]
  pingpong [-n N]
(bench/SHAPES.md describes each benchmark and its flags)";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first().cloned() else {
        eprintln!("{USAGE}");
        exit(2);
    };
    let (mut iters, mut millis, mut threads, mut chans, mut cap, mut mean) =
        (0usize, 500u64, None::<usize>, 2usize, None::<usize>, 100i64);
    let mut mode = String::from("FixedNoBuf");
    let mut it = args[1..].iter();
    while let Some(flag) = it.next() {
        let val = it
            .next()
            .unwrap_or_else(|| die(&format!("{flag} needs a value\n{USAGE}")));
        let num = || {
            val.parse::<i64>()
                .unwrap_or_else(|_| die(&format!("{flag}: not a number: {val}")))
        };
        match flag.trim_start_matches('-') {
            "n" => iters = num().max(0) as usize,
            "d" => millis = num().max(1) as u64,
            "t" => threads = Some(num().max(1) as usize),
            "c" => chans = num().max(0) as usize,
            "cap" => cap = Some(num().max(0) as usize),
            "w" => mean = num(),
            "mode" => mode = val.clone(),
            _ => die(&format!("unknown flag {flag}\n{USAGE}")),
        }
    }
    let p = setup_procs();
    let n = |def: usize| if iters > 0 { iters } else { def };
    // Threads per side: max(1, workers/2) unless -t (as the Go peer).
    let per_side = threads.unwrap_or((p / 2).max(1));
    match name.as_str() {
        "select-contend" => {
            let k = cap.unwrap_or(0);
            let def = 4_000_000 / chans.max(1) * if k > 0 { 2 } else { 1 };
            select_contend(&name, p, n(def), per_side, chans, k, false)
        }
        "select-spin" => select_contend(
            &name,
            p,
            n(4_000_000 / chans.max(1)),
            per_side,
            chans,
            cap.unwrap_or(64),
            true,
        ),
        "select-order" => select_order(p, Duration::from_millis(millis), cap.unwrap_or(0)),
        "chan-pc" => chan_pc(p, n(1_000_000), per_side, cap.unwrap_or(0), mean),
        "elastic" => {
            let def = match mode.as_str() {
                "Fixed1024" => 6_000_000,
                "FixedNoBuf" => 2_000_000,
                _ => 4_000_000,
            };
            elastic(p, n(def), &mode)
        }
        "pingpong" => pingpong(p, n(3_000_000)),
        _ => {
            eprintln!("wucpeer-crossbeam: unknown benchmark {name:?}\n{USAGE}");
            exit(2);
        }
    }
}
