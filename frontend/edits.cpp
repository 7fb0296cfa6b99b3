// edits.cpp — the dialect's lexical extensions as ast.h Edits:
//   channel(T) / future(T)  -> struct wuc_channel_<M> / struct wuc_future_<M>,
//                              plus one WUC_*_STRUCT definition per M at the
//                              start of the external declaration of its first use
//   10`ms                   -> ((wuc_duration_t)(10 * 1000000LL))
// in the code and in the replacement lists of #define directives.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "frontend_internal.h"
#include "messages.h"
#include "parser.hpp"
#include "quote.h"

namespace wuc::fe {

namespace {

bool punctIs(const RawTok &t, const char *p) {
  return t.kind == RawKind::Punct && std::strcmp(t.punct, p) == 0;
}

// The mangled name of a punctuator in a type (`*` and `[` are handled by
// the caller).
std::string punctName(const char *p) {
  static const std::pair<const char *, const char *> kNames[] = {
      {"(", "lp"},       {")", "rp"},      {"{", "lb"},
      {"}", "rb"},       {",", "comma"},   {"...", "ellipsis"},
      {".", "dot"},      {"->", "arrow"},  {"&", "amp"},
      {"&&", "andand"},  {"|", "bor"},     {"||", "oror"},
      {"^", "xor"},      {"~", "tilde"},   {"!", "not"},
      {"+", "plus"},     {"-", "minus"},   {"/", "div"},
      {"%", "mod"},      {"<", "lt"},      {">", "gt"},
      {"<=", "le"},      {">=", "ge"},     {"==", "eq"},
      {"!=", "ne"},      {"<<", "shl"},    {">>", "shr"},
      {"=", "assign"},   {"?", "q"},       {":", "colon"},
      {";", "semi"},     {"#", "hash"},    {"##", "hashhash"},
      {"++", "inc"},     {"--", "dec"},    {"*=", "muleq"},
      {"/=", "diveq"},   {"%=", "modeq"},  {"+=", "pluseq"},
      {"-=", "minuseq"}, {"<<=", "shleq"}, {">>=", "shreq"},
      {"&=", "ampeq"},   {"^=", "xoreq"},  {"|=", "boreq"},
      {"]", ""}};
  for (auto &e : kNames)
    if (std::strcmp(e.first, p) == 0) return e.second;
  return identifierSafe(p);
}

// channel and future types nest at most this deep (docs/language.md §7,
// TypesNestedTooDeeply): their definitions are made recursively.
constexpr unsigned kMaxTypeNesting = 4096;

// Whether the constant `num` times `factor` nanoseconds is more than a
// duration_t (int64_t) holds.  A constant that is not well formed is left
// to the back-end compiler (false).
bool tooLarge(std::string num, bool floating, long long factor) {
  num.erase(std::remove(num.begin(), num.end(), '\''), num.end()); // C23 digit separators
  if (floating) {
    // The longest constant strtold reads; a suffix (f, l...) stays behind.
    const long double n = std::strtold(num.c_str(), nullptr);
    const long double limit = 9223372036854775808.0L; // 2^63
    return n * factor >= limit || double(n) * double(factor) >= double(limit);
  }
  while (!num.empty() && std::strchr("uUlLwWbB", num.back()) && !(num.size() == 2 && num[0] == '0'))
    num.pop_back(); // u, l, ll, wb suffixes (not the b of 0b)
  unsigned base = 10;
  size_t k = 0;
  if (num.size() > 1 && num[0] == '0' && (num[1] == 'x' || num[1] == 'X')) {
    base = 16;
    k = 2;
  } else if (num.size() > 1 && num[0] == '0' && (num[1] == 'b' || num[1] == 'B')) {
    base = 2;
    k = 2;
  } else if (num.size() > 1 && num[0] == '0') {
    base = 8;
    k = 1;
  }
  if (k >= num.size() && base != 8) return false;
  using u128 = unsigned __int128;
  u128 value = 0;
  const u128 cap = u128(1) << 100; // far beyond any product that fits
  for (; k < num.size(); k++) {
    const char c = num[k];
    unsigned digit = c >= '0' && c <= '9'   ? unsigned(c - '0')
                     : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10)
                                            : 99;
    if (digit >= base) return false;
    value = value * base + digit;
    if (value > cap) return true;
  }
  return value * u128(factor) > u128(INT64_MAX);
}

// The tokens edits are looked for in: the parser's, or those of one #define's
// replacement list.
struct View {
  const Splice &splice;
  const LexOutput &lex;
  const std::vector<Tok> &toks;
  int size() const { return int(toks.size()); }
  const RawTok &raw(int i) const { return lex.toks[toks[unsigned(i)].raw]; }
  std::string_view spelling(int i) const { return spellingOf(splice, raw(i)); }
  unsigned begin(int i) const { return raw(i).begin; }
  unsigned end(int i) const { return raw(i).end; }
  int match(int i) const { return toks[unsigned(i)].match; }
  // The innermost bracket around token i (-1: none), once setParents ran.
  int parent(int i) const { return parents[unsigned(i)]; }
  std::vector<int> parents;
  void setParents() {
    parents.assign(toks.size(), -1);
    std::vector<int> open;
    for (int i = 0; i < size(); i++) {
      const int m = match(i);
      if (m >= 0 && m < i) {
        while (!open.empty() && open.back() != m) open.pop_back();
        if (!open.empty()) open.pop_back();
      }
      parents[unsigned(i)] = open.empty() ? -1 : open.back();
      if (m > i) open.push_back(i);
    }
  }
};

// Whether s is one of the space-separated words of `words`.
bool isOneOf(std::string_view s, std::string_view words) {
  for (size_t at = words.find(s); at != std::string_view::npos; at = words.find(s, at + 1))
    if ((at == 0 || words[at - 1] == ' ') &&
        (at + s.size() == words.size() || words[at + s.size()] == ' '))
      return !s.empty();
  return false;
}

// docs/language.md, 'Types': the words of a type name's start, those that
// may come before a type in a declaration, and the qualifiers.
bool isQualifier(std::string_view s) {
  return isOneOf(
      s, "const volatile restrict __restrict __restrict__ __const __volatile __volatile__ _Atomic");
}
bool beginsTypeName(std::string_view s) {
  return isQualifier(s) ||
         isOneOf(s, "void char short int long float double signed __signed__ unsigned _Bool bool "
                    "_Complex __complex__ _Imaginary struct union enum typeof __typeof__ __typeof "
                    "typeof_unqual __typeof_unqual__ __int128 _BitInt _Float16 _Float32 _Float64 "
                    "_Float128 _Float32x _Float64x __float128 _Decimal32 _Decimal64 _Decimal128 "
                    "__extension__ __attribute__ __attribute");
}
bool precedesType(std::string_view s) {
  return isQualifier(s) ||
         isOneOf(s, "typedef extern static auto register _Thread_local thread_local __thread "
                    "inline __inline __inline__ _Noreturn noreturn __extension__ constexpr");
}
// Words whose parenthesised arguments are (or may be) type names.
bool takesTypeName(std::string_view s) {
  return isOneOf(s, "sizeof _Alignof alignof __alignof__ __alignof typeof __typeof__ __typeof "
                    "typeof_unqual __typeof_unqual__ _Atomic _Generic offsetof __builtin_offsetof "
                    "va_arg __builtin_va_arg __builtin_types_compatible_p channel future");
}

struct Collector {
  ParseContext &ctx;
  const View *v = nullptr;
  bool inDirective = false;
  std::set<std::string_view> params; // of the function-like macro being scanned
  unsigned fixedInsertion = 0;       // in a directive: where its type definitions go
  std::vector<Edit> replacements;
  std::vector<std::pair<unsigned, std::string>> insertions; // in registration order
  std::set<std::pair<std::string, unsigned>> defined;       // tag, and where in a function (or 0)

