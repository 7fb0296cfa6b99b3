package main

import (
	"fmt"
	"os"
	"time"
)

// "Elastic channels" (bench/SHAPES.md, elastic): Go has no unbounded channel, so one is
// emulated by a goroutine that sits between an input and an output channel
// (each with a fixed buffer of 128) and keeps what the output side cannot
// take yet in a growable ring buffer.  This is the article's faster version: after
// one select it keeps receiving (up to maxReceive) or sending without going
// back to the select for as long as that succeeds.  The queue never shrinks
// (the article's text version does not shrink either).

const (
	elasticSendBuffer = 128  // capacity of the input channel
	elasticRecvBuffer = 128  // capacity of the output channel
	elasticMaxReceive = 1024 // receives in a row before the output gets a turn
)

// ring is a FIFO of int64 on a power-of-two slice with free-running indexes:
// empty when head == tail, full when tail-head == len(buf); doubles when full.
type ring struct {
	buf        []int64
	head, tail uint64
}

func (q *ring) push(v int64) {
	if q.tail-q.head == uint64(len(q.buf)) {
		q.grow()
	}
	q.buf[q.tail&uint64(len(q.buf)-1)] = v
	q.tail++
}

func (q *ring) pop() (int64, bool) {
	if q.head == q.tail {
		return 0, false
	}
	v := q.buf[q.head&uint64(len(q.buf)-1)]
	q.head++
	return v, true
}

// grow copies the elements, oldest first, into a slice twice the size.
func (q *ring) grow() {
	n := q.tail - q.head
	buf := make([]int64, 2*len(q.buf))
	for i := uint64(0); i < n; i++ {
		buf[i] = q.buf[(q.head+i)&uint64(len(q.buf)-1)]
	}
	q.buf, q.head, q.tail = buf, 0, n
}

// newElastic returns the send and receive ends of an emulated unbounded
// channel and starts its goroutine.
func newElastic() (chan<- int64, <-chan int64) {
	in := make(chan int64, elasticSendBuffer)
	out := make(chan int64, elasticRecvBuffer)
	go elasticRun(out, in, elasticMaxReceive)
	return in, out
}

// elasticRun is the goroutine of one emulated unbounded channel; maxReceive
// is a parameter only so the test can make the limit easy to reach.
func elasticRun(out chan<- int64, in <-chan int64, maxReceive int) {
	q := &ring{buf: make([]int64, 1)}
	var next int64        // the element offered to the output clause
	var outc chan<- int64 // nil (clause disabled) while there is nothing to offer
	inc := in             // nil once the input is closed
	for {
		select {
		case v, ok := <-inc:
			for i := 1; ; i++ {
				if !ok {
					if outc == nil {
						close(out)
						return
					}
					inc = nil
					break
				}
				if outc == nil {
					next, outc = v, out
				} else {
					q.push(v)
				}
				// Stop before receiving the (maxReceive+1)th: the article's
				// loop receives it and then drops it when the count runs out.
				if i == maxReceive {
					break
				}
				var more bool
				select {
				case v, ok = <-inc:
					more = true
				default:
				}
				if !more {
					break
				}
			}
		case outc <- next:
			for {
				v, ok := q.pop()
				if !ok {
					if inc == nil {
						close(out)
						return
					}
					outc = nil
					break
				}
				next = v
				sent := false
				select {
				case outc <- next:
					sent = true
				default:
				}
				if !sent {
					break
				}
			}
		}
	}
}

// The article's producer and consumer: values 0..n-1 in order, the consumer
// checks each, the producer closes its end when done.
func elasticProduce(n int, c chan<- int64) {
	for i := 0; i < n; i++ {
		c <- int64(i)
	}
	close(c)
}

func elasticConsume(n int, c <-chan int64) {
	for i := 0; i < n; i++ {
		if v := <-c; v != int64(i) {
			fmt.Fprintf(os.Stderr, "wucpeer elastic: received %d, want %d\n", v, i)
			os.Exit(1)
		}
	}
}

// elasticBench runs one of the article's four benchmarks with n elements.
func elasticBench(n int, mode string) {
	run := func(n int) time.Duration {
		var s chan<- int64
		var r <-chan int64
		switch mode {
		case "FixedNoBuf", "Fixed1024":
			capacity := 0
			if mode == "Fixed1024" {
				capacity = 1024
			}
			c := make(chan int64, capacity)
			s, r = c, c
		case "Seq", "Con":
			s, r = newElastic()
		default:
			die("elastic: -mode must be FixedNoBuf, Fixed1024, Seq or Con, not %q", mode)
		}
		g := newGroup()
		produced := make(chan struct{})
		g.spawn(func() {
			elasticProduce(n, s)
			close(produced)
		})
		g.spawn(func() {
			if mode == "Seq" {
				<-produced // the producer fills the buffer, then the consumer drains it
			}
			elasticConsume(n, r)
		})
		return g.run()
	}
	d := warmAndTime(n, run)
	result("elastic", fmt.Sprintf("P%d-%s", procs(), mode), perSecond(n, d), "ops/s")
}
