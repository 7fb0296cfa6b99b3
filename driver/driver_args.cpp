#include "driver_args.h"

#include "files.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace wuc {

namespace {

bool startsWith(const std::string &s, const char *prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

// Options whose value is the next argument when written alone ("-I dir",
// "-z now", "--param k=v"): gcc's, and the common ones of clang.  A value is
// never an input file.
bool takesSeparateValue(const std::string &a) {
  static const char *const kOptions[] = {"-o",
                                         "-x",
                                         "-D",
                                         "-U",
                                         "-I",
                                         "-L",
                                         "-l",
                                         "-e",
                                         "-T",
                                         "-u",
                                         "-A",
                                         "-B",
                                         "-MF",
                                         "-MT",
                                         "-MQ",
                                         "-Xlinker",
                                         "-Xassembler",
                                         "-Xpreprocessor",
                                         "-Xclang",
                                         "-include",
                                         "-imacros",
                                         "-idirafter",
                                         "-iprefix",
                                         "-iwithprefix",
                                         "-iwithprefixbefore",
                                         "-isystem",
                                         "-isysroot",
                                         "-iquote",
                                         "-imultilib",
                                         "-imultiarch",
                                         "-aux-info",
                                         "-z",
                                         "--param",
                                         "-dumpbase",
                                         "-dumpbase-ext",
                                         "-dumpdir",
                                         "-specs",
                                         "-wrapper",
                                         "-target",
                                         "-mllvm",
                                         "-ivfsoverlay",
                                         "-iframework",
                                         "-MJ",
                                         "--sysroot"};
  for (const char *o : kOptions)
    if (a == o) return true;
  return false;
}

// Options that only the link step (or the choice of output) takes: left out
// of a compile-only step so the back end does not warn about them.
bool linkOnly(const std::string &a) {
  static const char *const kExact[] = {"-o",
                                       "-l",
                                       "-L",
                                       "-Xlinker",
                                       "-z",
                                       "-u",
                                       "-T",
                                       "-e",
                                       "-shared",
                                       "-static",
                                       "-static-pie",
                                       "-rdynamic",
                                       "-pie",
                                       "-no-pie",
                                       "-s",
                                       "-nostdlib",
                                       "-nostartfiles",
                                       "-nodefaultlibs",
                                       "-r",
                                       "-static-libgcc",
                                       "-shared-libgcc",
                                       "-static-libstdc++"};
  for (const char *o : kExact)
    if (a == o) return true;
  return startsWith(a, "-l") || startsWith(a, "-L") || startsWith(a, "-Wl,") ||
         (startsWith(a, "-o") && a.size() > 2);
}

// libiberty's expandargv: words separated by white space, with single and
// double quotes and backslash escapes; nested response files expand too.
bool readResponseFile(const std::string &path, std::vector<std::string> &words) {
  std::string text, err;
  if (!files::readFile(path, text, err)) return false;
  words = splitCommand(text);
  return true;
}

void expand(const std::vector<std::string> &in, std::vector<std::string> &out, int depth) {
  for (const std::string &a : in) {
    std::vector<std::string> words;
    if (a.size() > 1 && a[0] == '@' && depth < 64 && readResponseFile(a.substr(1), words))
      expand(words, out, depth + 1);
    else
      out.push_back(a);
  }
}

} // namespace

std::vector<std::string> splitCommand(const std::string &command) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < command.size(); i++) {
    char c = command[i];
    if (c == '\\' && i + 1 < command.size() && quote != '\'') {
      word += command[++i];
      inWord = true;
    } else if (quote) {
      if (c == quote)
        quote = 0;
      else
        word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (std::strchr(" \t\n\r\f\v", c)) {
      if (inWord) words.push_back(word);
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push_back(word);
  return words;
}

bool isPreC99Standard(const std::string &s) {
  static const char *const kOld[] = {"c89",   "c90",          "gnu89",
                                     "gnu90", "iso9899:1990", "iso9899:199409"};
  for (const char *o : kOld)
    if (s == o) return true;
  return false;
}

std::vector<std::string> DriverArgs::options() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); i++)
    if (isOption[i]) out.push_back(args[i]);
  return out;
}

std::vector<std::string> DriverArgs::compileOptions() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); i++) {
    if (!isOption[i]) continue;
    if (linkOnly(args[i])) {
      // Its value too, if it is written apart.
      if (takesSeparateValue(args[i]) && i + 1 < args.size()) i++;
      continue;
    }
    out.push_back(args[i]);
    if (takesSeparateValue(args[i]) && i + 1 < args.size()) out.push_back(args[++i]);
  }
  return out;
}