  // A type declared inside a function: `struct x {...}` (or union, enum)
  // or a typedef name, seen from the end of its declaration to the end of
  // its block.
  struct LocalType {
    int scopeEnd;    // the `}` of the block declaring it
    int declEnd;     // the `;` ending its declaration
    std::string key; // "struct x", "enum e", or the typedef name
  };
  std::vector<LocalType> localTypes; // by declEnd

  explicit Collector(ParseContext &c) : ctx(c) {}

  // `channel` or `future` and a parenthesised group at token k.
  bool isWordParen(int k) const {
    if (k < 0 || k + 1 >= v->size() || v->raw(k).kind != RawKind::Ident) return false;
    std::string_view s = v->spelling(k);
    return (s == "channel" || s == "future") && punctIs(v->raw(k + 1), "(") &&
           v->match(k + 1) > k + 1;
  }

  // docs/language.md, 'Types', "Where channel(T) is a type": `channel` or
  // `future` followed by a parenthesised group is the type form only where
  // a type can stand (judged by the token before it) and when the group
  // holds a type name; a single identifier (or nothing), which may name a
  // type or a variable, is a type only where a declaration or a type-name
  // argument is sure.
  bool isTypeWord(int i) const {
    if (!isWordParen(i)) return false;
    bool declarationStart = false;
    if (!standsForType(i, declarationStart)) return false;
    // In `channel(future(channel(...` each is the type form exactly when the
    // innermost is (which stands after a `(`): found without recursion.
    int last = i;
    for (unsigned levels = 1; isWordParen(last + 2); last += 2)
      if (++levels > kMaxTypeNesting) return true; // refused by scan()
    if (last != i) declarationStart = false;
    const Holds h = holds(last);
    if (h != Ambiguous) return h == Type;
    return ambiguousIsType(last, declarationStart);
  }

