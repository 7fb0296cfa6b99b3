package main

import "testing"

func TestRingFIFOAcrossGrowth(t *testing.T) {
	q := &ring{buf: make([]int64, 1)}
	next, want := int64(0), int64(0)
	// Interleave pushes and pops so the indexes wrap before each doubling.
	for round := 0; round < 12; round++ {
		for i := 0; i < 3<<round; i++ {
			q.push(next)
			next++
		}
		for i := 0; i < 1<<round; i++ {
			v, ok := q.pop()
			if !ok || v != want {
				t.Fatalf("pop = %d, %v; want %d", v, ok, want)
			}
			want++
		}
	}
	for {
		v, ok := q.pop()
		if !ok {
			break
		}
		if v != want {
			t.Fatalf("pop = %d; want %d", v, want)
		}
		want++
	}
	if want != next {
		t.Fatalf("popped %d elements, pushed %d", want, next)
	}
}

// The emulated unbounded channel must deliver every element once, in order,
// also when the goroutine receives more than elasticMaxReceive in a row (the
// article's version dropped one element there).
func TestElasticInOrder(t *testing.T) {
	const n = 200000
	for _, seq := range []bool{true, false} {
		s, r := newElastic()
		if seq {
			for i := 0; i < n; i++ {
				s <- int64(i)
			}
			close(s)
		} else {
			go func() {
				for i := 0; i < n; i++ {
					s <- int64(i)
				}
				close(s)
			}()
		}
		for i := 0; i < n; i++ {
			if v := <-r; v != int64(i) {
				t.Fatalf("seq=%v: received %d, want %d", seq, v, i)
			}
		}
		if _, ok := <-r; ok {
			t.Fatalf("seq=%v: output not closed after the last element", seq)
		}
	}
}

// With the input already full, the goroutine receives maxReceive elements in
// a row every time; none may be lost at the limit.
func TestElasticReceiveLimit(t *testing.T) {
	in := make(chan int64, 100)
	out := make(chan int64)
	for i := 0; i < cap(in); i++ {
		in <- int64(i)
	}
	close(in)
	go elasticRun(out, in, 3)
	for i := 0; i < cap(in); i++ {
		if v := <-out; v != int64(i) {
			t.Fatalf("received %d, want %d", v, i)
		}
	}
	if _, ok := <-out; ok {
		t.Fatal("output not closed after the last element")
	}
}
