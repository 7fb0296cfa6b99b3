// detect.cpp — mayUseDialect and the `#if 0` groups (detect.h).
//
// A skim of the preprocessing tokens that matter: comments, string and
// character literals, identifiers, pp-numbers, directives at the start of
// a line.  Line continuations are read where they may stand (translation
// phase 2), so `wait\<newline>until` is one identifier.  An unterminated
// literal ends at the end of its line, as GCC's preprocessor reads it; an
// unterminated comment runs to the end of the text.
//
// Speed (frontend/README.md, 'Dialect detection'): 0.8 to 1.3 GB/s at -O2
// on 4.3 MB of the repository's C and C++, on a loaded 2-core machine
// (Detect.DISABLED_Speed in test/unit/frontend/detect_test.cc; run it with
// --gtest_also_run_disabled_tests --gtest_filter=Detect.DISABLED_Speed).
#include "detect.h"

#include <cstring>

namespace wuc {

namespace {

enum Class : unsigned char { Other, Space, IdStart, Digit };

struct Tables {
  unsigned char cls[256];
  bool id[256];   // a byte of an identifier (`$` and every non-ASCII byte too)
  bool stop[256]; // where mayUseDialect looks
  constexpr Tables() : cls(), id(), stop() {
    for (int c = 0; c < 256; c++) {
      const bool alpha =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
      const bool digit = c >= '0' && c <= '9';
      id[c] = alpha || digit;
      cls[c] = alpha ? IdStart : digit ? Digit : Other;
    }
    for (unsigned char c : {' ', '\t', '\v', '\f', '\r'}) cls[c] = Space;
    for (unsigned char c : {'\n', '/', '"', '\'', '#', '%', '\\', '`', 'w', 'c', 'f'})
      stop[c] = true;
  }
};

constexpr Tables kT{};

bool is(const char *s, size_t len, const char *word) {
  return std::strlen(word) == len && std::memcmp(s, word, len) == 0;
}

struct Skim {
  const unsigned char *p;
  size_t n;

  // The length of the line continuation at j (0: none).
  size_t splice(size_t j) const {
    if (j + 1 >= n || p[j] != '\\') return 0;
    if (p[j + 1] == '\n') return 2;
    if (p[j + 1] == '\r' && j + 2 < n && p[j + 2] == '\n') return 3;
    return 0;
  }
  size_t unsplice(size_t j) const {
    for (size_t s; j < n && (s = splice(j)) != 0;) j += s;
    return j;
  }
  bool at(size_t j, unsigned char c) const { return j < n && p[j] == c; }

  // From just after `/*`: past the `*/`, or n.
  size_t blockComment(size_t j) const {
    while (j < n) {
      const void *star = std::memchr(p + j, '*', n - j);
      if (!star) return n;
      j = size_t(static_cast<const unsigned char *>(star) - p) + 1;
      const size_t k = unsplice(j);
      if (at(k, '/')) return k + 1;
    }
    return n;
  }

  // From just after `//`: the newline that ends the comment (a continued
  // line continues it), or n.
  size_t lineComment(size_t j) const {
    while (j < n) {
      const void *nl = std::memchr(p + j, '\n', n - j);
      if (!nl) return n;
      const size_t k = size_t(static_cast<const unsigned char *>(nl) - p);
      const bool continued = p[k - 1] == '\\' || (k >= 2 && p[k - 1] == '\r' && p[k - 2] == '\\');
      if (!continued) return k;
      j = k + 1;
    }
    return n;
  }

  // From just after the opening quote q: past the closing one; at the
  // newline when the line ends first (unterminated), or n.
  size_t literal(size_t j, unsigned char q) const {
    while (j < n) {
      const unsigned char c = p[j];
      if (c == q) return j + 1;
      if (c == '\n') return j;
      if (c == '\\')
        j += j + 2 < n && p[j + 1] == '\r' && p[j + 2] == '\n' ? 3 : 2;
      else
        j++;
    }
    return n;
  }

