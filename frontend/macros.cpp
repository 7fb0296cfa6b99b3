// macros.cpp — the uses of a file's own dialect macros, expanded in place
// (docs/language.md, "Macros").
//
// A function-like macro whose replacement list holds `waituntil`, or a
// `channel(...)` / `future(...)` group that mentions one of its parameters,
// cannot be lowered where it is defined: the statement's operands and the
// element type are known only at a use.  So wucc expands each use of such a
// macro defined earlier in the same file (and of any macro whose replacement
// list uses one of them) as the preprocessor would: arguments are expanded
// first (as far as such macros go), substituted, `#` makes strings, `##`
// pastes, `__VA_ARGS__` and `__VA_OPT__` work, and the result is rescanned.
// The expansion replaces the use on the use's first line; the use's other
// lines stay (empty) so every later line keeps its number, and the lowered
// statement's #line points at the use.  Other macros are left to the
// preprocessor.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "frontend.h"
#include "frontend_internal.h"

namespace wuc::fe {

namespace {

struct PTok {
  std::string text;
  RawKind kind = RawKind::Stray;
};

bool isPunct(const PTok &t, const char *p) { return t.kind == RawKind::Punct && t.text == p; }

struct Macro {
  std::string name;
  bool functionLike = false;
  bool variadic = false;           // `...` or `name...` last
  std::vector<std::string> params; // `__VA_ARGS__` for a plain `...`
  std::vector<PTok> body;
  unsigned defined = 0, undefined = ~0u; // where it is in force: [defined, undefined)
  bool dialect = false;
};

// The expansion stops growing past this: a use that would expand to more
// is left to the preprocessor.
constexpr size_t kMaxExpansion = 1u << 20;

// Headers included with quotes are read this deep (a cycle stops earlier).
constexpr unsigned kMaxIncludeDepth = 32;

// Where a header included with quotes is looked for after the including
// file's directory (setMacroSearchDirs).
std::vector<std::string> &searchDirs() {
  static std::vector<std::string> dirs;
  return dirs;
}

std::string directoryOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

class Expander {
public:
  Expander(const Splice &splice, const LexOutput &lex) : splice_(splice), lex_(lex) {}

  void readDirectives(const std::string &path) {
    std::set<std::string> visited{path};
    readDirectives(splice_, lex_, directoryOf(path), ~0u, 0, visited);
    markDialect();
  }

  // The #defines (and #undefs) of one file: the main file's in force from
  // where they are (`includedAt` ~0u), a header's from the #include that
  // reads it.  Headers included with quotes are looked for in the
  // including file's directory, as the preprocessor does first.
  void readDirectives(const Splice &splice, const LexOutput &lex, const std::string &dir,
                      unsigned includedAt, unsigned depth, std::set<std::string> &visited) {
    for (const Directive &d : lex.directives) {
      LexOutput dl;
      unsigned from = d.cbegin + (splice.clean()[d.cbegin] == '#' ? 1 : 2);
      if (!scanRange(splice, from, d.cend, dl) || dl.toks.size() < 2) continue;
      const std::string word(spellingOf(splice, dl.toks[0]));
      const unsigned at = includedAt != ~0u ? includedAt : splice.orig(d.cbegin);
      if (word == "include" && depth < kMaxIncludeDepth) {
        const std::string_view quoted = spellingOf(splice, dl.toks[1]);
        if (dl.toks[1].kind == RawKind::String && quoted.size() > 2 && quoted.front() == '"') {
          readHeader(std::string(quoted.substr(1, quoted.size() - 2)), dir, at, depth, visited);
        } else if (punct(dl.toks[1], "<")) {
          // <...>: the search directories only (never the system's).
          std::string name;
          size_t k = 2;
          for (; k < dl.toks.size() && !punct(dl.toks[k], ">"); k++)
            name += spellingOf(splice, dl.toks[k]);
          if (k < dl.toks.size() && !name.empty()) readHeader(name, "", at, depth, visited);
        }
        continue;
      }
      if (dl.toks[1].kind != RawKind::Ident) continue;
      const std::string name(spellingOf(splice, dl.toks[1]));
      if (word == "undef") {
        for (Macro &m : macros_)
          if (m.name == name && m.undefined == ~0u) m.undefined = at;
        continue;
      }
      if (word != "define") continue;
      for (Macro &m : macros_) // a redefinition ends the previous one
        if (m.name == name && m.undefined == ~0u) m.undefined = at;
      Macro m;
      m.name = name;
      m.defined = at;
      size_t k = 2;
      if (k < dl.toks.size() && dl.toks[k].cbegin == dl.toks[1].cend && punct(dl.toks[k], "(")) {
        m.functionLike = true;
        for (k++; k < dl.toks.size() && !punct(dl.toks[k], ")"); k++) {
          if (dl.toks[k].kind == RawKind::Ident) {
            m.params.emplace_back(spellingOf(splice, dl.toks[k]));
          } else if (punct(dl.toks[k], "...")) {
            m.variadic = true;
            if (m.params.empty() || k == 0 || dl.toks[k - 1].kind != RawKind::Ident)
              m.params.emplace_back("__VA_ARGS__");
          }
        }
        k++;
      }
      for (; k < dl.toks.size(); k++)
        m.body.push_back({std::string(spellingOf(splice, dl.toks[k])), dl.toks[k].kind});
      m.dialect = holdsDialect(m);
      macros_.push_back(std::move(m));
    }
  }

