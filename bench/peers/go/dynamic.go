package main

import (
	"fmt"
	"reflect"
	"time"
)

// selectDynamic is the peer of bench/select-dynamic.wc (bench/SHAPES.md,
// "select-dynamic"): nch channels of the given capacity, one sender goroutine
// per channel sending its share, one receiver taking every item.  Go has no
// select over a run-time number of channels; its two ways:
//   - mode "reflect": reflect.Select over the nch receive cases (the cases
//     built once, as a program would);
//   - mode "fanin": one goroutine per channel forwarding into one channel of
//     the same capacity, which the receiver reads.
func selectDynamic(n, nch, capacity int, mode string) {
	if mode != "reflect" && mode != "fanin" {
		die("select-dynamic: -mode must be reflect or fanin, not %q", mode)
	}
	q := max(n/nch, 1)
	run := func(q int) time.Duration {
		chs := makeChans(nch, capacity)
		g := newGroup()
		for k := 0; k < nch; k++ {
			ch := chs[k]
			g.spawn(func() {
				for i := 0; i < q; i++ {
					ch <- int64(i)
				}
			})
		}
		var sum int64
		total := q * nch
		if mode == "reflect" {
			cases := make([]reflect.SelectCase, nch)
			for k := range cases {
				cases[k] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(chs[k])}
			}
			g.spawn(func() {
				for i := 0; i < total; i++ {
					_, v, _ := reflect.Select(cases)
					sum += v.Int()
				}
			})
		} else {
			merged := make(chan int64, capacity)
			for k := 0; k < nch; k++ {
				ch := chs[k]
				g.spawn(func() {
					for i := 0; i < q; i++ {
						merged <- <-ch
					}
				})
			}
			g.spawn(func() {
				for i := 0; i < total; i++ {
					sum += <-merged
				}
			})
		}
		d := g.run()
		checkSum("select-dynamic", sum, int64(nch)*triangle(q))
		return d
	}
	run(max(q/20, 1))
	d := run(q)
	result("select-dynamic", fmt.Sprintf("P%d-C%d-cap%d-%s", procs(), nch, capacity, mode),
		perSecond(q*nch, d), "ops/s")
}

// recvWhich receives from any of chs (2, 4 or 8 channels) and says which case won.
func recvWhich(chs []chan int64) int {
	switch len(chs) {
	case 2:
		select {
		case <-chs[0]:
			return 0
		case <-chs[1]:
			return 1
		}
	case 4:
		select {
		case <-chs[0]:
			return 0
		case <-chs[1]:
			return 1
		case <-chs[2]:
			return 2
		case <-chs[3]:
			return 3
		}
	default:
		select {
		case <-chs[0]:
			return 0
		case <-chs[1]:
			return 1
		case <-chs[2]:
			return 2
		case <-chs[3]:
			return 3
		case <-chs[4]:
			return 4
		case <-chs[5]:
			return 5
		case <-chs[6]:
			return 6
		case <-chs[7]:
			return 7
		}
	}
}

// selectFairStarve is the peer of select-fair -shape starve: one goroutine,
// nch channels refilled before each select so that every case is ready; each
// case's share of the wins (Go's select chooses uniformly at random).
func selectFairStarve(n, nch int) {
	if nch != 2 && nch != 4 && nch != 8 {
		die("select-fair: -c must be 2, 4 or 8, not %d", nch)
	}
	chs := makeChans(nch, 1)
	wins := make([]int, nch)
	for i := 0; i < n; i++ {
		for _, ch := range chs {
			if len(ch) == 0 {
				ch <- int64(i)
			}
		}
		wins[recvWhich(chs)]++
	}
	for k, w := range wins {
		result("select-fair", fmt.Sprintf("P%d-C%d-starve-clause%d", procs(), nch, k),
			100*float64(w)/float64(n), "%")
	}
}