  // Past spaces, continuations, comments (and newlines if `lines`) from j.
  size_t blank(size_t j, bool lines) const {
    while (j < n) {
      const unsigned char c = p[j];
      if (kT.cls[c] == Space || (lines && c == '\n')) {
        j++;
      } else if (c == '\\') {
        const size_t s = splice(j);
        if (s == 0) break;
        j += s;
      } else if (c == '/') {
        const size_t k = unsplice(j + 1);
        if (at(k, '*'))
          j = blockComment(k + 1);
        else if (at(k, '/'))
          j = lineComment(k + 1);
        else
          break;
      } else {
        break;
      }
    }
    return j;
  }

  // The identifier from j, read through continuations: its end; its first
  // `cap` bytes in buf, its length in len (cap + 1 when longer).
  size_t ident(size_t j, char *buf, size_t cap, size_t &len) const {
    len = 0;
    for (;;) {
      for (; j < n && kT.id[p[j]]; j++) {
        if (len < cap) buf[len] = char(p[j]);
        if (len <= cap) len++;
      }
      const size_t s = j < n ? splice(j) : 0;
      if (s == 0 || j + s >= n || !kT.id[p[j + s]]) return j;
      j += s;
    }
  }

  // The rest of a pp-number from j (after its first digit).
  size_t number(size_t j) const {
    while (j < n) {
      const unsigned char c = p[j];
      if (kT.id[c] || c == '.') {
        const bool sign = (c == 'e' || c == 'E' || c == 'p' || c == 'P') && j + 1 < n &&
                          (p[j + 1] == '+' || p[j + 1] == '-');
        j += sign ? 2 : 1;
      } else if (size_t after; c == '\'' && separatorFollows(j, &after)) {
        j = after; // a digit separator (C23)
      } else {
        const size_t s = splice(j);
        if (s == 0) break;
        j += s;
      }
    }
    return j;
  }

  // Whether what follows the quote at j lets it be a digit separator: an
  // identifier character but `$` or a non-ASCII byte, read through line
  // continuations (phase 2 removes them first: `8'\<newline>1` is `8'1`);
  // *after is just past that character.
  bool separatorFollows(size_t j, size_t *after) const {
    const size_t k = unsplice(j + 1);
    if (k >= n || !kT.id[p[k]] || p[k] == '$' || p[k] >= 0x80) return false;
    *after = k + 1;
    return true;
  }

  // The length of the line continuation that ends just before k (0: none).
  size_t spliceBefore(size_t k) const {
    if (k >= 2 && p[k - 1] == '\n' && p[k - 2] == '\\') return 2;
    if (k >= 3 && p[k - 1] == '\n' && p[k - 2] == '\r' && p[k - 3] == '\\') return 3;
    return 0;
  }

  // Whether the quote at j is a digit separator (C23) in a pp-number.  The
  // run of identifier characters, dots, quotes and exponent signs before it,
  // from no earlier than `floor` (where the caller's last literal or comment
  // ended: `' '8'J` is a literal, then 8'J), is read again from its start,
  // as the preprocessor reads it: a pp-number
  // starts at a digit or a `.` and a digit that does not continue an
  // identifier (`arra.5'5` is `arra`, then the pp-number `.5'5`), and a
  // quote outside a pp-number opens a character literal.
  bool separator(size_t j, size_t floor) const {
    size_t after;
    if (!separatorFollows(j, &after)) return false;
    size_t k = j;
    for (size_t s; k > floor;) {
      if ((s = spliceBefore(k)) != 0 && k - s >= floor) {
        k -= s; // a continuation inside the run
      } else if (kT.id[p[k - 1]] || p[k - 1] == '.' || p[k - 1] == '\'' ||
                 ((p[k - 1] == '+' || p[k - 1] == '-') && k >= 2 &&
                  (p[k - 2] == 'e' || p[k - 2] == 'E' || p[k - 2] == 'p' || p[k - 2] == 'P'))) {
        k--;
      } else {
        break;
      }
    }
    bool inNumber = false;
    for (size_t t = k; t < j;) {
      const unsigned char c = p[t];
      if (const size_t s = splice(t)) {
        t += s; // a continuation: not a token boundary
      } else if (inNumber) {
        if (c == '\'' && separatorFollows(t, &after))
          t = after; // a separator and what follows it
        else if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && t + 1 < j &&
                 (p[t + 1] == '+' || p[t + 1] == '-'))
          t += 2; // an exponent's sign
        else if (c == '\'')
          inNumber = false; // not followed by a digit or nondigit: a literal opens
        else if (kT.id[c] || c == '.')
          t++;
        else
          inNumber = false; // a sign that is no exponent's
      } else if (kT.cls[c] == Digit || (c == '.' && t + 1 < n && kT.cls[p[t + 1]] == Digit)) {
        inNumber = true;
        t++;
      } else if (kT.cls[c] == IdStart) {
        while (t < j && kT.id[p[t]]) t++;
      } else if (c == '\'') {
        // A character literal: j closes it, or it closes before j.
        size_t close = t + 1;
        while (close < j && p[close] != '\'') close++;
        if (close >= j) return false;
        t = close + 1;
      } else {
        t++;
      }
    }
    return inNumber;
  }

