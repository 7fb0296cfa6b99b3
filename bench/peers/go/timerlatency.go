package main

import (
	"fmt"
	"slices"
	"sync/atomic"
	"time"
)

// timerLatency: one goroutine sleeps d, `rounds` times, and records how long
// after each deadline it woke, while `compute` goroutines run a loop without
// calls (so only Go's asynchronous preemption takes their P away).  Reports
// the p50 and p99 lateness in µs and the rounds completed (bench/SHAPES.md,
// "timer-latency"; the wuc mirror waits in `waituntil (timeout(d)) ;`).
//
// The compute goroutines stop by themselves after a budget of rounds·d +
// 500 ms, as on the wuc side (where, without preemption, nothing else ends
// them); the sleeper starts no round after it.
func timerLatency(rounds int, d time.Duration, compute int) {
	run := func(rounds, compute int) []time.Duration {
		budget := time.Duration(rounds)*d + 500*time.Millisecond
		armed := make(chan struct{})
		var over atomic.Bool
		var sink atomic.Uint64
		late := make([]time.Duration, 0, rounds)
		g := newGroup()
		g.spawn(func() {
			close(armed) // computing starts now: the first round is under load
			for i := 0; i < rounds && g.since() < budget; i++ {
				t0 := time.Now()
				time.Sleep(d)
				late = append(late, time.Since(t0)-d)
			}
			over.Store(true)
		})
		for k := 0; k < compute; k++ {
			g.spawn(func() {
				<-armed
				x := workSeed(1)
				for !over.Load() && g.since() < budget {
					for i := 0; i < 1<<16; i++ {
						x ^= x << 13
						x ^= x >> 7
						x ^= x << 17
					}
				}
				sink.Add(x)
			})
		}
		g.run()
		slices.Sort(late)
		return late
	}
	run(max(rounds/20, 1), 0) // warm-up: the sleeper alone
	late := run(rounds, compute)

	cfg := fmt.Sprintf("P%d-N%d-%dus", procs(), compute, d.Microseconds())
	if d%time.Millisecond == 0 {
		cfg = fmt.Sprintf("P%d-N%d-%dms", procs(), compute, d.Milliseconds())
	}
	// Nearest rank, as the wuc side: the smallest value with at least pct %
	// of the rounds at or below it.
	pctUs := func(pct int) float64 {
		k := max((len(late)*pct+99)/100, 1)
		return float64(late[k-1].Nanoseconds()) / 1e3
	}
	result("timer-latency", cfg+"-p50", pctUs(50), "us")
	result("timer-latency", cfg+"-p99", pctUs(99), "us")
	result("timer-latency", cfg+"-rounds", float64(len(late)), "rounds")
}
