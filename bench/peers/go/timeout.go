package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// timeoutLoop is a receive-or-timeout in a loop where the timeout (1 s)
// never fires; n receives.
//
// Shapes:
//   - "ready": one goroutine, a channel of capacity 1 that it refills itself
//     before every receive, so the receive is always ready and nothing blocks:
//     this isolates the cost of the timeout clause on the fast path.
//   - "pc": a producer goroutine sends on an unbuffered channel; the consumer
//     often blocks, so the timer is armed and disarmed for real.
//
// Timers (the Go side's ways of writing the timeout):
//   - "after": time.After(1s) in every select (the common way);
//   - "reuse": one time.Timer, Reset to 1s before every select (the fast way;
//     since Go 1.23 Reset needs no Stop-and-drain);
//   - "none": a plain receive, the baseline without a timeout.
func timeoutLoop(n int, shape, timer string) {
	const limit = time.Second
	expire := func() {
		fmt.Fprintln(os.Stderr, "wucpeer timeout-loop: the timeout fired")
		os.Exit(1)
	}
	// receive is the consumer's loop over the q receives.
	var receive func(q int, ch chan int64) int64
	switch timer {
	case "after":
		receive = func(q int, ch chan int64) int64 {
			var sum int64
			for i := 0; i < q; i++ {
				if shape == "ready" {
					ch <- int64(i)
				}
				select {
				case v := <-ch:
					sum += v
				case <-time.After(limit):
					expire()
				}
			}
			return sum
		}
	case "reuse":
		receive = func(q int, ch chan int64) int64 {
			var sum int64
			t := time.NewTimer(limit)
			defer t.Stop()
			for i := 0; i < q; i++ {
				if shape == "ready" {
					ch <- int64(i)
				}
				t.Reset(limit)
				select {
				case v := <-ch:
					sum += v
				case <-t.C:
					expire()
				}
			}
			return sum
		}
	case "none":
		receive = func(q int, ch chan int64) int64 {
			var sum int64
			for i := 0; i < q; i++ {
				if shape == "ready" {
					ch <- int64(i)
				}
				sum += <-ch
			}
			return sum
		}
	default:
		die("timeout-loop: -timer must be after, reuse or none, not %q", timer)
	}

	run := func(q int) time.Duration {
		var sum int64
		g := newGroup()
		switch shape {
		case "ready":
			ch := make(chan int64, 1)
			g.spawn(func() { sum = receive(q, ch) })
		case "pc":
			ch := make(chan int64)
			g.spawn(func() {
				for i := 0; i < q; i++ {
					ch <- int64(i)
				}
			})
			g.spawn(func() { sum = receive(q, ch) })
		default:
			die("timeout-loop: -shape must be ready or pc, not %q", shape)
		}
		d := g.run()
		checkSum("timeout-loop", sum, triangle(q))
		return d
	}
	d := warmAndTime(n, run)
	cfg := fmt.Sprintf("P%d-%s-%s", procs(), shape, timer)
	if timer != "none" && asyncTimerChan() {
		cfg += "-async"
	}
	result("timeout-loop", cfg, perSecond(n, d), "ops/s")
}

// asyncTimerChan reports whether GODEBUG asks for the timer channels of
// Go <= 1.22 (asynctimerchan=1): buffered, and a timer stays alive until it
// fires.  Reset is cheaper there, time.After much dearer, so the harness may
// run that setting as a config of its own; the config string says which.
func asyncTimerChan() bool {
	for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if strings.TrimSpace(kv) == "asynctimerchan=1" {
			return true
		}
	}
	return false
}