  // Whether only spaces stand between the start of j's line and j.  (A
  // comment there too is allowed by the preprocessor; the caller then
  // reads the directive as tokens, which only says "may" more often.)
  bool lineStart(size_t j) const {
    while (j > 0 && kT.cls[p[j - 1]] == Space) j--;
    if (j == 0) return true;
    if (p[j - 1] != '\n') return false;
    return !(j >= 2 && (p[j - 2] == '\\' || (p[j - 2] == '\r' && j >= 3 && p[j - 3] == '\\')));
  }

  // Past the `#` (or `%:`) at j, or 0 when there is none.
  size_t hash(size_t j) const {
    if (at(j, '#')) return j + 1;
    if (at(j, '%')) {
      const size_t k = unsplice(j + 1);
      if (at(k, ':')) return k + 1;
    }
    return 0;
  }

  // A directive's name from j (just after its `#`): its end.
  size_t directiveName(size_t j, char *name, size_t cap, size_t &len) const {
    j = blank(j, false);
    len = 0;
    if (j < n && kT.cls[p[j]] == IdStart) return ident(j, name, cap, len);
    return j;
  }

  // Whether the condition from j (after `if` or `elif`) is the constant 0
  // alone; *end is then the newline that ends the directive (or n).
  bool zero(size_t j, size_t *end) const {
    j = blank(j, false);
    if (!at(j, '0')) return false;
    const size_t k = unsplice(j + 1);
    if (k < n && (kT.id[p[k]] || p[k] == '.' || p[k] == '\'')) return false;
    j = blank(k, false);
    *end = j;
    return j >= n || p[j] == '\n';
  }

  // From j to the newline that ends its line (or n), through comments and
  // literals.
  size_t lineEnd(size_t j) const {
    size_t floor = j;
    while (j < n) {
      const unsigned char c = p[j];
      if (c == '\n') return j;
      if (c == '/') {
        const size_t k = unsplice(j + 1);
        if (at(k, '*')) {
          j = floor = blockComment(k + 1);
          continue;
        }
        if (at(k, '/')) return lineComment(k + 1);
        j++;
      } else if (c == '\'' && separator(j, floor)) {
        j++;
      } else if (c == '"' || c == '\'') {
        j = floor = literal(j + 1, c);
      } else if (c == '\\') {
        const size_t s = splice(j);
        j += s ? s : 1;
      } else {
        j++;
      }
    }
    return n;
  }

  // A false group from the newline at j (or n): the `#` of the directive
  // that ends it, or n.
  size_t skipGroup(size_t j) const {
    unsigned depth = 0;
    while (j < n) {
      const size_t k = blank(j + 1, false);
      const size_t h = hash(k);
      size_t rest = k;
      if (h) {
        char name[8];
        size_t len;
        rest = directiveName(h, name, 7, len);
        if (is(name, len, "if") || is(name, len, "ifdef") || is(name, len, "ifndef")) {
          depth++;
        } else if (is(name, len, "endif")) {
          if (depth == 0) return k;
          depth--;
        } else if (depth == 0 && (is(name, len, "else") || is(name, len, "elif") ||
                                  is(name, len, "elifdef") || is(name, len, "elifndef"))) {
          return k;
        }
      }
      j = lineEnd(rest);
    }
    return n;
  }