  bool ident(int k) const { return k >= 0 && k < v->size() && v->raw(k).kind == RawKind::Ident; }
  bool punct(int k, const char *p) const {
    return k >= 0 && k < v->size() && punctIs(v->raw(k), p);
  }

  // Where type word i stands: after a token a type can follow.
  // `declarationStart`: after a storage class, qualifier or attribute.
  bool standsForType(int i, bool &declarationStart) const {
    // Storage classes, qualifiers, function specifiers and attributes may
    // come first; what stands before them decides (`int const channel(`
    // declares a function).
    int prev = i - 1;
    declarationStart = false;
    for (;;) {
      if (ident(prev) && precedesType(v->spelling(prev))) {
        prev--;
      } else if (punct(prev, ")") && v->match(prev) > 0 && ident(v->match(prev) - 1) &&
                 isOneOf(v->spelling(v->match(prev) - 1),
                         "__attribute__ __attribute _Alignas alignas __declspec")) {
        prev = v->match(prev) - 2; // __attribute__((...)), _Alignas(...)
      } else {
        break;
      }
      declarationStart = true;
    }
    if (prev < 0) return true;     // the start of the file or of a #define's replacement list
    if (ident(prev)) return false; // `int channel(`, `return future(`, `T const channel(`
    if (punct(prev, ")")) {
      // At file scope after a macro call (`DECLARE(x) channel(int) c;`) or
      // K&R parameters; not after `if (x)` or a cast, where only an
      // expression can follow.
      return v->match(prev) >= 0 && v->parent(prev) < 0;
    }
    if (punct(prev, "}")) {
      // Not after a struct, union or enum body (`struct s {...} channel(`).
      const int m = v->match(prev);
      return !(m > 0 && ((ident(m - 1) && isTagWord(v->spelling(m - 1))) ||
                         (m > 1 && ident(m - 1) && ident(m - 2) && isTagWord(v->spelling(m - 2)))));
    }
    // After an operator or a literal only an operand can follow.
    return punct(prev, ";") || punct(prev, "{") || punct(prev, "(") || punct(prev, ",") ||
           punct(prev, ":");
  }

  // What the parentheses of type word k hold (their first token is not
  // itself a type word and its group).
  enum Holds { Type, Ambiguous, Expression };
  Holds holds(int k) const {
    const int open = k + 1, close = v->match(open);
    if (close == open + 1) return Ambiguous;
    if (!ident(open + 1)) return Expression; // `channel(3)`, `future(*p)`, `channel("x")`
    if (beginsTypeName(v->spelling(open + 1))) return Type;
    if (close == open + 2) return Ambiguous; // an identifier alone
    // T followed by `*`s and qualifiers only (`job_t *`).
    for (int j = open + 2; j < close; j++)
      if (!punct(j, "*") && !(ident(j) && isQualifier(v->spelling(j)))) return Expression;
    return Type;
  }

