// Command wucpeer holds the Go peers of the wuc benchmarks (bench/*.c): the
// same workloads, the same iteration flags and the same result line,
//
//	RESULT name=<bench> config=<cfg> value=<number> unit=<unit>
//
// Usage: wucpeer BENCH [-n ITERATIONS] [-t THREADS] [benchmark flags], with
// GOMAXPROCS set by the caller (the harness sets it to the wuc run's
// WUC_PROCESSORS).  One invocation runs one configuration.  The channel,
// select, future and timeout benchmarks, their flags and the exact shapes the
// wuc mirrors must have are in bench/SHAPES.md.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func result(name, config string, value float64, unit string) {
	fmt.Printf("RESULT name=%s config=%s value=%.3f unit=%s\n", name, config, value, unit)
}

func procs() int { return runtime.GOMAXPROCS(0) }

// switchBench: Go has no bare context switch to call, so the nearest thing is
// a goroutine switch: an unbuffered-channel ping-pong on one P, reported per
// half round trip (one direction).  It includes channel work the C `switch`
// does not do; it is a reference point, not a like-for-like peer.
func switchBench(iters int) {
	roundTrips := (iters + 1) / 2
	run := func(n int) time.Duration {
		ping, pong := make(chan struct{}), make(chan struct{})
		go func() {
			for i := 0; i < n; i++ {
				<-ping
				pong <- struct{}{}
			}
		}()
		t0 := time.Now()
		for i := 0; i < n; i++ {
			ping <- struct{}{}
			<-pong
		}
		return time.Since(t0)
	}
	run(roundTrips/20 + 1)
	d := run(roundTrips)
	result("switch", fmt.Sprintf("goroutine-half-round-trip-P%d", procs()),
		float64(d.Nanoseconds())/(2*float64(roundTrips)), "ns/op")
}

// yieldBench: runtime.Gosched in a loop in `threads` goroutines, alone
// (threads == 1) or yielding to each other; main waits, as on the wuc side
// (bench/yield.c says why wuc's lone yielder must be a spawned thread).
func yieldBench(iters, threads int) {
	perThread := iters / threads
	if perThread < 1 {
		perThread = 1
	}
	run := func(n int) time.Duration {
		t0 := time.Now()
		var wg sync.WaitGroup
		for t := 0; t < threads; t++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < n; i++ {
					runtime.Gosched()
				}
			}()
		}
		wg.Wait()
		return time.Since(t0)
	}
	run(perThread/20 + 1)
	d := run(perThread)
	result("yield", fmt.Sprintf("P%d-T%d", procs(), threads),
		float64(d.Nanoseconds())/float64(perThread*threads), "ns/op")
}

// pingpongBench: a round trip over two unbuffered channels between main and
// one goroutine.
func pingpongBench(iters int) {
	run := func(n int) time.Duration {
		ping, pong := make(chan struct{}), make(chan struct{})
		go func() {
			for i := 0; i < n; i++ {
				<-ping
				pong <- struct{}{}
			}
		}()
		t0 := time.Now()
		for i := 0; i < n; i++ {
			ping <- struct{}{}
			<-pong
		}
		return time.Since(t0)
	}
	run(iters/20 + 1)
	d := run(iters)
	result("pingpong", fmt.Sprintf("P%d", procs()), float64(d.Nanoseconds())/float64(iters), "ns/op")
}

// spawnBench: start a goroutine that does nothing and wait for it, in a loop
// (the shape of uthread_spawn + uthread_join).
func spawnBench(iters int) {
	run := func(n int) time.Duration {
		var wg sync.WaitGroup
		t0 := time.Now()
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() { wg.Done() }()
			wg.Wait()
		}
		return time.Since(t0)
	}
	run(iters/20 + 1)
	d := run(iters)
	result("spawn", fmt.Sprintf("P%d", procs()), float64(d.Nanoseconds())/float64(iters), "ns/op")
}

// procStatusBytes reads a "VmRSS:"-style field of /proc/self/status in bytes.
func procStatusBytes(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return -1
			}
			return kb * 1024
		}
	}
	return -1
}

