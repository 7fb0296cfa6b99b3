package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// The select statements below are written out for each channel count because
// a Go select has a fixed set of cases (reflect.Select would be several
// times slower and is not what a Go programmer writes).  Each one is the peer
// of one wuc waituntil statement; bench/SHAPES.md lists the pairs.

// sendAny blocks until v went out on one of chs.
func sendAny(chs []chan int64, v int64) {
	switch len(chs) {
	case 2:
		select {
		case chs[0] <- v:
		case chs[1] <- v:
		}
	case 4:
		select {
		case chs[0] <- v:
		case chs[1] <- v:
		case chs[2] <- v:
		case chs[3] <- v:
		}
	case 8:
		select {
		case chs[0] <- v:
		case chs[1] <- v:
		case chs[2] <- v:
		case chs[3] <- v:
		case chs[4] <- v:
		case chs[5] <- v:
		case chs[6] <- v:
		case chs[7] <- v:
		}
	}
}

// recvAny blocks until a value came from one of chs.
func recvAny(chs []chan int64) int64 {
	var v int64
	switch len(chs) {
	case 2:
		select {
		case v = <-chs[0]:
		case v = <-chs[1]:
		}
	case 4:
		select {
		case v = <-chs[0]:
		case v = <-chs[1]:
		case v = <-chs[2]:
		case v = <-chs[3]:
		}
	case 8:
		select {
		case v = <-chs[0]:
		case v = <-chs[1]:
		case v = <-chs[2]:
		case v = <-chs[3]:
		case v = <-chs[4]:
		case v = <-chs[5]:
		case v = <-chs[6]:
		case v = <-chs[7]:
		}
	}
	return v
}

// trySendAny is sendAny with a default clause: one poll, never blocks.
func trySendAny(chs []chan int64, v int64) bool {
	switch len(chs) {
	case 2:
		select {
		case chs[0] <- v:
		case chs[1] <- v:
		default:
			return false
		}
	case 4:
		select {
		case chs[0] <- v:
		case chs[1] <- v:
		case chs[2] <- v:
		case chs[3] <- v:
		default:
			return false
		}
	case 8:
		select {
		case chs[0] <- v:
		case chs[1] <- v:
		case chs[2] <- v:
		case chs[3] <- v:
		case chs[4] <- v:
		case chs[5] <- v:
		case chs[6] <- v:
		case chs[7] <- v:
		default:
			return false
		}
	}
	return true
}

// tryRecvAny is recvAny with a default clause.
func tryRecvAny(chs []chan int64) (int64, bool) {
	var v int64
	switch len(chs) {
	case 2:
		select {
		case v = <-chs[0]:
		case v = <-chs[1]:
		default:
			return 0, false
		}
	case 4:
		select {
		case v = <-chs[0]:
		case v = <-chs[1]:
		case v = <-chs[2]:
		case v = <-chs[3]:
		default:
			return 0, false
		}
	case 8:
		select {
		case v = <-chs[0]:
		case v = <-chs[1]:
		case v = <-chs[2]:
		case v = <-chs[3]:
		case v = <-chs[4]:
		case v = <-chs[5]:
		case v = <-chs[6]:
		case v = <-chs[7]:
		default:
			return 0, false
		}
	}
	return v, true
}

func makeChans(k, capacity int) []chan int64 {
	chs := make([]chan int64, k)
	for i := range chs {
		chs[i] = make(chan int64, capacity)
	}
	return chs
}

// selectContend is the thesis channel benchmark: `pairs` producers and as
// many consumers, every operation a select over all nch channels; with spin,
// every select has a default clause and is retried until it succeeds (busy
// polling).  n successful receives in total, n/pairs per consumer.
func selectContend(name string, n, pairs, nch, capacity int, spin bool) {
	if nch != 2 && nch != 4 && nch != 8 {
		die("%s: -c must be 2, 4 or 8, not %d", name, nch)
	}
	if spin && capacity == 0 {
		// A rendezvous needs a partner blocked in the channel; when both
		// sides only poll, no operation ever succeeds.
		die("%s: -cap 0 livelocks (both sides poll, nobody waits); use a buffered capacity", name)
	}
	q := max(n/pairs, 1)
	run := func(q int) time.Duration {
		chs := makeChans(nch, capacity)
		sums := make([]int64, pairs)
		g := newGroup()
		for p := 0; p < pairs; p++ {
			g.spawn(func() {
				for i := 0; i < q; i++ {
					if spin {
						for !trySendAny(chs, int64(i)) {
						}
					} else {
						sendAny(chs, int64(i))
					}
				}
			})
		}
		for c := 0; c < pairs; c++ {
			g.spawn(func() {
				var sum int64
				for i := 0; i < q; i++ {
					if spin {
						for {
							v, ok := tryRecvAny(chs)
							if ok {
								sum += v
								break
							}
						}
					} else {
						sum += recvAny(chs)
					}
				}
				sums[c] = sum
			})
		}
		d := g.run()
		var total int64
		for _, s := range sums {
			total += s
		}
		checkSum(name, total, int64(pairs)*triangle(q))
		return d
	}
	run(max(q/20, 1))
	d := run(q)
	result(name, fmt.Sprintf("P%d-N%d-C%d-cap%d", procs(), pairs, nch, capacity),
		perSecond(q*pairs, d), "ops/s")
}