  // `channel(T)` or `channel()`: a declaration's type when declarators
  // follow, or after a storage class; a type-name argument of sizeof,
  // _Alignof, typeof, offsetof, va_arg, _Generic, channel...
  bool ambiguousIsType(int k, bool declarationStart) const {
    if (declarationStart) return true;
    const int after = v->match(k + 1) + 1;
    if (ident(after)) return !isOneOf(v->spelling(after), "or and bitor bitand xor");
    if (punct(after, "*"))
      return ident(after + 1) || punct(after + 1, "*") || punct(after + 1, ")") ||
             punct(after + 1, ",") || punct(after + 1, "(");
    if (after >= v->size() || punct(after, ")") || punct(after, ",") || punct(after, ":")) {
      const int outer = v->parent(k);
      return outer > 0 && punct(outer, "(") && ident(outer - 1) &&
             takesTypeName(v->spelling(outer - 1));
    }
    return false;
  }

  // How deeply type words nest in the type at i (itself counted).
  unsigned typeDepth(int i) const {
    std::vector<int> ends{v->match(i + 1)};
    unsigned deepest = 1;
    for (int k = i + 2; k < ends.front(); k++) {
      while (ends.back() < k) ends.pop_back();
      if (isWordParen(k)) {
        ends.push_back(v->match(k + 1));
        deepest = std::max(deepest, unsigned(ends.size()));
      }
    }
    return deepest;
  }

  static bool isTagWord(std::string_view w) { return w == "struct" || w == "union" || w == "enum"; }

