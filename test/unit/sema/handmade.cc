#include "handmade.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

namespace wuc::test {

namespace {

struct Tok {
  enum Kind { Ident, Number, Punct, Other } kind;
  unsigned begin, end;
};

class Parser {
public:
  Parser(const SourceFile &file, FrontendResult &out) : text_(file.text()), out_(out) {}

  void run() {
    scan();
    edits();
    for (size_t i = 0; i < toks_.size();) {
      if (startsStatement(i)) {
        i = statement(i);
      } else {
        i++;
      }
    }
    std::stable_sort(out_.edits.begin(), out_.edits.end(), [](const Edit &a, const Edit &b) {
      return a.range.begin < b.range.begin;
    });
  }

private:
  [[noreturn]] void fail(const std::string &why, size_t i) {
    throw std::runtime_error(why + " at offset " +
                             std::to_string(i < toks_.size() ? toks_[i].begin : text_.size()));
  }

  std::string_view word(size_t i) const {
    if (i >= toks_.size()) return {};
    return std::string_view(text_).substr(toks_[i].begin, toks_[i].end - toks_[i].begin);
  }
  bool is(size_t i, std::string_view w) const { return word(i) == w; }

  void scan() {
    size_t n = text_.size(), p = 0;
    bool lineStart = true;
    while (p < n) {
      char c = text_[p];
      if (c == '\n') {
        lineStart = true;
        p++;
        continue;
      }
      if (isspace(static_cast<unsigned char>(c))) {
        p++;
        continue;
      }
      if (lineStart && c == '#') { // a preprocessor line, continuations included
        while (p < n && text_[p] != '\n') p += text_[p] == '\\' ? 2 : 1;
        continue;
      }
      lineStart = false;
      if (c == '/' && p + 1 < n && text_[p + 1] == '/') {
        while (p < n && text_[p] != '\n') p++;
        continue;
      }
      if (c == '/' && p + 1 < n && text_[p + 1] == '*') {
        size_t e = text_.find("*/", p + 2);
        p = e == std::string::npos ? n : e + 2;
        continue;
      }
      unsigned b = unsigned(p);
      if (c == '"' || c == '\'') {
        for (p++; p < n && text_[p] != c; p++)
          if (text_[p] == '\\') p++;
        p++;
        toks_.push_back({Tok::Other, b, unsigned(p)});
      } else if (isalpha(static_cast<unsigned char>(c)) || c == '_') {
        while (p < n && (isalnum(static_cast<unsigned char>(text_[p])) || text_[p] == '_')) p++;
        toks_.push_back({Tok::Ident, b, unsigned(p)});
      } else if (isdigit(static_cast<unsigned char>(c))) {
        while (p < n && (isalnum(static_cast<unsigned char>(text_[p])) || text_[p] == '.')) p++;
        toks_.push_back({Tok::Number, b, unsigned(p)});
      } else {
        static const char *const kTwo[] = {"<<", ">>", "||", "&&", "->", "==", "!=", "<=", ">="};
        size_t len = 1;
        for (const char *t : kTwo)
          if (text_.compare(p, 2, t) == 0) len = 2;
        p += len;
        toks_.push_back({Tok::Punct, b, unsigned(p)});
      }
    }
  }

  // ---- lexical edits ----
  static std::string mangle(std::string t) {
    std::string out;
    for (char c : t) {
      if (isalnum(static_cast<unsigned char>(c)))
        out += c;
      else if (c == '*')
        out += "_ptr";
      else if (!out.empty() && out.back() != '_')
        out += '_';
    }
    while (!out.empty() && out.back() == '_') out.pop_back();
    return out;
  }