// selectOrder is the thesis's pathological case for Go's select: P1 and C1
// select over channels A and B (A first), P2 and C2 use only B; elements may
// cross between the pairs through B.  It runs for a fixed time, not a fixed
// count: with buffered channels, fixed quotas could strand elements in A
// after C1 (the only reader of A) had received its share.  Reports the
// receives per second of both consumers together and of each one.
func selectOrder(window time.Duration, capacity int) {
	// counter is one consumer's receive count, published every 256
	// receives, on its own cache line.
	type counter struct {
		n atomic.Int64
		_ [56]byte
	}
	const publish = 256
	run := func(window time.Duration) (c1, c2 int64, d time.Duration) {
		a, b := make(chan int64, capacity), make(chan int64, capacity)
		var stop atomic.Bool
		var cnt [2]counter
		var producers sync.WaitGroup
		// The consumers watch the clock themselves (every 256 receives) and
		// the first to see the window over wakes main, so the measurement
		// needs no timer and no turn for main while the window lasts (a
		// cooperative scheduler need not give it one).
		over := make(chan struct{})
		var once sync.Once
		g := newGroup()
		tick := func(k int, i int64) {
			cnt[k].n.Store(i)
			if g.since() >= window {
				once.Do(func() { close(over) })
			}
		}
		producers.Add(2)
		g.spawn(func() { // P1
			defer producers.Done()
			for i := int64(0); !stop.Load(); i++ {
				select {
				case a <- i:
				case b <- i:
				}
			}
		})
		g.spawn(func() { // C1
			var sum int64
			for i := int64(1); ; i++ {
				select {
				case v := <-a:
					sum += v
				case v := <-b:
					sum += v
				}
				if i%publish == 0 {
					tick(0, i)
				}
			}
		})
		g.spawn(func() { // P2
			defer producers.Done()
			for i := int64(0); !stop.Load(); i++ {
				b <- i
			}
		})
		g.spawn(func() { // C2
			var sum int64
			for i := int64(1); ; i++ {
				sum += <-b
				if i%publish == 0 {
					tick(1, i)
				}
			}
		})
		// Not g.run: the consumers never finish.  When the window is over the
		// producers stop; the consumers drain what is left and then stay
		// blocked until the program exits.
		g.ready.Wait()
		g.t0 = time.Now()
		close(g.start)
		<-over
		c1, c2 = cnt[0].n.Load(), cnt[1].n.Load()
		d = time.Since(g.t0)
		stop.Store(true)
		producers.Wait()
		return c1, c2, d
	}
	run(max(window/20, time.Millisecond))
	c1, c2, d := run(window)
	cfg := fmt.Sprintf("P%d-cap%d", procs(), capacity)
	result("select-order", cfg+"-total", float64(c1+c2)/d.Seconds(), "ops/s")
	result("select-order", cfg+"-pair1", float64(c1)/d.Seconds(), "ops/s")
	result("select-order", cfg+"-pair2", float64(c2)/d.Seconds(), "ops/s")
}

// sharedDone is the shape of Go issue #20351: every select also waits on a
// shutdown channel, which is closed only after the measurement.  With shared,
// all goroutines wait on the same one (its lock is taken by every select);
// with private, each goroutine has its own (the control).
//
//   - shape "pairs": `threads` producer/consumer pairs, pair i on its own
//     channel ch[i]; n receives in total.
//   - shape "self": the benchmark as written: `threads` goroutines,
//     each alternately sending to and receiving from its own cap-1 channel in
//     one select; n selects in total.
func sharedDone(n, threads, capacity int, shape string, shared bool) {
	doneName := map[bool]string{true: "shared", false: "private"}[shared]
	q := max(n/threads, 1)
	run := func(q int) time.Duration {
		common := make(chan struct{})
		newDone := func() chan struct{} {
			if shared {
				return common
			}
			return make(chan struct{})
		}
		var dones []chan struct{} // closed at the end, after the timing
		g := newGroup()
		sums := make([]int64, threads)
		switch shape {
		case "pairs":
			for p := 0; p < threads; p++ {
				ch := make(chan int64, capacity)
				pd, cd := newDone(), newDone()
				dones = append(dones, pd, cd)
				g.spawn(func() {
					for i := 0; i < q; i++ {
						select {
						case ch <- int64(i):
						case <-pd:
							return
						}
					}
				})
				g.spawn(func() {
					var sum int64
					for i := 0; i < q; i++ {
						select {
						case v := <-ch:
							sum += v
						case <-cd:
							return
						}
					}
					sums[p] = sum
				})
			}
		case "self":
			for t := 0; t < threads; t++ {
				ch := make(chan int64, 1)
				d := newDone()
				dones = append(dones, d)
				g.spawn(func() {
					var sum int64
					for i := 0; i < q; i++ {
						select {
						case ch <- int64(i):
						case v := <-ch:
							sum += v
						case <-d:
							return
						}
					}
					sums[t] = sum
				})
			}
		default:
			die("shared-done: -shape must be pairs or self, not %q", shape)
		}
		d := g.run()
		closed := map[chan struct{}]bool{}
		for _, c := range dones {
			if !closed[c] {
				closed[c] = true
				close(c)
			}
		}
		var total int64
		for _, s := range sums {
			total += s
		}
		if shape == "pairs" {
			checkSum("shared-done", total, int64(threads)*triangle(q))
		} else {
			// Odd iterations receive what the even one before sent.
			h := int64(q / 2)
			checkSum("shared-done", total, int64(threads)*(h*(h-1)))
		}
		return d
	}
	run(max(q/20, 1))
	d := run(q)
	cfg := fmt.Sprintf("P%d-%s-N%d", procs(), shape, threads)
	if shape == "pairs" {
		cfg += fmt.Sprintf("-cap%d", capacity)
	}
	result("shared-done", cfg+"-"+doneName, perSecond(q*threads, d), "ops/s")
}
