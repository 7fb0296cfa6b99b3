// wucpeer-fiber: the Boost.Fiber peer of the wuc runtime-core benchmarks
// (switch, yield, pingpong, spawn) and of chan-pc, with the Go peer's shapes,
// flags, counts and RESULT lines (bench/peers/go, bench/SHAPES.md), one
// configuration per invocation:
//
//     RESULT name=<bench> config=<cfg> value=<number> unit=<unit>
//
// Usage: wucpeer-fiber BENCH [-n N] [-t T] [-cap K] [-w MEAN].
//
// Scheduler: boost::fibers::algo::work_stealing on P kernel threads, P from
// PEER_PROCS (default: std::thread::hardware_concurrency), the worker count of
// wuc (WUC_PROCESSORS) and Go (GOMAXPROCS).  main's thread is one of the P;
// the other P - 1 only run fibers until the benchmark is over.  Idle threads
// sleep until work is posted to them (work_stealing's suspend = true); with
// PEER_FIBER_SUSPEND=0 they spin instead, which was 2-10x slower in every
// shape on the 2-CPU development machine (docs/benchmarks.md, "Peers").
// Channels: boost::fibers::unbuffered_channel for capacity 0, buffered_channel
// otherwise; Boost's buffered_channel needs a power of two >= 2 and holds one
// element less than its capacity (bench/SHAPES.md, chan-pc).
#include <boost/fiber/all.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace fibers = boost::fibers;
using clock_type = std::chrono::steady_clock;

namespace {

unsigned procs = 1;

void result(const char *name, const std::string &config, double value, const char *unit) {
  std::printf("RESULT name=%s config=%s value=%.3f unit=%s\n", name, config.c_str(), value, unit);
  std::fflush(stdout);
}

// Ends the process at once: std::exit would wait for the scheduler threads'
// static state, which other threads still use.
[[noreturn]] void quit(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(status);
}

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "wucpeer-fiber: %s\n", msg.c_str());
  quit(2);
}

double ns_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::nano>(clock_type::now() - t0).count();
}

// The start barrier (bench/SHAPES.md, "Timing"): fibers created first, each
// counts itself ready and waits; main opens it once all are ready, and the
// clock stops when the last one has been joined.
class group {
public:
  void spawn(std::function<void()> f) {
    members_.emplace_back([this, f = std::move(f)] {
      ready_.fetch_add(1);
      {
        std::unique_lock<fibers::mutex> lk(mu_);
        cv_.wait(lk, [this] { return open_; });
      }
      f();
    });
  }
  // Seconds from the barrier's opening to the last member's end.
  double run() {
    while (ready_.load() < members_.size()) boost::this_fiber::yield();
    auto t0 = clock_type::now();
    {
      std::lock_guard<fibers::mutex> lk(mu_);
      open_ = true;
    }
    cv_.notify_all();
    for (auto &f : members_) f.join();
    return ns_since(t0) / 1e9;
  }

private:
  std::vector<fibers::fiber> members_;
  std::atomic<std::size_t> ready_{0};
  fibers::mutex mu_;
  fibers::condition_variable cv_;
  bool open_ = false;
};

// ---- switch, yield, pingpong, spawn (the Go peer's main.go) -----------------

// Two fibers ping-pong over unbuffered channels; main does the pinging.
double pingpong_ns(long n) {
  fibers::unbuffered_channel<int> ping, pong;
  fibers::fiber peer([&] {
    int v = 0;
    for (long i = 0; i < n; i++) {
      ping.pop(v);
      pong.push(v);
    }
  });
  auto t0 = clock_type::now();
  int v = 0;
  for (long i = 0; i < n; i++) {
    ping.push(v);
    pong.pop(v);
  }
  double ns = ns_since(t0);
  peer.join();
  return ns;
}

// switch: no bare switch in the Boost.Fiber API either; as Go's column, a
// fiber switch: half an unbuffered-channel round trip (run at P = 1).
void switch_bench(long iters) {
  long round_trips = (iters + 1) / 2;
  pingpong_ns(round_trips / 20 + 1);
  double ns = pingpong_ns(round_trips);
  result("switch", "goroutine-half-round-trip-P" + std::to_string(procs),
         ns / (2.0 * (double)round_trips), "ns/op");
}