std::set<std::string> DriverArgs::sanitizers() const {
  std::set<std::string> on;
  for (size_t i = 0; i < args.size(); i++) {
    if (!isOption[i]) continue;
    const std::string &a = args[i];
    if (takesSeparateValue(a)) {
      i++; // its value is no option ("-D -fsanitize=thread" defines a macro)
      continue;
    }
    const bool add = startsWith(a, "-fsanitize="), remove = startsWith(a, "-fno-sanitize=");
    if (!add && !remove) continue;
    std::istringstream list(a.substr(a.find('=') + 1));
    for (std::string name; std::getline(list, name, ',');) {
      if (add)
        on.insert(name);
      else if (name == "all")
        on.clear();
      else
        on.erase(name);
    }
  }
  return on;
}

bool readIncludeDirOption(const std::vector<std::string> &options, size_t i,
                          IncludeDirOption &out) {
  const std::string &o = options[i];
  for (const char *flag : {"-iquote", "-I"}) {
    const size_t n = std::strlen(flag);
    if (o.compare(0, n, flag) != 0) continue;
    out.flag = flag;
    out.words = o.size() == n && i + 1 < options.size() ? 2 : 1;
    out.dir = o.size() > n ? o.substr(n) : out.words == 2 ? options[i + 1] : "";
    return true;
  }
  return false;
}

std::vector<std::string> DriverArgs::quoteSearchDirs() const {
  std::vector<std::string> quote, dirs;
  IncludeDirOption opt;
  for (size_t i = 0; i < args.size(); i++) {
    if (!isOption[i] || !readIncludeDirOption(args, i, opt)) continue;
    if (!opt.dir.empty()) (opt.flag[2] == 'q' ? quote : dirs).push_back(opt.dir);
  }
  quote.insert(quote.end(), dirs.begin(), dirs.end());
  return quote;
}

DriverArgs parseDriverArgs(const std::vector<std::string> &argv) {
  DriverArgs d;
  std::vector<std::string> all;
  expand(argv, all, 0);

  bool compile = false, assemble = false, preprocess = false, syntaxOnly = false;
  bool depsOnly = false, depsWithOutput = false, linksLibrary = false;
  std::string language;
  for (size_t i = 0; i < all.size(); i++) {
    const std::string &a = all[i];
    // wucc's own options: the back end never sees them.
    if (startsWith(a, "--cc=")) {
      d.cc = splitCommand(a.substr(5));
      continue;
    }
    if (a == "--emit-c") {
      d.emitC = true;
      continue;
    }
    if (a == "--keep-temps") {
      d.keepTemps = true;
      continue;
    }
    if (a == "--dump-ast") {
      d.dumpAst = true;
      continue;
    }
    if (a == "--help") {
      d.help = true;
      continue;
    }
    if (a == "--version") {
      d.version = true;
      continue;
    }

    bool isInput = a == "-" || a.empty() || a[0] != '-';
    if (isInput) {
      d.inputs.push_back({d.args.size(), language});
      d.args.push_back(a);
      d.isOption.push_back(false);
      continue;
    }
    d.args.push_back(a);
    d.isOption.push_back(true);
    std::string value;
    bool hasValue = false;
    if (takesSeparateValue(a)) {
      if (i + 1 >= all.size()) {
        d.error = "missing argument to '" + a + "'";
        continue;
      }
      value = all[++i];
      hasValue = true;
      d.args.push_back(value);
      d.isOption.push_back(true);
    }
    if (a == "-c") compile = true;
    if (a == "-S") assemble = true;
    if (a == "-E") preprocess = true;
    if (a == "-fsyntax-only") syntaxOnly = true;
    if (a == "-v") d.verbose = true;
    if (a == "-r") d.relocatable = true;
    if (startsWith(a, "-l")) linksLibrary = true; // a linker input, for gcc
    if (a == "-M" || a == "-MM") depsOnly = true;
    if (a == "-MD" || a == "-MMD") depsWithOutput = true;
    if (a == "-MF" && hasValue) d.depFile = value;
    if (startsWith(a, "-MF") && a.size() > 3) d.depFile = a.substr(3);
    if (a == "-o" && hasValue) d.output = value;
    if (startsWith(a, "-o") && a.size() > 2) d.output = a.substr(2);
    if (a == "-x" && hasValue) language = value == "none" ? "" : value;
    if (startsWith(a, "-x") && a.size() > 2) language = a.substr(2) == "none" ? "" : a.substr(2);
    if (startsWith(a, "-std=")) d.standard = a.substr(5);
    if (startsWith(a, "--std=")) d.standard = a.substr(6);
    if (a == "-ansi") d.standard = "c89";
  }
  d.dependencies = depsOnly || depsWithOutput;
  d.languageAtEnd = language;
  // gcc's order: -E (and -M / -MM, which imply it) over -fsyntax-only over
  // -S over -c.
  if (d.inputs.empty() && !linksLibrary)
    d.action = DriverArgs::Action::Info;
  else if (preprocess || (depsOnly && !depsWithOutput))
    d.action = DriverArgs::Action::Preprocess;
  else if (syntaxOnly)
    d.action = DriverArgs::Action::SyntaxOnly;
  else if (assemble)
    d.action = DriverArgs::Action::Assemble;
  else if (compile)
    d.action = DriverArgs::Action::Compile;
  return d;
}

} // namespace wuc
