// lincheck.h — a linearizability checker for channel histories.
//
// A history is a set of completed operations on one channel, each with the
// value it sent or the result it returned and its invocation and response
// times (from one global counter, so "a responded before b was invoked" is
// exact).  Check() searches for a linearization (Wing & Gong: depth-first
// over which pending operation takes effect next, with memoisation of
// failed (taken-so-far, channel state) pairs); histories are small.
//
// The sequential model (docs/library.md, <wuc/channel.h>), in the dual view
// of Scherer & Scott that the Kotlin paper (arXiv 2211.04986, §4) uses for blocking
// operations: a blocking send or receive takes effect at one point
// (registration); if it cannot complete there it becomes a *waiter*, and it
// completes later, at the point where the operation that serves it takes
// effect.  Both points must lie inside its [invocation, response] interval.
// So a rendezvous send and the receive that takes its element overlap, and
// a blocked operation may respond long after it was served.
//
// State: the buffer (a FIFO of at most `capacity` elements; none for a
// rendezvous channel, no limit for CHAN_UNBOUNDED), the FIFO of waiting
// senders with their elements, the FIFO of waiting receivers, closed.
//
//   send(v)      closed: false.  A receiver waits: the first one gets v,
//                both true.  Room in the buffer: v is appended, true.
//                Else it waits.
//   try_send(v)  the same, but false instead of waiting.  Never false
//                otherwise: no spurious failures.
//   recv         the buffer has elements: the first is returned; if a
//                sender waits, its element enters the buffer and it
//                completes true.  Else a sender waits (rendezvous): its
//                element is returned, both true.  Else closed: false.  Else
//                it waits.
//   try_recv     the same, but false instead of waiting.  On a rendezvous
//                channel it succeeds exactly when a sender waits
//                (registered and not yet served).
//   close        idempotent; every waiting sender and receiver completes
//                false (a blocked sender's element never entered the
//                buffer); buffered elements stay and are delivered.
//
// What an implementation may not do, then: lose, duplicate or reorder
// elements, fail a try operation that could have completed at some point of
// its interval, report closed while an element was there, accept a send
// after close, or keep a blocked operation blocked past a close.
//
// CloseModel::kLagging relaxes one rule, for a known deviation of the
// current runtime (README.md): close fails the senders blocked at that
// moment not all at once but one by one, each at some point before that
// sender returns; until then a receive that takes effect after close may
// still serve it (in order: the first blocked sender first).  Everything
// else stays as above.
#ifndef WUC_TEST_LINCHECK_H
#define WUC_TEST_LINCHECK_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lincheck {

enum class Kind { kSend, kRecv, kTrySend, kTryRecv, kClose };

struct Op {
  int thread = 0;
  Kind kind = Kind::kSend;
  long value = 0;             // sends: the element; values are unique within a history
  bool ok = false;            // the result (close: ignored)
  long got = 0;               // receives that returned true
  uint64_t inv = 0, resp = 0; // inv < resp
};

struct Result {
  bool linearizable = false;
  uint64_t states = 0; // explored (for tuning)
};

enum class CloseModel { kAtomic, kLagging };

// capacity: 0 rendezvous, SIZE_MAX unbounded.
Result Check(const std::vector<Op> &history, size_t capacity,
             CloseModel close = CloseModel::kAtomic);

// The history, one operation per line in invocation order.
std::string Describe(const std::vector<Op> &history, size_t capacity);

} // namespace lincheck

#endif
