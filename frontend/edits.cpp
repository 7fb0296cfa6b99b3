// edits.cpp — the dialect's lexical extensions as ast.h Edits:
//   channel(T) / future(T)  -> struct wuc_channel_<M> / struct wuc_future_<M>,
//                              plus one WUC_*_STRUCT definition per M at the
//                              start of the external declaration of its first use
//   10`ms                   -> ((duration_t)(10 * 1000000LL))
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>

#include "frontend_internal.h"
#include "messages.h"

namespace wuc::fe {

namespace {

bool punctIs(const RawTok &t, const char *p) {
  return t.kind == RawKind::Punct && std::strcmp(t.punct, p) == 0;
}

bool identChar(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c >= 0x80;
}

// Keeps identifier characters; spells every other byte as xHH.
std::string identifierSafe(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (identChar(c)) {
      out += char(c);
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += 'x';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The mangled name of a punctuator in a type (`*` and `[` are handled by
// the caller).
std::string punctName(const char *p) {
  static const std::pair<const char *, const char *> kNames[] = {
      {"(", "lp"},     {")", "rp"},      {"{", "lb"},     {"}", "rb"},     {",", "comma"},
      {"...", "ellipsis"}, {".", "dot"}, {"->", "arrow"}, {"&", "amp"},    {"&&", "andand"},
      {"|", "bor"},    {"||", "oror"},   {"^", "xor"},    {"~", "tilde"},  {"!", "not"},
      {"+", "plus"},   {"-", "minus"},   {"/", "div"},    {"%", "mod"},    {"<", "lt"},
      {">", "gt"},     {"<=", "le"},     {">=", "ge"},    {"==", "eq"},    {"!=", "ne"},
      {"<<", "shl"},   {">>", "shr"},    {"=", "assign"}, {"?", "q"},      {":", "colon"},
      {";", "semi"},   {"#", "hash"},    {"##", "hashhash"}, {"++", "inc"}, {"--", "dec"},
      {"*=", "muleq"}, {"/=", "diveq"},  {"%=", "modeq"}, {"+=", "pluseq"}, {"-=", "minuseq"},
      {"<<=", "shleq"}, {">>=", "shreq"}, {"&=", "ampeq"}, {"^=", "xoreq"}, {"|=", "boreq"},
      {"]", ""}};
  for (auto &e : kNames)
    if (std::strcmp(e.first, p) == 0) return e.second;
  return identifierSafe(p);
}

constexpr size_t kMaxMangled = 120;

struct Collector {
  ParseContext &ctx;
  std::vector<Edit> replacements;
  std::vector<std::pair<unsigned, std::string>> insertions; // in registration order
  std::set<std::string> defined;

  bool isTypeWord(int i) const {
    if (ctx.raw(i).kind != RawKind::Ident) return false;
    std::string_view s = ctx.spelling(i);
    if (s != "channel" && s != "future") return false;
    size_t n = ctx.toks.size();
    return size_t(i) + 1 < n && punctIs(ctx.raw(i + 1), "(") && ctx.toks[unsigned(i + 1)].match > i + 1;
  }

  // `10`ms` starting at token i: its replacement, or an error.
  bool duration(int i, std::string &text) {
    static const std::pair<const char *, const char *> kUnits[] = {
        {"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
    const int n = int(ctx.toks.size());
    int unit = i + 2;
    std::string_view u = unit < n && ctx.raw(unit).kind == RawKind::Ident ? ctx.spelling(unit) : "";
    const char *factor = nullptr;
    for (auto &e : kUnits)
      if (u == e.first) factor = e.second;
    if (!factor) {
      std::string shown = unit < n ? std::string(ctx.spelling(unit).substr(0, 40)) : std::string();
      ctx.error(ctx.begin(i), format(msg::UnknownDurationUnit, shown));
      return false;
    }
    std::string num(ctx.spelling(i));
    bool hex = num.size() > 1 && num[0] == '0' && (num[1] == 'x' || num[1] == 'X');
    bool floating = hex ? num.find_first_of("pP") != std::string::npos
                        : num.find_first_of(".eE") != std::string::npos;
    // The multiplication in 64 bits (integers) or double (floating).
    text = "((duration_t)(" + num + " * " + factor + (floating ? ".0" : "LL") + "))";
    return true;
  }

  // Adds `text` at the start of the external declaration holding token i.
  void insertBefore(int i, std::string text) {
    auto &decls = ctx.externalDecls;
    auto it = std::upper_bound(decls.begin(), decls.end(), i);
    int first = it == decls.begin() ? i : *(it - 1);
    insertions.push_back({ctx.begin(first), std::move(text)});
  }

  // channel(T) / future(T) at token i: the struct's tag (registering its
  // definition, inner types first).
  std::string typeName(int i) {
    const bool chan = ctx.spelling(i) == "channel";
    const int open = i + 1, close = ctx.toks[unsigned(open)].match;
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
    if (close == open + 1) ctx.error(ctx.begin(i), format(msg::EmptyTypeName, chan ? "channel" : "future"));
    for (int j = open + 1; j < close; j++) {
      const RawTok &t = ctx.raw(j);
      if (isTypeWord(j)) {
        std::string inner = typeName(j);
        part("struct");
        part(inner);
        render("struct " + inner);
        j = ctx.toks[unsigned(j + 1)].match;
        continue;
      }
      std::string dur;
      if (t.kind == RawKind::Number && j + 1 < close && ctx.raw(j + 1).kind == RawKind::Backtick &&
          duration(j, dur)) {
        part(identifierSafe(ctx.spelling(j)) + "_bt_" + identifierSafe(ctx.spelling(j + 2)));
        render(dur);
        j += 2;
        continue;
      }
      render(ctx.spelling(j));
      if (t.kind == RawKind::Ident) {
        part(identifierSafe(ctx.spelling(j)));
      } else if (t.kind == RawKind::Number) {
        std::string num;
        for (char c : ctx.spelling(j)) num += c == '.' ? 'd' : c == '+' ? 'p' : c == '-' ? 'm' : c == '\'' ? 'q' : c;
        part(identifierSafe(num));
      } else if (punctIs(t, "*")) {
        part("P");
      } else if (punctIs(t, "[")) {
        part("A");
        glue = true;
      } else if (t.kind == RawKind::Punct) {
        part(punctName(t.punct));
      } else {
        part(identifierSafe(ctx.spelling(j)));
      }
    }
    std::string mangled;
    for (size_t k = 0; k < parts.size(); k++) mangled += (k ? "_" : "") + parts[k];
    // A long name keeps its start and ends in a hash of the rest, so names
    // of nested types grow by a constant per level.
    if (mangled.size() > kMaxMangled) {
      std::uint64_t h = 14695981039346656037ull; // FNV-1a
      for (unsigned char ch : mangled) h = (h ^ ch) * 1099511628211ull;
      static const char kHex[] = "0123456789abcdef";
      mangled.resize(kMaxMangled - 18);
      mangled += "_h";
      for (int b = 60; b >= 0; b -= 4) mangled += kHex[(h >> b) & 15];
    }
    std::string tag = (chan ? "wuc_channel_" : "wuc_future_") + mangled;
    if (defined.insert(tag).second)
      insertBefore(i, std::string(chan ? "WUC_CHANNEL_STRUCT(" : "WUC_FUTURE_STRUCT(") + tag + ", " +
                          rendered + ");\n");
    return tag;
  }

  void replace(Edit::Kind kind, int first, int last, std::string text) {
    Edit e{kind, {ctx.begin(first), ctx.end(last)}, std::move(text)};
    // Keep the text from merging with a neighbouring identifier or number.
    const std::string &src = ctx.file.text();
    if (e.range.begin > 0 && identChar((unsigned char)src[e.range.begin - 1])) e.text.insert(0, " ");
    if (e.range.end < src.size() && identChar((unsigned char)src[e.range.end])) e.text += ' ';
    replacements.push_back(std::move(e));
  }

  void run() {
    const int n = int(ctx.toks.size());
    for (int i = 0; i < n; i++) {
      const RawTok &t = ctx.raw(i);
      if (isTypeWord(i)) {
        const bool chan = ctx.spelling(i) == "channel";
        std::string tag = typeName(i);
        int close = ctx.toks[unsigned(i + 1)].match;
        replace(chan ? Edit::ChannelType : Edit::FutureType, i, close, "struct " + tag);
        i = close;
      } else if (t.kind == RawKind::Backtick) {
        if (i == 0 || ctx.raw(i - 1).kind != RawKind::Number) {
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
  }

  // Sorted by begin; insertions at one offset are merged into one edit, and
  // into the replacement that starts there if any (ast.h: an insertion and
  // a replacement never share a begin).
  std::vector<Edit> finish() {
    std::map<unsigned, std::string> at;
    for (auto &ins : insertions) at[ins.first] += ins.second;
    std::vector<Edit> out;
    out.reserve(replacements.size() + at.size());
    size_t r = 0;
    for (auto &[offset, text] : at) {
      while (r < replacements.size() && replacements[r].range.begin < offset) out.push_back(replacements[r++]);
      if (r < replacements.size() && replacements[r].range.begin == offset) {
        replacements[r].text.insert(0, text);
        out.push_back(replacements[r++]);
      } else {
        out.push_back(Edit{Edit::TypeDefinition, {offset, offset}, text});
      }
    }
    while (r < replacements.size()) out.push_back(replacements[r++]);
    return out;
  }
};

} // namespace

void collectEdits(ParseContext &ctx) {
  Collector c{ctx, {}, {}, {}};
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
