// bare_durations.cpp — a bare integer where a duration is expected
// (docs/language.md, "Durations: a bare integer"): `timeout(2)` as a
// clause's resource and `uthread_sleep(1)` (or wuc_uthread_sleep) in a
// dialect file mean nanoseconds, which is rarely what was meant.  A warning
// with a fix-it that adds a unit; a duration literal, nanoseconds(2), zero
// or any other expression is silent.
#include <algorithm>
#include <cstring>
#include <string>

#include "frontend_internal.h"
#include "messages.h"

namespace wuc::fe {

namespace {

// A nonzero integer constant (any base, suffixes, digit separators).
bool nonzeroInteger(std::string_view s) {
  if (s.empty() || !(s[0] >= '0' && s[0] <= '9')) return false;
  const bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const bool bin = s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B');
  if (s.find('.') != std::string_view::npos) return false;
  if (hex ? s.find_first_of("pP") != std::string_view::npos
          : s.find_first_of("eE") != std::string_view::npos)
    return false;
  size_t k = hex || bin ? 2 : 0;
  bool nonzero = false;
  for (; k < s.size(); k++) {
    const char c = s[k];
    if (c == '\'') continue;
    const bool digit = (c >= '0' && c <= '9') || (hex && std::strchr("abcdefABCDEF", c));
    if (!digit) break; // the suffix
    nonzero |= c != '0';
  }
  return nonzero;
}

std::string message(std::string_view call, std::string_view number) {
  std::string out;
  bool first = true;
  for (const char *p = msg::BareDuration; *p; p++) {
    if (p[0] == '%' && p[1] == 's') {
      out += first ? call : number;
      first = false;
      p++;
    } else {
      out += *p;
    }
  }
  return out;
}

} // namespace

void warnBareDurations(const ParseContext &ctx, DiagEngine &diags) {
  struct Found {
    unsigned at, end;
    std::string call, number;
  };
  std::vector<Found> found;
  // The token at offset `at` (exactly), or -1.
  auto tokenAt = [&](unsigned at) {
    auto it = std::lower_bound(ctx.toks.begin(), ctx.toks.end(), at, [&](const Tok &t, unsigned o) {
      return ctx.lex.toks[t.raw].begin < o;
    });
    return it != ctx.toks.end() && ctx.lex.toks[it->raw].begin == at ? int(it - ctx.toks.begin())
                                                                     : -1;
  };
  for (const WaitUntil &w : ctx.out.statements)
    for (const Clause &c : w.clauses) {
      if (c.form != ClauseForm::Timeout) continue;
      const int k = tokenAt(c.arg.begin);
      if (k < 0 || ctx.raw(k).kind != RawKind::Number || ctx.end(k) != c.arg.end) continue;
      if (nonzeroInteger(ctx.spelling(k)))
        found.push_back({ctx.begin(k), ctx.end(k), "timeout", std::string(ctx.spelling(k))});
    }
  const int n = int(ctx.toks.size());
  for (int k = 0; k + 3 < n; k++) {
    if (ctx.raw(k).kind != RawKind::Ident) continue;
    const std::string_view name = ctx.spelling(k);
    if (name != "uthread_sleep" && name != "wuc_uthread_sleep") continue;
    auto punct = [&](int i, const char *p) {
      return ctx.raw(i).kind == RawKind::Punct && std::strcmp(ctx.raw(i).punct, p) == 0;
    };
    // Not `(uthread_sleep)(1)` (the function, on purpose), nor a member.
    if (k > 0 && (punct(k - 1, ".") || punct(k - 1, "->"))) continue;
    if (!punct(k + 1, "(") || ctx.raw(k + 2).kind != RawKind::Number || !punct(k + 3, ")"))
      continue;
    if (nonzeroInteger(ctx.spelling(k + 2)))
      found.push_back(
          {ctx.begin(k + 2), ctx.end(k + 2), std::string(name), std::string(ctx.spelling(k + 2))});
  }
  std::sort(found.begin(), found.end(), [](const Found &a, const Found &b) { return a.at < b.at; });
  for (const Found &f : found) diags.warning(f.at, message(f.call, f.number), f.end, "`ms");
}

} // namespace wuc::fe