  // At a directive's `#` (h just after it): where its false group ends
  // (the `#` of the directive after it) when it is `#if 0` or `#elif 0`,
  // else 0; *after is set past the directive's name.
  size_t falseGroup(size_t h, size_t *after, size_t *groupBegin) const {
    char name[8];
    size_t len, end;
    *after = directiveName(h, name, 7, len);
    if (!(is(name, len, "if") || is(name, len, "elif")) || !zero(*after, &end)) return 0;
    *groupBegin = end;
    return skipGroup(end);
  }
};

} // namespace

bool mayUseDialect(std::string_view text) {
  const Skim s{reinterpret_cast<const unsigned char *>(text.data()), text.size()};
  const unsigned char *const p = s.p;
  const size_t n = s.n;
  // Where the last literal or comment ended: no pp-number reaches back
  // over it (Skim::separator).
  size_t floor = 0;
  for (size_t i = 0;;) {
    // Only the bytes that may start a comment, a literal, a directive, a
    // backtick or one of the three words need a look.
    while (i < n && !kT.stop[p[i]]) i++;
    if (i >= n) return false;
    const unsigned char c = p[i];
    switch (c) {
    case 'w':
    case 'c':
    case 'f': {
      if (i > 0 && (kT.id[p[i - 1]] || (p[i - 1] == '\'' && s.separator(i - 1, floor)))) {
        // inside an identifier or a pp-number
        while (i < n && kT.id[p[i]]) i++;
        break;
      }
      const size_t start = i;
      while (i < n && kT.id[p[i]]) i++;
      const char *word = reinterpret_cast<const char *>(p + start);
      size_t len = i - start;
      char buf[10];
      if (s.splice(i)) { // a continued identifier: read it again, joined
        i = s.ident(start, buf, 9, len);
        word = buf;
      }
      if (len == 9 && std::memcmp(word, "waituntil", 9) == 0) return true;
      if ((len == 7 && std::memcmp(word, "channel", 7) == 0) ||
          (len == 6 && std::memcmp(word, "future", 6) == 0)) {
        if (s.at(s.blank(i, true), '(')) return true;
      }
      break;
    }
    case '/': {
      const size_t k = s.unsplice(i + 1);
      if (s.at(k, '*'))
        i = floor = s.blockComment(k + 1);
      else if (s.at(k, '/'))
        i = floor = s.lineComment(k + 1);
      else
        i++;
      break;
    }
    case '"':
      i = floor = s.literal(i + 1, c);
      break;
    case '\'':
      if (s.separator(i, floor))
        i++;
      else
        i = floor = s.literal(i + 1, c);
      break;
    case '#':
    case '%': {
      const size_t h = s.hash(i);
      if (h == 0 || !s.lineStart(i)) {
        i = h ? h : i + 1;
        break;
      }
      // A directive.  The group of an `#if 0` / `#elif 0` is skipped up to
      // the `#` of the directive that ends it; a `#define` is read on as
      // tokens (the frontend edits its replacement list); any other
      // directive (`#include <wuc/waituntil.h>`, `#pragma`, `#error`) is
      // skipped to its end.
      size_t after, groupBegin;
      const size_t end = s.falseGroup(h, &after, &groupBegin);
      if (end) {
        i = end;
        break;
      }
      char name[8];
      size_t len;
      s.directiveName(h, name, 7, len);
      i = is(name, len, "define") ? after : s.lineEnd(after);
      break;
    }
    case '`':
      return true;
    default: // a newline, a backslash
      i++;
      break;
    }
  }
}

namespace fe {

void findFalseGroups(std::string_view text, std::vector<std::pair<size_t, size_t>> &out) {
  out.clear();
  if (text.find('#') == std::string_view::npos && text.find("%:") == std::string_view::npos) return;
  const Skim s{reinterpret_cast<const unsigned char *>(text.data()), text.size()};
  for (size_t j = 0; j < s.n;) {
    // j starts a line (or is the `#` that ends a false group).
    size_t k = s.blank(j, false);
    const size_t h = s.hash(k);
    if (h) {
      size_t after, groupBegin;
      const size_t end = s.falseGroup(h, &after, &groupBegin);
      if (end) {
        out.push_back({groupBegin, end});
        j = end;
        continue;
      }
      k = after;
    }
    j = s.lineEnd(k) + 1;
  }
}

} // namespace fe

} // namespace wuc
