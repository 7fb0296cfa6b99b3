// The I/O benchmarks' peers over Go's net and net/http packages (bench/SHAPES.md,
// "I/O benchmarks"): tcp-echo, idle-conns and the httpd server the harness
// loads with wrk (bench/httpd_load.py).  They parse their own flags:
//
//	wucpeer tcp-echo [-n ROUND_TRIPS] [-c CONNECTIONS] [-s BYTES]
//	wucpeer idle-conns [-c CONNECTIONS]
//	wucpeer httpd -port PORT -file PATH
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// netBenches are dispatched before main's flag parsing.
var netBenches = map[string]func(args []string){
	"tcp-echo":          tcpEchoMain,
	"idle-conns":        idleConnsMain,
	"idle-conns-client": idleClientMain,
	"httpd":             httpdMain,
}

func check(err error, what string) {
	if err != nil {
		die("%s: %v", what, err)
	}
}

// raiseNofile: the soft descriptor limit to the hard one (the runtime does it
// at start-up since Go 1.19; done here as the C side does, to be explicit).
func raiseNofile() uint64 {
	var rl syscall.Rlimit
	check(syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl), "getrlimit")
	rl.Cur = rl.Max
	check(syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl), "setrlimit")
	return rl.Cur
}

func percentile(sorted []int64, p float64) int64 {
	k := int(p/100*float64(len(sorted)) + 0.999999)
	k = max(1, min(k, len(sorted)))
	return sorted[k-1]
}

// tcpEchoMain: the peer of bench/tcp-echo.c.  An echo server goroutine per
// accepted connection, a client goroutine per connection doing q = n/C
// round trips of S bytes after q/20 of warm-up, timed from a start barrier.
func tcpEchoMain(args []string) {
	fs := flag.NewFlagSet("tcp-echo", flag.ExitOnError)
	n := fs.Int("n", 200000, "round trips, all connections together")
	conns := fs.Int("c", 100, "connections")
	size := fs.Int("s", 64, "message size in bytes")
	fs.Parse(args)
	raiseNofile()
	quota := max(*n / *conns, 1)
	warm := quota/20 + 1
	lat := make([]int64, *conns*quota)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err, "listen")
	addr := ln.Addr().String()
	go func() {
		for i := 0; i < *conns; i++ {
			c, err := ln.Accept()
			check(err, "accept")
			go func(c net.Conn) {
				buf := make([]byte, *size)
				for {
					k, err := c.Read(buf)
					if err != nil {
						break
					}
					_, err = c.Write(buf[:k])
					check(err, "server write")
				}
				c.Close()
			}(c)
		}
	}()

	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for k := 0; k < *conns; k++ {
		ready.Add(1)
		done.Add(1)
		go func(k int) {
			defer done.Done()
			c, err := net.DialTimeout("tcp", addr, 10*time.Second)
			check(err, "dial")
			out, in := make([]byte, *size), make([]byte, *size)
			for i := range out {
				out[i] = byte('a' + k%26)
			}
			rt := func() {
				_, err := c.Write(out)
				check(err, "client write")
				_, err = io.ReadFull(c, in)
				check(err, "client read")
			}
			for i := 0; i < warm; i++ {
				rt()
			}
			ready.Done()
			<-start
			mine := lat[k*quota : (k+1)*quota]
			for i := range mine {
				t0 := time.Now()
				rt()
				mine[i] = int64(time.Since(t0))
			}
			if string(in) != string(out) {
				die("echo differs from what was sent")
			}
			c.Close()
		}(k)
	}
	ready.Wait()
	t0 := time.Now()
	close(start)
	done.Wait()
	elapsed := time.Since(t0)
	ln.Close()

	slices.Sort(lat)
	cfg := fmt.Sprintf("P%d-C%d-S%d", procs(), *conns, *size)
	result("tcp-echo", cfg+"-rtps", float64(len(lat))/elapsed.Seconds(), "ops/s")
	result("tcp-echo", cfg+"-p50", float64(percentile(lat, 50))/1e3, "us")
	result("tcp-echo", cfg+"-p99", float64(percentile(lat, 99))/1e3, "us")
}