  // `name` in `dir` (none: "") then in the search directories.
  void readHeader(const std::string &name, const std::string &dir, unsigned at, unsigned depth,
                  std::set<std::string> &visited) {
    std::string header = name[0] == '/' ? name : dir.empty() ? std::string() : dir + "/" + name;
    std::ifstream in;
    if (!header.empty()) in.open(header, std::ios::binary);
    for (size_t k = 0; !in.is_open() && name[0] != '/' && k < searchDirs().size(); k++) {
      header = searchDirs()[k] + "/" + name;
      in.open(header, std::ios::binary);
    }
    if (!in.is_open() || !in || !visited.insert(header).second) return;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SourceFile file(header, std::move(text), SourceFile::Raw{});
    Splice splice(file.text());
    LexOutput lex;
    DiagEngine quiet(file);
    if (scanFile(file, splice, quiet, lex))
      readDirectives(splice, lex, directoryOf(header), at, depth + 1, visited);
  }

  void markDialect() {
    // A macro whose replacement list uses a dialect macro is one too.
    for (bool changed = true; changed;) {
      changed = false;
      for (Macro &m : macros_) {
        if (m.dialect) continue;
        for (const PTok &t : m.body)
          if (t.kind == RawKind::Ident && find(t.text, m.defined + 1)) {
            m.dialect = changed = true;
            break;
          }
      }
    }
  }

  bool any() const {
    return std::any_of(macros_.begin(), macros_.end(),
                       [](const Macro &m) { return m.dialect || m.functionLike; });
  }

  // The text with the uses expanded (unchanged when there are none).
  std::string run(const std::string &text) {
    std::string out;
    unsigned copied = 0;
    const auto &toks = lex_.toks;
    for (size_t i = 0; i < toks.size(); i++) {
      if (toks[i].kind != RawKind::Ident) continue;
      const Macro *m = find(std::string(spellingOf(splice_, toks[i])), toks[i].begin, true);
      if (!m) continue;
      std::vector<PTok> use;
      size_t last = i;
      if (m->functionLike) {
        if (i + 1 >= toks.size() || !punct(toks[i + 1], "(")) continue;
        int depth = 0;
        size_t k = i + 1;
        for (; k < toks.size(); k++) {
          if (punct(toks[k], "(")) depth++;
          if (punct(toks[k], ")") && --depth == 0) break;
        }
        if (k == toks.size()) continue; // unterminated: the preprocessor's error
        last = k;
      }
      for (size_t k = i; k <= last; k++)
        use.push_back({std::string(spellingOf(splice_, toks[k])), toks[k].kind});
      std::vector<PTok> result;
      expanded_ = false;
      produced_ = 0; // the limit is per use
      if (!expandAll(use, toks[i].begin, {}, result) || !expanded_) continue;
      out.append(text, copied, toks[i].begin - copied);
      std::string line;
      for (const PTok &t : result) {
        if (!line.empty()) line += ' ';
        line += t.text;
      }
      out += line;
      // Keep the lines of the use, so later lines keep their numbers.
      out.append(
          size_t(std::count(text.begin() + toks[i].begin, text.begin() + toks[last].end, '\n')),
          '\n');
      copied = toks[last].end;
      i = last;
    }
    if (copied == 0) return text;
    out.append(text, copied, std::string::npos);
    return out;
  }

private:
  const Splice &splice_;
  const LexOutput &lex_;
  std::vector<Macro> macros_;
  size_t produced_ = 0;
  bool expanded_ = false; // by the last expandAll