// rssBench: n goroutines each blocked receiving on its own channel (the peer
// of a wuc thread parked on its own flag), then all woken and waited for.
func rssBench(n int) {
	chans := make([]chan struct{}, n)
	for i := range chans {
		chans[i] = make(chan struct{})
	}
	var blocked atomic.Int64
	var wg sync.WaitGroup

	rss0 := procStatusBytes("VmRSS")
	t0 := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(ch chan struct{}) {
			defer wg.Done()
			blocked.Add(1)
			<-ch
		}(chans[i])
	}
	for blocked.Load() < int64(n) {
		runtime.Gosched()
	}
	t1 := time.Now()
	// As in the C side: let the last few get from the count into the receive.
	time.Sleep(20 * time.Millisecond)
	rss := procStatusBytes("VmRSS")
	hwm := procStatusBytes("VmHWM")
	pte := procStatusBytes("VmPTE")

	t2 := time.Now()
	for _, ch := range chans {
		ch <- struct{}{}
	}
	wg.Wait()
	t3 := time.Now()

	mib := func(b int64) float64 { return float64(b) / (1024 * 1024) }
	emit := func(what string, v float64, unit string) {
		result("rss100k", fmt.Sprintf("P%d-%s", procs(), what), v, unit)
	}
	emit("VmRSS", mib(rss), "MiB")
	emit("VmHWM", mib(hwm), "MiB")
	emit("VmPTE", mib(pte), "MiB")
	emit("bytes-per-thread", float64(rss-rss0)/float64(n), "B")
	emit("spawn+park", float64(t1.Sub(t0).Nanoseconds())/float64(n), "ns/thread")
	emit("wake+join", float64(t3.Sub(t2).Nanoseconds())/float64(n), "ns/thread")
}

