// lincheck.cc — see lincheck.h.
#include "lincheck.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <limits>
#include <sstream>
#include <unordered_set>

namespace lincheck {

namespace {

enum Status : uint8_t { kPending = 0, kWaiting = 1, kDone = 2 };

struct State {
  std::vector<uint8_t> status;
  std::deque<long> buffer;
  std::deque<int> senders, receivers; // waiting operations, in order
  bool closed = false;
};

class Checker {
public:
  Checker(const std::vector<Op> &h, size_t capacity, CloseModel close)
      : h_(h), capacity_(capacity), lagging_(close == CloseModel::kLagging) {
    order_.resize(h.size());
    for (size_t i = 0; i < h.size(); i++) order_[i] = static_cast<int>(i);
    std::sort(order_.begin(), order_.end(), [&](int a, int b) { return h[a].inv < h[b].inv; });
  }

  Result Run() {
    State s;
    s.status.assign(h_.size(), kPending);
    Result r;
    r.linearizable = Search(s);
    r.states = states_;
    return r;
  }

private:
  // Completes op i with the model's result; false if the history says
  // otherwise.
  bool Finish(State &s, int i, bool ok, long got = 0) const {
    const Op &o = h_[i];
    if (o.kind != Kind::kClose) {
      if (o.ok != ok) return false;
      bool receive = o.kind == Kind::kRecv || o.kind == Kind::kTryRecv;
      if (ok && receive && o.got != got) return false;
    }
    s.status[i] = kDone;
    return true;
  }

  bool Room(const State &s) const { return capacity_ == SIZE_MAX || s.buffer.size() < capacity_; }

  // Op i takes effect now.  False: the history contradicts the model.
  bool Apply(State &s, int i) const {
    const Op &o = h_[i];
    switch (o.kind) {
    case Kind::kSend:
    case Kind::kTrySend:
      if (s.closed) return Finish(s, i, false);
      if (!s.receivers.empty()) {
        int r = s.receivers.front();
        s.receivers.pop_front();
        return Finish(s, r, true, o.value) && Finish(s, i, true);
      }
      if (Room(s)) {
        s.buffer.push_back(o.value);
        return Finish(s, i, true);
      }
      if (o.kind == Kind::kTrySend) return Finish(s, i, false);
      s.status[i] = kWaiting;
      s.senders.push_back(i);
      return true;
    case Kind::kRecv:
    case Kind::kTryRecv:
      if (!s.buffer.empty()) {
        long v = s.buffer.front();
        s.buffer.pop_front();
        if (!s.senders.empty()) { // the first blocked sender's element enters the buffer
          int w = s.senders.front();
          s.senders.pop_front();
          s.buffer.push_back(h_[w].value);
          if (!Finish(s, w, true)) return false;
        }
        return Finish(s, i, true, v);
      }
      if (!s.senders.empty()) { // rendezvous
        int w = s.senders.front();
        s.senders.pop_front();
        return Finish(s, w, true) && Finish(s, i, true, h_[w].value);
      }
      if (s.closed) return Finish(s, i, false);
      if (o.kind == Kind::kTryRecv) return Finish(s, i, false);
      s.status[i] = kWaiting;
      s.receivers.push_back(i);
      return true;
    case Kind::kClose:
      if (!s.closed) {
        s.closed = true;
        if (!lagging_) { // kLagging: Search fails them one at a time
          for (int w : s.senders)
            if (!Finish(s, w, false)) return false;
          s.senders.clear();
        }
        for (int w : s.receivers)
          if (!Finish(s, w, false)) return false;
        s.receivers.clear();
      }
      return Finish(s, i, false);
    }
    return false;
  }

  std::string Key(const State &s) const {
    std::string k(s.status.begin(), s.status.end());
    auto put = [&k](long v) {
      k.push_back(static_cast<char>(v & 0xff));
      k.push_back(static_cast<char>((v >> 8) & 0xff));
      k.push_back(static_cast<char>((v >> 16) & 0xff));
    };
    k.push_back('|');
    for (long v : s.buffer) put(v);
    k.push_back('|');
    for (int w : s.senders) put(w);
    k.push_back('|');
    for (int w : s.receivers) put(w);
    k.push_back(s.closed ? 'c' : 'o');
    return k;
  }

  bool Search(const State &s) {
    states_++;
    // Every operation not yet done must still take effect (or be served)
    // before it responds: nothing invoked after the earliest such response
    // can come next.
    uint64_t horizon = std::numeric_limits<uint64_t>::max();
    bool all_done = true;
    for (size_t i = 0; i < h_.size(); i++) {
      if (s.status[i] == kDone) continue;
      all_done = false;
      horizon = std::min(horizon, h_[i].resp);
    }
    if (all_done) return true;
    std::string key = Key(s);
    if (failed_.count(key)) return false;
    for (int i : order_) {
      if (h_[i].inv > horizon) break;
      if (s.status[i] != kPending) continue;
      State next = s;
      if (Apply(next, i) && Search(next)) return true;
    }
    if (lagging_ && s.closed) { // close reaches one of the senders blocked at close
      for (size_t k = 0; k < s.senders.size(); k++) {
        State next = s;
        int w = next.senders[k];
        next.senders.erase(next.senders.begin() + static_cast<long>(k));
        if (Finish(next, w, false) && Search(next)) return true;
      }
    }
    failed_.insert(std::move(key));
    return false;
  }

  const std::vector<Op> &h_;
  size_t capacity_;
  bool lagging_;
  std::vector<int> order_; // by invocation
  std::unordered_set<std::string> failed_;
  uint64_t states_ = 0;
};

const char *KindName(Kind k) {
  switch (k) {
  case Kind::kSend:
    return "send";
  case Kind::kRecv:
    return "recv";
  case Kind::kTrySend:
    return "try_send";
  case Kind::kTryRecv:
    return "try_recv";
  case Kind::kClose:
    return "close";
  }
  return "?";
}

} // namespace

Result Check(const std::vector<Op> &history, size_t capacity, CloseModel close) {
  return Checker(history, capacity, close).Run();
}

std::string Describe(const std::vector<Op> &history, size_t capacity) {
  std::vector<const Op *> ops;
  for (const Op &o : history) ops.push_back(&o);
  std::sort(ops.begin(), ops.end(), [](const Op *a, const Op *b) { return a->inv < b->inv; });
  std::ostringstream out;
  out << "history on a channel of capacity ";
  if (capacity == SIZE_MAX)
    out << "unbounded";
  else
    out << capacity;
  out << " (thread: [invocation, response] operation -> result)\n";
  for (const Op *o : ops) {
    out << "  t" << o->thread << ": [" << o->inv << ", " << o->resp << "] " << KindName(o->kind);
    if (o->kind == Kind::kSend || o->kind == Kind::kTrySend) out << "(" << o->value << ")";
    if (o->kind != Kind::kClose) {
      out << " -> " << (o->ok ? "true" : "false");
      if (o->ok && (o->kind == Kind::kRecv || o->kind == Kind::kTryRecv)) out << " " << o->got;
    }
    out << "\n";
  }
  return out.str();
}

} // namespace lincheck