  static bool punct(const RawTok &t, const char *p) {
    return t.kind == RawKind::Punct && std::string_view(t.punct) == p;
  }

  // The macro `name` in force at `at`: a dialect one only, or any.
  const Macro *find(const std::string &name, unsigned at, bool any = false) const {
    for (const Macro &m : macros_)
      if ((m.dialect || any) && m.name == name && m.defined < at && at < m.undefined) return &m;
    return nullptr;
  }

  static bool holdsDialect(const Macro &m) {
    const auto &b = m.body;
    for (size_t k = 0; k < b.size(); k++) {
      if (b[k].kind != RawKind::Ident) continue;
      if (b[k].text == "waituntil") return true;
      if ((b[k].text == "channel" || b[k].text == "future") && k + 1 < b.size() &&
          isPunct(b[k + 1], "(")) {
        int depth = 0;
        for (size_t j = k + 1; j < b.size(); j++) {
          if (isPunct(b[j], "(")) depth++;
          if (isPunct(b[j], ")") && --depth == 0) break;
          if (b[j].kind == RawKind::Ident &&
              (std::find(m.params.begin(), m.params.end(), b[j].text) != m.params.end() ||
               (m.variadic && b[j].text == "__VA_ARGS__")))
            return true;
        }
      }
    }
    return false;
  }

  int paramIndex(const Macro &m, const std::string &s) const {
    for (size_t p = 0; p < m.params.size(); p++)
      if (m.params[p] == s) return int(p);
    return -1;
  }

  static std::string stringify(const std::vector<PTok> &arg) {
    std::string s = "\"";
    for (size_t k = 0; k < arg.size(); k++) {
      if (k) s += ' ';
      const bool quoted = arg[k].kind == RawKind::String || arg[k].kind == RawKind::Char;
      for (char c : arg[k].text) {
        if (quoted && (c == '"' || c == '\\')) s += '\\';
        s += c;
      }
    }
    return s + "\"";
  }

  // Expands every dialect macro use in `in` (those named in `hidden`
  // excepted) into `out`; false when the expansion grows too large.
  bool expandAll(const std::vector<PTok> &in, unsigned at, const std::set<std::string> &hidden,
                 std::vector<PTok> &out) {
    for (size_t i = 0; i < in.size(); i++) {
      const Macro *m = in[i].kind == RawKind::Ident && !hidden.count(in[i].text)
                           ? find(in[i].text, at, true)
                           : nullptr;
      if (!m || (m->functionLike && (i + 1 >= in.size() || !isPunct(in[i + 1], "(")))) {
        out.push_back(in[i]);
        continue;
      }
      std::vector<std::vector<PTok>> args;
      size_t k = i + 1;
      if (m->functionLike) {
        args.emplace_back();
        int depth = 0;
        for (; k < in.size(); k++) {
          if (isPunct(in[k], "(") && depth++ == 0) continue;
          if (isPunct(in[k], ")") && --depth == 0) break;
          if (depth == 1 && isPunct(in[k], ",") &&
              !(m->variadic && args.size() == m->params.size())) {
            args.emplace_back();
            continue;
          }
          args.back().push_back(in[k]);
        }
        if (k == in.size()) { // the arguments are not all here
          out.push_back(in[i]);
          continue;
        }
        if (args.size() == 1 && args[0].empty() && m->params.empty()) args.clear();
        if (m->variadic && args.size() + 1 == m->params.size()) args.emplace_back();
        if (args.size() != m->params.size()) return false; // the preprocessor's error
      } else {
        k = i;
      }
      // Another macro is expanded only when a waituntil (or a use of a
      // macro expanded here) is in its arguments.
      auto wakes = [&](const PTok &t) {
        return t.kind == RawKind::Ident && (t.text == "waituntil" || find(t.text, at));
      };
      if (!m->dialect && !std::any_of(args.begin(), args.end(), [&](const std::vector<PTok> &a) {
            return std::any_of(a.begin(), a.end(), wakes);
          })) {
        out.push_back(in[i]);
        continue;
      }
      expanded_ = true;
      std::vector<PTok> substituted;
      if (!substitute(*m, args, at, hidden, substituted)) return false;
      std::set<std::string> inner = hidden;
      inner.insert(m->name);
      if (!expandAll(substituted, at, inner, out)) return false;
      i = k;
    }
    produced_ += out.size();
    return produced_ < kMaxExpansion;
  }