// idleConnsMain: the peer of bench/idle-conns.c.  The clients are a child
// process (this program again, idle-conns-client), so only the server's
// memory is read; each accepted connection gets a goroutine blocked in
// Read with a 4 KiB buffer of its own (make: it escapes to the heap).
func idleConnsMain(args []string) {
	fs := flag.NewFlagSet("idle-conns", flag.ExitOnError)
	conns := fs.Int("c", 10000, "connections")
	fs.Parse(args)
	if limit := raiseNofile(); limit < uint64(*conns+64) {
		die("descriptor limit %d too low for %d connections", limit, *conns)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err, "listen")
	rss0 := procStatusBytes("VmRSS")

	child := exec.Command("/proc/self/exe", "idle-conns-client", "-c", strconv.Itoa(*conns),
		"-addr", ln.Addr().String())
	hold, err := child.StdinPipe()
	check(err, "pipe")
	child.Stderr = os.Stderr
	check(child.Start(), "client process")

	var blocked atomic.Int64
	var finished sync.WaitGroup
	t0 := time.Now()
	for i := 0; i < *conns; i++ {
		c, err := ln.Accept()
		check(err, "accept")
		finished.Add(1)
		go func(c net.Conn) {
			defer finished.Done()
			buf := make([]byte, 4096)
			blocked.Add(1)
			k, err := c.Read(buf)
			if k != 0 || err != io.EOF {
				die("idle read: %d, %v", k, err)
			}
			c.Close()
		}(c)
	}
	for blocked.Load() < int64(*conns) {
		time.Sleep(time.Millisecond)
	}
	t1 := time.Now()
	time.Sleep(100 * time.Millisecond)
	rss := procStatusBytes("VmRSS")
	hwm := procStatusBytes("VmHWM")

	hold.Close()
	check(child.Wait(), "client process")
	finished.Wait()
	ln.Close()

	mib := func(b int64) float64 { return float64(b) / (1024 * 1024) }
	emit := func(what string, v float64, unit string) {
		result("idle-conns", fmt.Sprintf("P%d-C%d-%s", procs(), *conns, what), v, unit)
	}
	emit("VmRSS", mib(rss), "MiB")
	emit("VmHWM", mib(hwm), "MiB")
	emit("bytes-per-conn", float64(rss-rss0)/float64(*conns), "B")
	emit("accept+block", float64(t1.Sub(t0).Nanoseconds())/float64(*conns), "ns/conn")
}

// idleClientMain: dials c connections, then holds them until stdin closes.
func idleClientMain(args []string) {
	fs := flag.NewFlagSet("idle-conns-client", flag.ExitOnError)
	conns := fs.Int("c", 10000, "connections")
	addr := fs.String("addr", "", "server address")
	fs.Parse(args)
	raiseNofile()
	held := make([]net.Conn, 0, *conns)
	for i := 0; i < *conns; i++ {
		c, err := net.Dial("tcp", *addr)
		check(err, "dial")
		held = append(held, c)
	}
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// httpdMain: net/http serving one file's bytes from memory (read once at
// start, as bench/httpd.wc does), keep-alive (net/http's default).  Any
// other path is a 404.  Runs until killed.
func httpdMain(args []string) {
	fs := flag.NewFlagSet("httpd", flag.ExitOnError)
	port := fs.Int("port", 8080, "port on 127.0.0.1")
	file := fs.String("file", "", "the file to serve as /index.html and /")
	fs.Parse(args)
	body, err := os.ReadFile(*file)
	check(err, "read file")
	length := strconv.Itoa(len(body))
	handler := func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/index.html" {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h["Content-Type"] = []string{"text/html"}
		h["Content-Length"] = []string{length}
		w.Write(body)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	check(err, "listen")
	fmt.Printf("listening on %s\n", ln.Addr())
	os.Stdout.Sync()
	check(http.Serve(ln, http.HandlerFunc(handler)), "serve")
}
