package main

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// group starts a set of goroutines behind one start barrier, so that the
// timed interval covers the work only: not goroutine creation, not channel
// allocation.  bench/SHAPES.md ("Timing") gives the wuc equivalent.
type group struct {
	start chan struct{}
	ready sync.WaitGroup
	done  sync.WaitGroup
	t0    time.Time // set before start is closed; read by members after it
}

func newGroup() *group { return &group{start: make(chan struct{})} }

// spawn adds a member; f runs once the barrier opens.
func (g *group) spawn(f func()) {
	g.ready.Add(1)
	g.done.Add(1)
	go func() {
		defer g.done.Done()
		g.ready.Done()
		<-g.start
		f()
	}()
}

// run opens the barrier once every member waits at it and returns the wall
// time until the last member has finished.
func (g *group) run() time.Duration {
	g.ready.Wait()
	g.t0 = time.Now()
	close(g.start)
	g.done.Wait()
	return time.Since(g.t0)
}

// since is the time from the barrier opening to now (for members).
func (g *group) since() time.Duration { return time.Since(g.t0) }

// warmAndTime runs body once at 1/20 of the size (warm-up, as the other
// peers do) and returns the duration of a second, full-size run.
func warmAndTime(n int, body func(n int) time.Duration) time.Duration {
	body(max(n/20, 1))
	return body(n)
}

func perSecond(count int, d time.Duration) float64 { return float64(count) / d.Seconds() }

func die(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "wucpeer: "+format+"\n", args...)
	os.Exit(2)
}

// checkSum stops the program when the consumers' total of the received values
// is not what the producers sent: a lost or duplicated element.
func checkSum(bench string, got, want int64) {
	if got != want {
		fmt.Fprintf(os.Stderr, "wucpeer %s: received values sum to %d, want %d\n", bench, got, want)
		os.Exit(1)
	}
}

// triangle is 0 + 1 + ... + (q-1): what one producer sending its loop index
// q times contributes to the checksum.
func triangle(q int) int64 { return int64(q) * int64(q-1) / 2 }

// workSeed is the work-loop state of thread k (producers 0..N-1, consumers
// N..2N-1); odd multiplier, so never 0 for any k a benchmark uses.
func workSeed(k int) uint64 { return uint64(k+1) * 0x9E3779B97F4A7C15 }

// work is the local, non-shared work between channel operations in chan-pc
// (Kotlin paper: "100 non-contended loop cycles on average, geometric
// distribution"): xorshift64 steps until the state falls below
// limit = MaxUint64/mean, i.e. a geometric number of iterations with mean
// `mean`.  The C mirror must be this loop exactly (bench/SHAPES.md, chan-pc).
func work(x uint64, limit uint64) uint64 {
	if limit == 0 {
		return x
	}
	for {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if x < limit {
			return x
		}
	}
}

// workLimit turns a mean iteration count into work's limit (0: no work).
func workLimit(mean int) uint64 {
	if mean <= 0 {
		return 0
	}
	return ^uint64(0) / uint64(mean)
}