  bool substitute(const Macro &m, const std::vector<std::vector<PTok>> &args, unsigned at,
                  const std::set<std::string> &hidden, std::vector<PTok> &out) {
    const auto &b = m.body;
    auto argOf = [&](const PTok &t) -> const std::vector<PTok> * {
      if (t.kind != RawKind::Ident) return nullptr;
      const int p = paramIndex(m, t.text);
      return p < 0 ? nullptr : &args[size_t(p)];
    };
    const bool vaEmpty = m.variadic && (args.empty() || args.back().empty());
    bool pasteNext = false; // the previous token was `##`
    for (size_t k = 0; k < b.size(); k++) {
      const PTok &t = b[k];
      if (m.functionLike && isPunct(t, "#") && k + 1 < b.size() && argOf(b[k + 1])) {
        out.push_back({stringify(*argOf(b[k + 1])), RawKind::String});
        k++;
        pasteNext = false;
        continue;
      }
      if (isPunct(t, "##")) {
        pasteNext = true;
        continue;
      }
      if (m.variadic && t.kind == RawKind::Ident && t.text == "__VA_OPT__" && k + 1 < b.size() &&
          isPunct(b[k + 1], "(")) {
        int depth = 0;
        size_t j = k + 1;
        std::vector<PTok> inner;
        for (; j < b.size(); j++) {
          if (isPunct(b[j], "(") && depth++ == 0) continue;
          if (isPunct(b[j], ")") && --depth == 0) break;
          inner.push_back(b[j]);
        }
        if (!vaEmpty) {
          Macro part = m;
          part.body = inner;
          if (!substitute(part, args, at, hidden, out)) return false;
        }
        k = j;
        continue;
      }
      const std::vector<PTok> *arg = m.functionLike ? argOf(t) : nullptr;
      const bool pastedAfter = k + 1 < b.size() && isPunct(b[k + 1], "##");
      std::vector<PTok> piece;
      if (arg && (pasteNext || pastedAfter)) {
        piece = *arg; // unexpanded next to ##
      } else if (arg) {
        if (!expandAll(*arg, at, hidden, piece)) return false;
      } else {
        piece.push_back(t);
      }
      if (pasteNext && !out.empty() && !piece.empty()) {
        out.back().text += piece.front().text;
        if (out.back().kind != RawKind::Ident || piece.front().kind != RawKind::Ident)
          out.back().kind = out.back().kind == RawKind::Ident ? RawKind::Ident : piece.front().kind;
        out.insert(out.end(), piece.begin() + 1, piece.end());
      } else if (pasteNext && !out.empty() && piece.empty() && isPunct(out.back(), ",") &&
                 m.variadic && t.text == m.params.back()) {
        out.pop_back(); // GNU `, ## __VA_ARGS__` with no variable arguments
      } else {
        out.insert(out.end(), piece.begin(), piece.end());
      }
      pasteNext = false;
    }
    return true;
  }
};

} // namespace

std::string expandDialectMacros(const SourceFile &file) {
  const std::string &text = file.text();
  // Cheap: no candidate macro at all (a header's macros may give the
  // dialect words).
  const bool includes = text.find("include") != std::string::npos;
  if (text.find("define") == std::string::npos && !includes) return text;
  if (!includes && text.find("waituntil") == std::string::npos &&
      text.find("channel") == std::string::npos && text.find("future") == std::string::npos)
    return text;
  Splice splice(text);
  LexOutput lex;
  DiagEngine quiet(file);
  if (!scanFile(file, splice, quiet, lex)) return text;
  Expander e(splice, lex);
  e.readDirectives(file.path());
  if (!e.any()) return text;
  return e.run(text);
}

} // namespace wuc::fe

void wuc::setMacroSearchDirs(std::vector<std::string> dirs) { fe::searchDirs() = std::move(dirs); }