  void edits() {
    std::map<std::string, bool> defined;
    int depth = 0;
    size_t declStart = 0; // first token of the current external declaration
    for (size_t i = 0; i < toks_.size(); i++) {
      std::string_view w = word(i);
      if (w == "{") depth++;
      if (w == "}") depth--;
      if ((w == ";" || w == "}") && depth == 0) {
        declStart = i + 1;
        continue;
      }
      if ((w == "channel" || w == "future") && is(i + 1, "(")) {
        size_t close = match(i + 1);
        std::string type(text_.substr(toks_[i + 2].begin, toks_[close].begin - toks_[i + 2].begin));
        while (!type.empty() && isspace(static_cast<unsigned char>(type.back()))) type.pop_back();
        bool chan = w == "channel";
        std::string tag = std::string(chan ? "wuc_channel_" : "wuc_future_") + mangle(type);
        if (!defined[tag]) {
          defined[tag] = true;
          unsigned at = toks_[declStart].begin;
          out_.edits.push_back({Edit::TypeDefinition,
                                {at, at},
                                std::string(chan ? "WUC_CHANNEL_STRUCT(" : "WUC_FUTURE_STRUCT(") +
                                    tag + ", " + type + "); "});
        }
        out_.edits.push_back({chan ? Edit::ChannelType : Edit::FutureType,
                              {toks_[i].begin, toks_[close].end},
                              "struct " + tag});
        i = close;
        continue;
      }
      if (toks_[i].kind == Tok::Number && is(i + 1, "`") && i + 2 < toks_.size() &&
          toks_[i + 2].kind == Tok::Ident) {
        static const std::map<std::string, std::string> kScale = {
            {"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
        auto unit = kScale.find(std::string(word(i + 2)));
        if (unit == kScale.end()) fail("unknown unit", i + 2);
        out_.edits.push_back({Edit::Duration,
                              {toks_[i].begin, toks_[i + 2].end},
                              "((duration_t)(" + std::string(word(i)) + " * " + unit->second + "))"});
        i += 2;
      }
    }
  }

  // ---- statements ----
  size_t match(size_t open) {
    std::string_view o = word(open);
    std::string_view c = o == "(" ? ")" : o == "{" ? "}" : "]";
    int depth = 0;
    for (size_t i = open; i < toks_.size(); i++) {
      if (word(i) == o) depth++;
      if (word(i) == c && --depth == 0) return i;
    }
    fail("unbalanced", open);
  }

  bool startsStatement(size_t i) const {
    if (is(i, "waituntil") || is(i, "when")) return true;
    return is(i, "(") && (is(i + 1, "waituntil") || is(i + 1, "when"));
  }

  Range span(size_t first, size_t last) const { return {toks_[first].begin, toks_[last].end}; }

  // Returns the index after the statement.
  size_t statement(size_t i) {
    size_t slot = out_.statements.size();
    out_.statements.emplace_back();
    WaitUntil w;
    w.id = unsigned(slot);
    size_t end = orList(i, toks_.size(), w, w.tree);
    w.range = {toks_[i].begin, toks_[end - 1].end};
    out_.statements[slot] = std::move(w);
    return end;
  }

  size_t orList(size_t i, size_t limit, WaitUntil &w, TreeNode &node) {
    node.kind = TreeNode::Or;
    for (;;) {
      TreeNode andNode;
      andNode.kind = TreeNode::And;
      for (;;) {
        TreeNode leaf;
        i = clause(i, w, leaf);
        andNode.kids.push_back(std::move(leaf));
        if (i < limit && (is(i, "and") || is(i, "&&")) && continues(i + 1)) {
          i++;
          continue;
        }
        break;
      }
      node.kids.push_back(andNode.kids.size() == 1 ? std::move(andNode.kids[0]) : std::move(andNode));
      if (i < limit && (is(i, "or") || is(i, "||"))) {
        if (is(i + 1, "else") || (is(i + 1, "when") && elseAfterGuard(i + 1))) {
          i = elseBranch(i + 1, w);
          break;
        }
        if (continues(i + 1)) {
          i++;
          continue;
        }
      }
      break;
    }
    return i;
  }

  bool continues(size_t i) const { return is(i, "waituntil") || is(i, "when") || is(i, "("); }

  bool elseAfterGuard(size_t i) {
    size_t close = match(i + 1);
    return is(close + 1, "else");
  }

  size_t elseBranch(size_t i, WaitUntil &w) {
    ElseBranch &e = w.elseBranch;
    e.present = true;
    if (is(i, "when")) {
      e.hasGuard = true;
      e.guardOffset = toks_[i].begin;
      size_t close = match(i + 1);
      e.guard = span(i + 2, close - 1);
      i = close + 1;
    }
    e.keywordOffset = toks_[i].begin;
    size_t end = body(i + 1);
    e.body = span(i + 1, end - 1);
    return end;
  }

  size_t clause(size_t i, WaitUntil &w, TreeNode &leaf) {
    if (is(i, "(")) {
      size_t close = match(i);
      orList(i + 1, close, w, leaf);
      leaf.parenthesised = true;
      return close + 1;
    }
    Clause c;
    c.index = unsigned(w.clauses.size());
    if (is(i, "when")) {
      c.hasGuard = true;
      c.guardOffset = toks_[i].begin;
      size_t close = match(i + 1);
      c.guard = span(i + 2, close - 1);
      i = close + 1;
    }
    if (!is(i, "waituntil") || !is(i + 1, "(")) fail("expected waituntil (", i);
    c.keywordOffset = toks_[i].begin;
    size_t close = match(i + 1);
    size_t first = i + 2, last = close - 1;
    c.operand = span(first, last);
    int depth = 0;
    for (size_t k = first; k <= last; k++) {
      std::string_view t = word(k);
      if (t == "(" || t == "[" || t == "{") depth++;
      if (t == ")" || t == "]" || t == "}") depth--;
      if (t == "<<" && depth == 0) {
        c.form = ClauseForm::Shift;
        c.shiftOffset = toks_[k].begin;
        c.lhs = span(first, k - 1);
        c.rhs = span(k + 1, last);
        break;
      }
    }
    if (c.form != ClauseForm::Shift && (is(first, "closed") || is(first, "timeout")) &&
        is(first + 1, "(") && match(first + 1) == last) {
      c.form = is(first, "closed") ? ClauseForm::Closed : ClauseForm::Timeout;
      c.arg = span(first + 2, last - 1);
    }
    leaf.kind = TreeNode::Leaf;
    leaf.clause = c.index;
    unsigned index = c.index;
    w.clauses.push_back(c);
    size_t end = body(close + 1);
    w.clauses[index].body = span(close + 1, end - 1);
    return end;
  }

  // A statement starting at i (the body of a clause): returns the index after it.
  size_t body(size_t i) {
    if (i >= toks_.size()) fail("missing statement", i);
    if (startsStatement(i)) {
      // A nested waituntil statement: it is its own entry in the list.
      return statement(i);
    }
    if (is(i, "{")) {
      size_t close = match(i);
      for (size_t k = i + 1; k < close;) k = startsStatement(k) ? statement(k) : k + 1;
      return close + 1;
    }
    if (is(i, "if") || is(i, "while") || is(i, "for") || is(i, "switch")) {
      bool isIf = is(i, "if");
      size_t end = body(match(i + 1) + 1);
      if (isIf && is(end, "else")) end = body(end + 1);
      return end;
    }
    if (is(i, "do")) {
      size_t end = body(i + 1);
      return match(end + 1) + 2;
    }
    int depth = 0;
    for (size_t k = i; k < toks_.size(); k++) {
      std::string_view t = word(k);
      if (t == "(" || t == "[" || t == "{") depth++;
      if (t == ")" || t == "]" || t == "}") depth--;
      if (t == ";" && depth == 0) return k + 1;
    }
    fail("missing ;", i);
  }

  const std::string &text_;
  FrontendResult &out_;
  std::vector<Tok> toks_;
};

} // namespace

bool handmadeFrontend(const SourceFile &file, FrontendResult &out, std::string *why) {
  out = FrontendResult();
  try {
    Parser(file, out).run();
  } catch (const std::exception &e) {
    if (why) *why = e.what();
    return false;
  }
  return true;
}

} // namespace wuc::test