  // `10`ms` starting at token i: its replacement, or an error.
  bool duration(int i, std::string &text) {
    static const std::pair<const char *, const char *> kUnits[] = {
        {"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
    const int n = v->size();
    int unit = i + 2;
    std::string_view u = unit < n && v->raw(unit).kind == RawKind::Ident ? v->spelling(unit) : "";
    const char *factor = nullptr;
    for (auto &e : kUnits)
      if (u == e.first) factor = e.second;
    if (!factor) {
      std::string shown = unit < n ? std::string(v->spelling(unit).substr(0, 40)) : std::string();
      ctx.error(v->begin(i), format(msg::UnknownDurationUnit, shown));
      return false;
    }
    std::string num(v->spelling(i));
    bool hex = num.size() > 1 && num[0] == '0' && (num[1] == 'x' || num[1] == 'X');
    bool floating = hex ? num.find_first_of("pP") != std::string::npos
                        : num.find_first_of(".eE") != std::string::npos;
    if (tooLarge(num, floating, std::strtoll(factor, nullptr, 10))) {
      ctx.error(v->begin(i), format(msg::DurationOverflow, printable(num + "`" + std::string(u))));
      return false;
    }
    // The multiplication in 64 bits (integers) or double (floating).
    text = "((wuc_duration_t)(" + num + " * " + factor + (floating ? ".0" : "LL") + "))";
    return true;
  }

  // Where a type first used at token i is defined: the start of the
  // external declaration holding it (for a directive, the one after it).
  unsigned insertionPoint(int i) const {
    return inDirective ? fixedInsertion : insertionPointInMain(i);
  }

  // channel(T) / future(T) at token i: the struct's tag (registering its
  // definition, inner types first).  `*local` (if given) is set to where a
  // definition inside a function goes (0: at file scope), for an enclosing
  // type that holds this one.
  std::string typeName(int i, unsigned *local = nullptr) {
    const bool chan = v->spelling(i) == "channel";
    const int open = i + 1, close = v->match(open);
    // T names a type declared in the function: the definition goes right
    // after that type's declaration (after the last such, and after the
    // definitions of the inner channel and future types).
    unsigned localAt = inDirective ? 0 : localTypesIn(i, open + 1, close);
    std::vector<std::string> parts;
    bool glue = false; // the next part joins the previous one (after `[`)
    std::string rendered;
    auto part = [&](std::string p) {
      if (glue && !parts.empty()) {
        parts.back() += p;
        glue = false;
      } else if (!p.empty()) {
        parts.push_back(std::move(p));
      }
    };
    auto render = [&](std::string_view s) {
      if (!rendered.empty()) rendered += ' ';
      rendered += s;
    };
    if (close == open + 1)
      ctx.error(v->begin(i), format(msg::EmptyTypeName, chan ? "channel" : "future"));
    for (int j = open + 1; j < close; j++) {
      const RawTok &t = v->raw(j);
      if (isTypeWord(j)) {
        unsigned innerAt = 0;
        std::string inner = typeName(j, &innerAt);
        localAt = std::max(localAt, innerAt);
        part("struct");
        part(inner);
        render("struct " + inner);
        j = v->match(j + 1);
        continue;
      }
      std::string dur;
      if (t.kind == RawKind::Number && j + 1 < close && v->raw(j + 1).kind == RawKind::Backtick &&
          duration(j, dur)) {
        part(identifierSafe(v->spelling(j)) + "_bt_" + identifierSafe(v->spelling(j + 2)));
        render(dur);
        j += 2;
        continue;
      }
      render(v->spelling(j));
      if (t.kind == RawKind::Ident) {
        part(identifierSafe(v->spelling(j)));
      } else if (t.kind == RawKind::Number) {
        std::string num;
        for (char c : v->spelling(j))
          num += c == '.' ? 'd' : c == '+' ? 'p' : c == '-' ? 'm' : c == '\'' ? 'q' : c;
        part(identifierSafe(num));
      } else if (punctIs(t, "*")) {
        part("P");
      } else if (punctIs(t, "[")) {
        part("A");
        glue = true;
      } else if (t.kind == RawKind::Punct) {
        part(punctName(t.punct));
      } else {
        part(identifierSafe(v->spelling(j)));
      }
    }
    std::string tag = typeTagFromParts(chan, parts);
    if (local) *local = localAt;
    // A struct defined in a block has no trait of its own: a future there is
    // selectable through its core (WUC_FUTURE_LOCAL_STRUCT).
    const char *macro = chan      ? "WUC_CHANNEL_STRUCT("
                        : localAt ? "WUC_FUTURE_LOCAL_STRUCT("
                                  : "WUC_FUTURE_STRUCT(";
    const unsigned at = localAt ? localAt : insertionPoint(i);
    if (defined.insert({tag, localAt}).second)
      insertions.push_back({at, std::string(macro) + tag + ", " + rendered + ");\n"});
    return tag;
  }

  void replace(Edit::Kind kind, int first, int last, std::string text) {
    Edit e{kind, {v->begin(first), v->end(last)}, std::move(text)};
    // Keep the text from merging with a neighbouring identifier or number.
    const std::string &src = ctx.file.text();
    if (e.range.begin > 0 && identifierByte((unsigned char)src[e.range.begin - 1]))
      e.text.insert(0, " ");
    if (e.range.end < src.size() && identifierByte((unsigned char)src[e.range.end])) e.text += ' ';
    replacements.push_back(std::move(e));
  }

  bool mentionsParameter(int from, int to) const {
    for (int j = from; j < to; j++)
      if (v->raw(j).kind == RawKind::Ident && params.count(v->spelling(j))) return true;
    return false;
  }

  // Edits in tokens [from, to) of the current view; returns where the next
  // scan starts (past `to` when a type's parentheses run past it).
  int scan(int from, int to) {
    int i = from;
    for (; i < to; i++) {
      const RawTok &t = v->raw(i);
      if (isTypeWord(i)) {
        const bool chan = v->spelling(i) == "channel";
        int close = v->match(i + 1);
        if (typeDepth(i) > kMaxTypeNesting) { // typeName recurses once per level
          ctx.error(v->begin(i),
                    format(msg::TypesNestedTooDeeply, std::to_string(kMaxTypeNesting)));
          i = close;
          continue;
        }
        if (inDirective && mentionsParameter(i + 2, close)) {
          i = close; // T is known only once the macro is expanded
          continue;
        }
        std::string tag = typeName(i);
        replace(chan ? Edit::ChannelType : Edit::FutureType, i, close, "struct " + tag);
        i = close;
      } else if (t.kind == RawKind::Backtick) {
        if (i == from || v->raw(i - 1).kind != RawKind::Number) {
          ctx.error(t.begin, msg::DurationNeedsNumber);
          continue;
        }
        std::string text;
        if (duration(i - 1, text)) {
          replace(Edit::Duration, i - 1, i + 1, text);
          i++;
        }
      }
    }
    return i;
  }

  // The replacement list of a #define: its tokens after the macro's name
  // (and parameters), brackets paired among themselves.
  void directive(const Directive &d) {
    // Inside the parentheses of a type already replaced: part of that edit.
    if (!replacements.empty() && ctx.splice.orig(d.cbegin) < replacements.back().range.end) return;
    LexOutput lex;
    // Past the `#` (or `%:`).
    unsigned from = d.cbegin + (ctx.splice.clean()[d.cbegin] == '#' ? 1 : 2);
    if (!scanRange(ctx.splice, from, d.cend, lex) || lex.toks.size() < 3) return;
    if (spellingOf(ctx.splice, lex.toks[0]) != "define" || lex.toks[1].kind != RawKind::Ident)
      return;
    size_t body = 2;
    params.clear();
    if (lex.toks[2].cbegin == lex.toks[1].cend && punctIs(lex.toks[2], "(")) { // function-like
      while (body < lex.toks.size() && !punctIs(lex.toks[body], ")")) {
        if (lex.toks[body].kind == RawKind::Ident)
          params.insert(spellingOf(ctx.splice, lex.toks[body]));
        body++;
      }
      body++;
    }
    std::vector<Tok> toks;
    std::vector<int> open;
    for (size_t k = body; k < lex.toks.size(); k++) {
      Tok t;
      t.raw = unsigned(k);
      const RawTok &r = lex.toks[k];
      int me = int(toks.size());
      if (punctIs(r, "(") || punctIs(r, "[") || punctIs(r, "{")) {
        open.push_back(me);
      } else if ((punctIs(r, ")") || punctIs(r, "]") || punctIs(r, "}")) && !open.empty()) {
        const char pair = r.punct[0] == ')' ? '(' : r.punct[0] == ']' ? '[' : '{';
        if (lex.toks[toks[unsigned(open.back())].raw].punct[0] == pair) {
          t.match = open.back();
          toks[unsigned(open.back())].match = me;
          open.pop_back();
        }
      }
      toks.push_back(t);
    }
    if (toks.empty()) return;
    // Definitions go before the first declaration after the directive (at
    // file scope, and before any use of the macro).
    auto next = std::lower_bound(
        ctx.toks.begin(), ctx.toks.end(), ctx.splice.orig(d.cend),
        [&](const Tok &t, unsigned off) { return ctx.lex.toks[t.raw].begin < off; });
    if (next != ctx.toks.end()) {
      fixedInsertion = insertionPointInMain(int(next - ctx.toks.begin()));
    } else {
      fixedInsertion = ctx.splice.orig(d.cbegin); // nothing after it: before it
    }
    View dv{ctx.splice, lex, toks, {}};
    dv.setParents();
    const View *saved = v;
    v = &dv;
    inDirective = true;
    scan(0, int(toks.size()));
    inDirective = false;
    v = saved;
  }

  // The local types of the main view (run() calls it once).
  void findLocalTypes() {
    static const std::set<std::string_view> kNotNames = {
        "int",      "char",     "short",        "long",          "unsigned",    "signed",
        "float",    "double",   "void",         "_Bool",         "_Complex",    "const",
        "volatile", "restrict", "__restrict",   "__restrict__",  "_Atomic",     "struct",
        "union",    "enum",     "typedef",      "__attribute__", "__attribute", "__extension__",
        "typeof",   "__typeof", "__typeof__",   "_Alignas",      "__int128",    "static",
        "extern",   "register", "_Thread_local"};
    const int n = v->size();
    enum Kind { Scope, TagBody, Other };
    std::vector<std::pair<int, Kind>> stack; // open brackets
    bool inFunction = false;
    auto isTagWord = [&](int k) {
      std::string_view w = v->spelling(k);
      return v->raw(k).kind == RawKind::Ident && (w == "struct" || w == "union" || w == "enum");
    };
    // The `;` that ends the declaration whose tokens at block level go on
    // from token k (skipping bracket groups), or -1.
    auto declarationEnd = [&](int k) {
      for (; k < n; k++) {
        if (punctIs(v->raw(k), ";")) return k;
        const int m = v->match(k);
        if (m > k) {
          k = m;
        } else if (m >= 0 || punctIs(v->raw(k), "}") || punctIs(v->raw(k), ")")) {
          return -1;
        }
      }
      return -1;
    };
    // The innermost block around the top of the stack, if only struct
    // bodies stand between: [its index in the stack, the outermost struct body].
    auto enclosingScope = [&](int &outerBody) -> int {
      outerBody = -1;
      for (size_t s = stack.size(); s-- > 0;) {
        if (stack[s].second == Scope) return int(s);
        if (stack[s].second != TagBody) return -1;
        outerBody = stack[s].first;
      }
      return -1;
    };
    for (int i = 0; i < n; i++) {
      const RawTok &t = v->raw(i);
      const int m = v->match(i);
      if (ctx.toks[unsigned(i)].kind == Parser::token::FUNC_LBRACE) {
        inFunction = true;
        stack.push_back({i, Scope});
        continue;
      }
      if (m > i) {
        Kind k = Other;
        if (punctIs(t, "{") && inFunction) {
          const bool tagBody = (i > 0 && isTagWord(i - 1)) ||
                               (i > 1 && v->raw(i - 1).kind == RawKind::Ident && isTagWord(i - 2));
          k = tagBody ? TagBody : Scope;
        }
        stack.push_back({i, k});
        continue;
      }
      if (m >= 0 && m < i) {
        while (!stack.empty() && stack.back().first != m) stack.pop_back();
        if (!stack.empty()) stack.pop_back();
        if (stack.empty()) inFunction = false;
        continue;
      }
      if (!inFunction || t.kind != RawKind::Ident) continue;
      int outerBody = -1;
      const int scope = enclosingScope(outerBody);
      if (scope < 0) continue;
      const int scopeEnd = v->match(stack[size_t(scope)].first);
      if (isTagWord(i) && i + 2 < n && v->raw(i + 1).kind == RawKind::Ident &&
          punctIs(v->raw(i + 2), "{") && v->match(i + 2) > i + 2) {
        // struct x { ... } ...;  (inside struct bodies: after the outermost)
        const int end = declarationEnd(v->match(outerBody >= 0 ? outerBody : i + 2) + 1);
        if (end > 0)
          localTypes.push_back(
              {scopeEnd, end, std::string(v->spelling(i)) + " " + std::string(v->spelling(i + 1))});
      } else if (v->spelling(i) == "typedef" && outerBody < 0) {
        // typedef ... name, (*name)(...), name[...];  the names are the
        // identifiers at block level (or in a `(*` declarator group) that a
        // declarator may end with.
        const int end = declarationEnd(i + 1);
        for (int k = i + 1; end > 0 && k < end; k++) {
          int groupEnd = -1;
          if (punctIs(v->raw(k), "(") && punctIs(v->raw(k + 1), "*")) {
            groupEnd = v->match(k); // a declarator group: look inside
            k++;
          } else if (v->match(k) > k) {
            k = v->match(k); // a struct body, a parameter list, an array size
            continue;
          }
          for (int e = groupEnd > 0 ? groupEnd : k + 1; k < e; k++) {
            if (v->raw(k).kind != RawKind::Ident || kNotNames.count(v->spelling(k))) continue;
            const RawTok &after = v->raw(k + 1);
            if (punctIs(after, ";") || punctIs(after, ",") || punctIs(after, "[") ||
                punctIs(after, "(") || punctIs(after, ")"))
              localTypes.push_back({scopeEnd, end, std::string(v->spelling(k))});
          }
          k = groupEnd > 0 ? groupEnd : k - 1;
        }
      }
    }
    std::stable_sort(localTypes.begin(), localTypes.end(),
                     [](const LocalType &a, const LocalType &b) { return a.declEnd < b.declEnd; });
  }

  // Where the definition of a type used at token `use`, whose T is tokens
  // [from, to), goes when T names a type local to the function: right after
  // the declaration of the last such type (0: T needs nothing local).
  unsigned localTypesIn(int use, int from, int to) const {
    int after = -1;
    for (int j = from; j < to; j++) {
      if (v->raw(j).kind != RawKind::Ident) continue;
      std::string key(v->spelling(j));
      const std::string_view w = v->spelling(j);
      if ((w == "struct" || w == "union" || w == "enum") && j + 1 < to &&
          v->raw(j + 1).kind == RawKind::Ident) {
        key += " " + std::string(v->spelling(j + 1));
        j++;
      } else if (j > from && (punctIs(v->raw(j - 1), ".") || punctIs(v->raw(j - 1), "->"))) {
        continue;
      }
      // The visible declaration of that name declared last (an inner
      // block's shadows an outer one's).
      for (auto l = localTypes.rbegin(); l != localTypes.rend(); ++l) {
        if (l->declEnd >= use || l->scopeEnd < use || l->key != key) continue;
        after = std::max(after, l->declEnd);
        break;
      }
    }
    return after < 0 ? 0 : v->end(after);
  }

  unsigned insertionPointInMain(int i) const {
    auto &decls = ctx.externalDecls;
    auto it = std::upper_bound(decls.begin(), decls.end(), i);
    int first = it == decls.begin() ? i : *(it - 1);
    return ctx.begin(first);
  }

  void run() {
    View main{ctx.splice, ctx.lex, ctx.toks, {}};
    main.setParents();
    v = &main;
    findLocalTypes();
    // In source order, so that a type's definition goes with its first use.
    const auto &dirs = ctx.lex.directives;
    size_t d = 0;
    const int n = main.size();
    int from = 0;
    for (;;) {
      unsigned upTo = d < dirs.size() ? ctx.splice.orig(dirs[d].cbegin) : ~0u;
      int to = from;
      while (to < n && main.begin(to) < upTo) to++;
      from = std::max(to, scan(from, to));
      if (d == dirs.size()) break;
      directive(dirs[d++]);
    }
  }

  // Sorted by begin; the insertions at one offset are one edit.  An
  // insertion at the start of a replacement comes first, and stays an edit
  // of its own: the lowering and the semantic pass re-number the lines after
  // each TypeDefinition (the Renderer takes both in this order).
  std::vector<Edit> finish() {
    std::map<unsigned, std::string> at;
    for (auto &ins : insertions) at[ins.first] += ins.second;
    std::sort(replacements.begin(), replacements.end(),
              [](const Edit &a, const Edit &b) { return a.range.begin < b.range.begin; });
    std::vector<Edit> out;
    out.reserve(replacements.size() + at.size());
    size_t r = 0;
    for (auto &[offset, text] : at) {
      while (r < replacements.size() && replacements[r].range.begin < offset)
        out.push_back(replacements[r++]);
      out.push_back(Edit{Edit::TypeDefinition, {offset, offset}, text});
    }
    while (r < replacements.size()) out.push_back(replacements[r++]);
    return out;
  }
};

} // namespace

void collectEdits(ParseContext &ctx) {
  Collector c(ctx);
  c.run();
  // A statement inside a type name (in a statement expression) would lie
  // inside the type's edit: refuse it rather than lose it.
  const auto &stmts = ctx.out.statements; // sorted by begin
  for (const Edit &e : c.replacements) {
    auto w = std::lower_bound(stmts.begin(), stmts.end(), e.range.begin,
                              [](const WaitUntil &x, unsigned b) { return x.range.begin < b; });
    if (w != stmts.end() && w->range.begin < e.range.end)
      ctx.error(w->range.begin, format(msg::KeywordNotStatement, "waituntil"));
  }
  ctx.out.edits = c.finish();
}

} // namespace wuc::fe
