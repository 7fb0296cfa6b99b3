#include "driver_args.h"

#include <cstring>

namespace wuc {

namespace {

bool hasSuffix(const std::string &s, const char *suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Flags whose value may be the next argument ("-I dir" as well as "-Idir").
bool takesSeparateValue(const std::string &a) {
  static const char *const kFlags[] = {"-I",      "-D",         "-U",  "-include", "-isystem",
                                       "-iquote", "-idirafter", "-L",  "-l",       "-x",
                                       "-MF",     "-MT",        "-MQ", "-Xlinker", "-o"};
  for (const char *f : kFlags)
    if (a == f) return true;
  return false;
}

bool isLinkFlag(const std::string &a) {
  return a.rfind("-L", 0) == 0 || a.rfind("-l", 0) == 0 || a.rfind("-Wl,", 0) == 0 ||
         a == "-Xlinker" || a == "-static" || a == "-shared" || a == "-rdynamic" || a == "-pie" ||
         a == "-no-pie" || a == "-s";
}

bool isSemaFlag(const std::string &a) {
  static const char *const kPrefixes[] = {
      "-I", "-D", "-U", "-std=", "-include", "-isystem", "-iquote", "-idirafter"};
  for (const char *p : kPrefixes)
    if (a.rfind(p, 0) == 0) return true;
  return false;
}

} // namespace

DriverArgs parseDriverArgs(const std::vector<std::string> &argv, const char *envCC) {
  DriverArgs d;
  d.cc = envCC && *envCC ? envCC : "cc";
  for (size_t i = 0; i < argv.size(); i++) {
    std::string a = argv[i];
    if (a == "--version") {
      d.mode = DriverArgs::Mode::Version;
    } else if (a == "--help" || a == "-h") {
      d.mode = DriverArgs::Mode::Help;
    } else if (a == "-c" || a == "-S" || a == "-E") {
      if (d.mode == DriverArgs::Mode::Link || d.mode == DriverArgs::Mode::CompileOnly) {
        d.mode = DriverArgs::Mode::CompileOnly;
        // -E wins over -S, -S over -c, as with cc.
        if (a == "-E" || (a == "-S" && d.compileStep == "-c")) d.compileStep = a;
      }
    } else if (a == "--emit-c") {
      d.mode = DriverArgs::Mode::EmitC;
    } else if (a == "-fsyntax-only") {
      d.mode = DriverArgs::Mode::SyntaxOnly;
    } else if (a.rfind("--cc=", 0) == 0) {
      d.cc = a.substr(5);
    } else if (a == "--keep-temps") {
      d.keepTemps = true;
    } else if (a == "--dump-ast") {
      d.dumpAst = true;
    } else if (a == "-v") {
      d.verbose = true;
    } else if (a == "-o") {
      if (i + 1 >= argv.size()) {
        d.error = "argument to '-o' is missing";
        return d;
      }
      d.output = argv[++i];
    } else if (a.rfind("-o", 0) == 0 && a.size() > 2) {
      d.output = a.substr(2);
    } else if (a.size() > 1 && a[0] == '-') {
      std::vector<std::string> flag{a};
      if (takesSeparateValue(a)) {
        if (i + 1 >= argv.size()) {
          d.error = "argument to '" + a + "' is missing";
          return d;
        }
        flag.push_back(argv[++i]);
      }
      auto &dest = isLinkFlag(a) ? d.linkFlags : d.compileFlags;
      dest.insert(dest.end(), flag.begin(), flag.end());
      if (isSemaFlag(a)) d.semaFlags.insert(d.semaFlags.end(), flag.begin(), flag.end());
    } else if (hasSuffix(a, ".wc") || hasSuffix(a, ".c")) {
      d.sources.push_back(a);
    } else {
      d.passInputs.push_back(a);
    }
  }
  return d;
}

} // namespace wuc