const usage = `usage: wucpeer BENCH [flags]
  switch|pingpong|spawn|rss100k [-n N]
  yield [-n N] [-t THREADS]
  select-contend|select-spin [-n N] [-t PAIRS] [-c 2|4|8] [-cap K]
  select-order [-d MS] [-cap K]
  select-dynamic [-n N] [-c CHANNELS] [-cap K] [-mode reflect|fanin]
  select-fair -shape starve [-n N] [-c 2|4|8]   (its contend shape's peer is select-contend)
  futures [-n ROUNDS] [-pred or|and|and-or|or-and]
  chan-pc [-n N] [-t PAIRS] [-cap K] [-w MEAN]
  work [-n N] [-w MEAN]
  elastic [-n N] [-mode FixedNoBuf|Fixed1024|Seq|Con]
  timeout-loop [-n N] [-shape ready|pc] [-timer after|reuse|none]
  shared-done [-n N] [-t THREADS] [-shape pairs|self] [-cap K] [-done shared|private]
  timer-latency [-n ROUNDS] [-t COMPUTE] [-us MICROSECONDS]
  tcp-echo [-n ROUND_TRIPS] [-c CONNECTIONS] [-s BYTES]
  idle-conns [-c CONNECTIONS]
  httpd -port PORT -file PATH
(bench/SHAPES.md describes each benchmark and its flags)`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	name := os.Args[1]
	if run, ok := netBenches[name]; ok { // netbench.go: flags of their own
		run(os.Args[2:])
		return
	}
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	fs.Usage = func() { fmt.Fprintln(os.Stderr, usage) }
	iters := fs.Int("n", 0, "iterations (0: the benchmark's default)")
	millis := fs.Int("d", 500, "measuring window in milliseconds (select-order)")
	threads := fs.Int("t", 2, "threads (yield); producers = consumers (select-contend, select-spin, chan-pc); goroutines or pairs (shared-done); compute goroutines (timer-latency)")
	chans := fs.Int("c", 2, "channels in every select: 2, 4 or 8 (select-contend, select-spin)")
	capacity := fs.Int("cap", -1, "channel capacity (-1: the benchmark's default)")
	mean := fs.Int("w", 100, "mean iterations of the work loop between operations (chan-pc, work)")
	pred := fs.String("pred", "or", "futures predicate: or, and, and-or, or-and")
	mode := fs.String("mode", "FixedNoBuf", "elastic benchmark: FixedNoBuf, Fixed1024, Seq, Con")
	shape := fs.String("shape", "", "timeout-loop: ready or pc; shared-done: pairs or self")
	timer := fs.String("timer", "after", "timeout-loop: after, reuse or none")
	done := fs.String("done", "shared", "shared-done: shared or private shutdown channel")
	micros := fs.Int("us", 10000, "timer-latency: the timeout in microseconds")
	fs.Parse(os.Args[2:])
	if fs.NArg() > 0 {
		die("%s: unexpected argument %q", name, fs.Arg(0))
	}
	n := func(def int) int {
		if *iters > 0 {
			return *iters
		}
		return def
	}
	// -t keeps its old default of 2 for yield; elsewhere the default is
	// derived from GOMAXPROCS, as the thesis splits the cores evenly.
	tSet := false
	fs.Visit(func(f *flag.Flag) { tSet = tSet || f.Name == "t" })
	perSide := func() int {
		if tSet {
			return max(*threads, 1)
		}
		return max(procs()/2, 1)
	}
	capOr := func(def int) int {
		if *capacity >= 0 {
			return *capacity
		}
		return def
	}
	shapeOr := func(def string) string {
		if *shape != "" {
			return *shape
		}
		return def
	}
	// Defaults match the C programs'; the new ones make a run take roughly
	// 0.3-1 s on the 2-core development machine (bench/SHAPES.md).
	switch name {
	case "switch":
		switchBench(n(20000000))
	case "yield":
		yieldBench(n(10000000), *threads)
	case "pingpong":
		pingpongBench(n(3000000))
	case "spawn":
		spawnBench(n(1000000))
	case "rss100k":
		rssBench(n(100000))
	case "select-contend":
		// A select costs about linearly in its channel count; buffered
		// channels go about twice as fast as rendezvous ones.
		c := capOr(0)
		def := 4000000 / max(*chans, 1)
		if c > 0 {
			def *= 2
		}
		selectContend(name, n(def), perSide(), *chans, c, false)
	case "select-spin":
		selectContend(name, n(4000000/max(*chans, 1)), perSide(), *chans, capOr(64), true)
	case "select-order":
		selectOrder(time.Duration(max(*millis, 1))*time.Millisecond, capOr(0))
	case "select-dynamic":
		m := *mode
		if m == "FixedNoBuf" { // the flag's default is elastic's
			m = "reflect"
		}
		selectDynamic(n(max(4000000/(*chans+8), 2000)), *chans, capOr(1), m)
	case "select-fair":
		if shapeOr("starve") != "starve" {
			die("select-fair: only -shape starve has a peer here; contend's is select-contend")
		}
		selectFairStarve(n(1000000), *chans)
	case "futures":
		futuresBench(n(500000), *pred)
	case "chan-pc":
		chanPC(n(1000000), perSide(), capOr(0), *mean)
	case "work":
		workBench(n(2000000), *mean)
	case "elastic":
		def := map[string]int{"FixedNoBuf": 2000000, "Fixed1024": 6000000, "Seq": 4000000, "Con": 4000000}[*mode]
		elasticBench(n(max(def, 1)), *mode)
	case "timeout-loop":
		s := shapeOr("ready")
		def := map[string]int{"after": 1000000, "reuse": 2000000, "none": 10000000}[*timer]
		if s == "pc" {
			def /= 2
			if *timer == "none" {
				def /= 2
			}
		}
		timeoutLoop(n(max(def, 1)), s, *timer)
	case "shared-done":
		s := shapeOr("pairs")
		t := perSide()
		if s == "self" && !tSet {
			t = procs() // the b.RunParallel: one goroutine per P
		}
		if *done != "shared" && *done != "private" {
			die("shared-done: -done must be shared or private, not %q", *done)
		}
		def := 2000000
		if s == "self" {
			def = 4000000
		} else if capOr(0) == 0 {
			def = 1000000
		}
		sharedDone(n(def), t, capOr(0), s, *done == "shared")
	case "timer-latency":
		compute := procs() // one per P, so the sleeper's P computes too
		if tSet {
			compute = max(*threads, 0)
		}
		timerLatency(n(100), time.Duration(max(*micros, 1))*time.Microsecond, compute)
	default:
		fmt.Fprintf(os.Stderr, "wucpeer: unknown benchmark %q\n%s\n", name, usage)
		os.Exit(2)
	}
}
