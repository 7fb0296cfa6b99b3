package main

import (
	"fmt"
	"time"
)

// workSink keeps the work loops' results alive.
var workSink uint64

// chanPC is the Kotlin-paper producer/consumer benchmark: `pairs` producers
// and as many consumers on ONE channel of the given capacity; after every
// send and after every receive the thread does work(mean) of local work.
// n elements in total, n/pairs per producer and per consumer.
func chanPC(n, pairs, capacity, mean int) {
	limit := workLimit(mean)
	q := max(n/pairs, 1)
	run := func(q int) time.Duration {
		ch := make(chan int64, capacity)
		sums := make([]int64, pairs)
		seeds := make([]uint64, 2*pairs)
		g := newGroup()
		for p := 0; p < pairs; p++ {
			g.spawn(func() {
				x := workSeed(p)
				for i := 0; i < q; i++ {
					ch <- int64(i)
					x = work(x, limit)
				}
				seeds[p] = x
			})
		}
		for c := 0; c < pairs; c++ {
			g.spawn(func() {
				x := workSeed(pairs + c)
				var sum int64
				for i := 0; i < q; i++ {
					sum += <-ch
					x = work(x, limit)
				}
				sums[c], seeds[pairs+c] = sum, x
			})
		}
		d := g.run()
		var total int64
		for _, s := range sums {
			total += s
		}
		for _, x := range seeds {
			workSink += x
		}
		checkSum("chan-pc", total, int64(pairs)*triangle(q))
		return d
	}
	run(max(q/20, 1))
	d := run(q)
	result("chan-pc", fmt.Sprintf("P%d-N%d-cap%d-w%d", procs(), pairs, capacity, mean),
		perSecond(q*pairs, d), "ops/s")
}

// workBench times the work loop alone, on one thread, so the C mirror can
// check that its compiled loop costs what Go's does (chan-pc compares
// channels, not compilers).
func workBench(n, mean int) {
	limit := workLimit(mean)
	run := func(n int) time.Duration {
		x := workSeed(0)
		t0 := time.Now()
		for i := 0; i < n; i++ {
			x = work(x, limit)
		}
		d := time.Since(t0)
		workSink += x
		return d
	}
	d := warmAndTime(n, run)
	result("work", fmt.Sprintf("w%d", mean), float64(d.Nanoseconds())/float64(n), "ns/op")
}