void pingpong_bench(long iters) {
  pingpong_ns(iters / 20 + 1);
  double ns = pingpong_ns(iters);
  result("pingpong", "P" + std::to_string(procs), ns / (double)iters, "ns/op");
}

// yield: `threads` fibers, each this_fiber::yield() n times; the clock covers
// their creation too, as the Go peer's.
void yield_bench(long iters, long threads) {
  long per = std::max(iters / threads, 1L);
  auto run = [threads](long n) {
    auto t0 = clock_type::now();
    std::vector<fibers::fiber> fs;
    for (long t = 0; t < threads; t++)
      fs.emplace_back([n] {
        for (long i = 0; i < n; i++) boost::this_fiber::yield();
      });
    for (auto &f : fs) f.join();
    return ns_since(t0);
  };
  run(per / 20 + 1);
  double ns = run(per);
  result("yield", "P" + std::to_string(procs) + "-T" + std::to_string(threads),
         ns / (double)(per * threads), "ns/op");
}

// spawn: start a fiber that does nothing and join it, in a loop.
void spawn_bench(long iters) {
  auto run = [](long n) {
    auto t0 = clock_type::now();
    for (long i = 0; i < n; i++) fibers::fiber([] {}).join();
    return ns_since(t0);
  };
  run(iters / 20 + 1);
  double ns = run(iters);
  result("spawn", "P" + std::to_string(procs), ns / (double)iters, "ns/op");
}

// ---- chan-pc (the Go peer's pc.go) ----------------------------------------------

std::uint64_t work(std::uint64_t x, std::uint64_t limit) {
  if (limit == 0) return x;
  for (;;) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    if (x < limit) return x;
  }
}
std::uint64_t work_limit(long mean) { return mean <= 0 ? 0 : UINT64_MAX / (std::uint64_t)mean; }
std::uint64_t work_seed(long k) { return (std::uint64_t)(k + 1) * 0x9E3779B97F4A7C15u; }
std::atomic<std::uint64_t> work_sink{0};

template <class Chan> double chan_pc_run(Chan &ch, long pairs, long q, std::uint64_t limit) {
  std::vector<std::int64_t> sums(pairs);
  group g;
  for (long p = 0; p < pairs; p++)
    g.spawn([&ch, p, q, limit] {
      std::uint64_t x = work_seed(p);
      for (long i = 0; i < q; i++) {
        if (ch.push((std::int64_t)i) != fibers::channel_op_status::success)
          die("chan-pc: push failed");
        x = work(x, limit);
      }
      work_sink += x;
    });
  for (long c = 0; c < pairs; c++)
    g.spawn([&ch, &sums, c, pairs, q, limit] {
      std::uint64_t x = work_seed(pairs + c);
      std::int64_t sum = 0, v = 0;
      for (long i = 0; i < q; i++) {
        if (ch.pop(v) != fibers::channel_op_status::success) die("chan-pc: pop failed");
        sum += v;
        x = work(x, limit);
      }
      sums[c] = sum;
      work_sink += x;
    });
  double s = g.run();
  std::int64_t total = 0;
  for (auto v : sums) total += v;
  std::int64_t want = (std::int64_t)pairs * ((std::int64_t)q * (q - 1) / 2);
  if (total != want) {
    std::fprintf(stderr, "wucpeer-fiber chan-pc: received values sum to %lld, want %lld\n",
                 (long long)total, (long long)want);
    quit(1);
  }
  return s;
}

void chan_pc(long n, long pairs, long cap, long mean) {
  std::uint64_t limit = work_limit(mean);
  long q = std::max(n / pairs, 1L);
  auto run = [&](long q) {
    if (cap == 0) {
      fibers::unbuffered_channel<std::int64_t> ch;
      return chan_pc_run(ch, pairs, q, limit);
    }
    fibers::buffered_channel<std::int64_t> ch((std::size_t)cap);
    return chan_pc_run(ch, pairs, q, limit);
  };
  run(std::max(q / 20, 1L));
  double s = run(q);
  result("chan-pc",
         "P" + std::to_string(procs) + "-N" + std::to_string(pairs) + "-cap" + std::to_string(cap) +
             "-w" + std::to_string(mean),
         (double)(q * pairs) / s, "ops/s");
}

