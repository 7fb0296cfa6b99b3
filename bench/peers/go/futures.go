package main

import (
	"fmt"
	"os"
	"time"
)

// future is the Go emulation of a wuc future(long): a one-shot broadcast.
// set stores the value and closes done; every waiter, present or later, sees
// done closed and then reads val (the close orders the write before the
// read).  Go has no reset for a closed channel, so a reset is a new future.
type future struct {
	done chan struct{}
	val  int64
}

func (f *future) set(v int64) {
	f.val = v
	close(f.done)
}

// round holds the three futures of one round of the benchmark.
type round struct{ a, b, c future }

func newRound() *round {
	return &round{
		a: future{done: make(chan struct{})},
		b: future{done: make(chan struct{})},
		c: future{done: make(chan struct{})},
	}
}

// futuresBench is the thesis future benchmark: a server fulfils A, B and C,
// in that order, once per round; a client waits on them with one predicate.
// After each round the two meet on an unbuffered channel, so the server is
// never more than one round ahead.  Futures alternate between two slots by
// round parity: the server replaces (the Go "reset") the slot of round r
// right after that round's meeting, when the client no longer looks at it,
// and the client only reaches that slot again after the next meeting.
func futuresBench(n int, pred string) {
	var wait func(r *round, want int64) int64
	// Each "body" reads the value, as the thesis's bodies call get(); check
	// catches a stale future from an earlier round.
	get := func(f *future, want int64) int64 {
		if f.val != want {
			fmt.Fprintf(os.Stderr, "wucpeer futures: value %d in round %d\n", f.val, want)
			os.Exit(1)
		}
		return f.val
	}
	switch pred {
	case "or": // A or B or C
		wait = func(r *round, w int64) int64 {
			select {
			case <-r.a.done:
				return get(&r.a, w)
			case <-r.b.done:
				return get(&r.b, w)
			case <-r.c.done:
				return get(&r.c, w)
			}
		}
	case "and": // A and B and C: all three are needed, so wait for each in turn.
		wait = func(r *round, w int64) int64 {
			<-r.a.done
			s := get(&r.a, w)
			<-r.b.done
			s += get(&r.b, w)
			<-r.c.done
			return s + get(&r.c, w)
		}
	case "and-or": // A and B or C, i.e. (A and B) or C
		wait = func(r *round, w int64) int64 {
			select {
			case <-r.a.done:
				s := get(&r.a, w)
				select {
				case <-r.b.done:
					return s + get(&r.b, w)
				case <-r.c.done:
					return s + get(&r.c, w)
				}
			case <-r.b.done:
				s := get(&r.b, w)
				select {
				case <-r.a.done:
					return s + get(&r.a, w)
				case <-r.c.done:
					return s + get(&r.c, w)
				}
			case <-r.c.done:
				return get(&r.c, w)
			}
		}
	case "or-and": // (A or B) and C
		wait = func(r *round, w int64) int64 {
			var s int64
			select {
			case <-r.a.done:
				s = get(&r.a, w)
			case <-r.b.done:
				s = get(&r.b, w)
			}
			<-r.c.done
			return s + get(&r.c, w)
		}
	default:
		die("futures: -pred must be or, and, and-or or or-and, not %q", pred)
	}

	run := func(n int) time.Duration {
		slots := [2]*round{newRound(), newRound()}
		meet := make(chan struct{})
		var sink int64
		g := newGroup()
		g.spawn(func() { // server
			for i := 0; i < n; i++ {
				r := slots[i&1]
				r.a.set(int64(i))
				r.b.set(int64(i))
				r.c.set(int64(i))
				meet <- struct{}{}
				slots[i&1] = newRound()
			}
		})
		g.spawn(func() { // client
			var s int64
			for i := 0; i < n; i++ {
				s += wait(slots[i&1], int64(i))
				<-meet
			}
			sink = s
		})
		d := g.run()
		_ = sink
		return d
	}
	d := warmAndTime(n, run)
	names := map[string]string{"or": "OR", "and": "AND", "and-or": "AND-OR", "or-and": "OR-AND"}
	result("futures", fmt.Sprintf("P%d-%s", procs(), names[pred]), perSecond(n, d), "rounds/s")
}
