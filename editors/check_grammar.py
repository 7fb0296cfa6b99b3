#!/usr/bin/env python3
"""check_grammar.py — editors/wc.tmLanguage.json against the compiler.

1. The grammar parses as JSON and its regular expressions compile.
2. Its dialect words (keywords, contextual words, duration units) are
   exactly the words the frontend (frontend/*.cpp) compares tokens
   against, less C's own words: a word added to the frontend and not to
   the grammar (or the other way round) fails here.
3. On sample lines, the rules give the dialect's words their scopes and
   leave C identifiers of the same spelling alone.

Usage: python3 editors/check_grammar.py [SOURCE_DIR]    (exit status 0: ok)
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent

# Words the frontend compares tokens against that are C's, GNU C's or the
# preprocessor's (or C++ words it rejects), not the dialect's.
NOT_DIALECT = {
    "if", "else", "while", "do", "for", "switch", "case", "default", "goto", "break",
    "continue", "return", "struct", "union", "enum", "volatile", "inline", "extern",
    "asm", "__asm", "__asm__", "__volatile", "__volatile__", "__inline", "__inline__",
    "__attribute", "__attribute__", "define", "error", "namespace", "_Pragma", "ifdef",
    "ifndef", "elif", "elifdef", "elifndef", "endif", "typedef", "undef", "include", "__VA_ARGS__",
    "__VA_OPT__",
    # library functions whose bare-integer argument the frontend warns about
    "uthread_sleep", "wuc_uthread_sleep",
}
# `else` is C's; the grammar leaves it to source.c.


def grammar_words(g):
    words = set()
    for rule in g["repository"].values():
        for m in re.findall(r"\((?:\?:)?([a-z|]+)\)", rule.get("match", "")):
            words.update(m.split("|"))
    return words


def frontend_words(root):
    words = set()
    for f in sorted((root / "frontend").glob("*.cpp")):
        text = f.read_text()
        words.update(re.findall(r'[!=]= "([A-Za-z_]\w*)"', text))
        words.update(re.findall(r'\{"([A-Za-z_]\w*)", ', text))
    return words - NOT_DIALECT


def rules(g):
    """(compiled regex, scope of the match, {group: scope}) of every rule."""
    out = []
    for name, rule in g["repository"].items():
        if "match" not in rule:
            continue
        caps = {int(k): v["name"] for k, v in rule.get("captures", {}).items()}
        out.append((name, re.compile(rule["match"]), rule.get("name"), caps))
    return out


def scopes(compiled, line):
    """{(start, end): scope} that the dialect's rules give on one line."""
    found = {}
    for _, rx, name, caps in compiled:
        for m in rx.finditer(line):
            if name:
                found[(m.start(), m.end())] = name
            for k, scope in caps.items():
                if m.group(k) is not None:
                    found[(m.start(k), m.end(k))] = scope
    return found


KW, OP, CL, TY = ("keyword.control.waituntil.wc", "keyword.operator.logical.clause.wc",
                  "keyword.other.clause.wc", "storage.type.wc")
NUM, UNIT = "constant.numeric.wc", "keyword.other.unit.duration.wc"
# (line, [(text, scope), ...] in order: every dialect token the line has)
SAMPLES = [
    ("static channel(int) c; static future(long) f;", [("channel", TY), ("future", TY)]),
    ("  waituntil (x << c) { n++; } or when (n > 0) waituntil (timeout(10`ms)) {}",
     [("waituntil", KW), ("or", OP), ("when", KW), ("waituntil", KW), ("timeout", CL),
      ("10", NUM), ("`", UNIT), ("ms", UNIT)]),
    ("  } and waituntil (closed(c)) {}", [("and", OP), ("waituntil", KW), ("closed", CL)]),
    ("  waituntil (readable(fd)) {} or waituntil (writable(fd)) {}",
     [("waituntil", KW), ("readable", CL), ("or", OP), ("waituntil", KW), ("writable", CL)]),
    ("  (waituntil (f) {} or waituntil (l) {}) and", [("waituntil", KW), ("or", OP),
                                                      ("waituntil", KW), ("and", OP)]),
    ("  waituntil (e) {} or else {}", [("waituntil", KW), ("or", OP)]),
    ("  d = 2.5e-3`s + 0x10`ns + 3u`us;", [("2.5e-3", NUM), ("`", UNIT), ("s", UNIT),
                                           ("0x10", NUM), ("`", UNIT), ("ns", UNIT),
                                           ("3u", NUM), ("`", UNIT), ("us", UNIT)]),
    # C identifiers spelled like contextual words stay identifiers.
    ("  int or = 1, and = 2, timeout = 3, closed = 4, channel = 5, future = 6;", []),
    ("  x = or + and; f(timeout, closed); a.channel = b->future;", []),
    ("  int readable = 1, writable = 2; g(readable, writable);", []),
]


def main():
    path = ROOT / "editors" / "wc.tmLanguage.json"
    g = json.loads(path.read_text())
    problems = []
    if g.get("scopeName") != "source.wc" or "wc" not in g.get("fileTypes", []):
        problems.append("scopeName must be source.wc and fileTypes must list wc")
    compiled = rules(g)

    mine, theirs = grammar_words(g), frontend_words(ROOT)
    for w in sorted(theirs - mine):
        problems.append(f"the frontend knows '{w}' and the grammar does not "
                        f"(or add it to NOT_DIALECT here if it is C's)")
    for w in sorted(mine - theirs):
        problems.append(f"the grammar has '{w}' and the frontend does not")

    for line, want in SAMPLES:
        got = [(line[s:e], scope) for (s, e), scope in sorted(scopes(compiled, line).items())]
        if got != want:
            problems.append(f"sample {line!r}:\n    want {want}\n    got  {got}")

    for p in problems:
        print("check_grammar:", p)
    if not problems:
        print(f"check_grammar: ok ({len(mine)} dialect words, {len(SAMPLES)} samples)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