const char usage[] = "usage: wucpeer-fiber BENCH [flags]   (P from PEER_PROCS)\n"
                     "  switch|pingpong|spawn [-n N]\n"
                     "  yield [-n N] [-t THREADS]\n"
                     "  chan-pc [-n N] [-t PAIRS] [-cap 0|2|4|...|64|...] [-w MEAN]\n"
                     "(bench/SHAPES.md describes each benchmark and its flags)";

long number(const char *flag, const char *s) {
  char *end;
  long v = std::strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0') die(std::string(flag) + ": not a number: " + s);
  return v;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) die(usage);
  std::string name = argv[1];
  long iters = 0, threads = -1, cap = 0, mean = 100;
  for (int i = 2; i < argc; i += 2) {
    if (i + 1 >= argc) die(std::string(argv[i]) + " needs a value\n" + usage);
    const char *f = argv[i] + (argv[i][0] == '-') + (argv[i][0] == '-' && argv[i][1] == '-');
    long v = number(argv[i], argv[i + 1]);
    if (!std::strcmp(f, "n"))
      iters = v;
    else if (!std::strcmp(f, "t"))
      threads = std::max(v, 1L);
    else if (!std::strcmp(f, "cap"))
      cap = std::max(v, 0L);
    else if (!std::strcmp(f, "w"))
      mean = v;
    else
      die(std::string("unknown flag ") + argv[i] + "\n" + usage);
  }
  const char *p = std::getenv("PEER_PROCS");
  procs = p ? (unsigned)number("PEER_PROCS", p) : std::max(std::thread::hardware_concurrency(), 1u);
  if (procs < 1) die("PEER_PROCS must be a positive number");
  if (name == "chan-pc" && cap != 0 && (cap < 2 || (cap & (cap - 1)) != 0))
    die("chan-pc: Boost's buffered_channel needs a capacity that is a power of two >= 2 (or 0)");
  const char *s = std::getenv("PEER_FIBER_SUSPEND");
  bool suspend = !(s && !std::strcmp(s, "0"));

  // The P - 1 other threads join the work-stealing pool (its constructor
  // waits until all P have joined) and then run fibers until `over`; their
  // main fibers wait on a fiber-aware condition variable, which leaves the
  // kernel thread to the scheduler.
  fibers::mutex over_mu;
  fibers::condition_variable over_cv;
  bool over = false;
  std::vector<std::thread> helpers;
  for (unsigned k = 1; k < procs; k++)
    helpers.emplace_back([&] {
      fibers::use_scheduling_algorithm<fibers::algo::work_stealing>(procs, suspend);
      std::unique_lock<fibers::mutex> lk(over_mu);
      over_cv.wait(lk, [&] { return over; });
    });
  fibers::use_scheduling_algorithm<fibers::algo::work_stealing>(procs, suspend);

  auto n = [iters](long def) { return iters > 0 ? iters : def; };
  long per_side = threads > 0 ? threads : std::max((long)procs / 2, 1L);
  // The work runs in a spawned fiber (bench/SHAPES.md: never on main), so
  // every fiber of the benchmark may move between the P threads.
  fibers::fiber([&] {
    if (name == "switch")
      switch_bench(n(20000000));
    else if (name == "yield")
      yield_bench(n(10000000), threads > 0 ? threads : 2);
    else if (name == "pingpong")
      pingpong_bench(n(3000000));
    else if (name == "spawn")
      spawn_bench(n(1000000));
    else if (name == "chan-pc")
      chan_pc(n(1000000), per_side, cap, mean);
    else
      die("unknown benchmark \"" + name + "\"\n" + usage);
  }).join();
  {
    std::lock_guard<fibers::mutex> lk(over_mu);
    over = true;
  }
  over_cv.notify_all();
  for (auto &h : helpers) h.join();
  quit(0);
}
