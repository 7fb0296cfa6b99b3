// wucc — the compiler driver: extended C in, C or objects or a program out.
//
//   wucc prog.wc -o prog          translate, compile, link libwuc
//   wucc -c a.wc -o a.o           translate and compile
//   wucc --emit-c a.wc -o a.c     the lowered C (stdout without -o)
//   wucc -fsyntax-only a.wc       check only
//
// Each extended-C source goes through the frontend (parseSource), the
// semantic pass (analyse) and the lowering (lowerFile); the result is
// compiled by the back-end C compiler ($CC, default cc; --cc=PATH).  On any
// error the exit status is 1 and no output file is left behind.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "clause_bodies.h"
#include "diag.h"
#include "driver_args.h"
#include "frontend.h"
#include "lower.h"
#include "messages.h"
#include "quote.h"
#include "sema.h"

namespace {

using wuc::DriverArgs;

const char *const kUsage =
    "usage: wucc [options] file...\n"
    "\n"
    "Compiles extended C (.wc or .c: C11 with GNU extensions and the waituntil\n"
    "statement) over libwuc, like cc.\n"
    "\n"
    "  -o FILE            write the output to FILE\n"
    "  -c                 compile to an object file, do not link\n"
    "  -S, -E             compile to assembly; preprocess the lowered C\n"
    "  --emit-c           write the lowered C (to stdout without -o)\n"
    "  -fsyntax-only      check the program, write nothing\n"
    "  --cc=PATH          the back-end C compiler (default: $CC, else cc)\n"
    "  -v                 print the back-end commands\n"
    "  --keep-temps       keep the lowered C of a build (its path is printed)\n"
    "  --version, --help\n"
    "\n"
    "Every other option (-I -D -U -O -g -W... -std= -L -l ...) goes to the back-end\n"
    "compiler; -I -D -U -std= also reach wucc's own semantic pass.\n";

std::string selfDir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  std::string p(buf);
  return p.substr(0, p.find_last_of('/'));
}

bool exists(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

// Installed: bin/../include and bin/../lib; in the build tree: the paths
// compiled in.
struct Layout {
  std::string includeDir, library, clangResourceDir;
};

Layout findLayout() {
  Layout l;
  std::string prefix = selfDir() + "/..";
  l.includeDir = exists(prefix + "/include/wuc.h") ? prefix + "/include" : WUC_BUILD_INCLUDE_DIR;
  l.library = exists(prefix + "/lib/libwuc.a") ? prefix + "/lib/libwuc.a" : WUC_BUILD_LIBRARY;
  l.clangResourceDir = WUC_CLANG_RESOURCE_DIR;
  return l;
}

bool readFile(const std::string &path, std::string &text, std::string &err) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    err = std::strerror(EISDIR); // an ifstream would read a directory as empty
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

bool writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return bool(out.flush());
}

std::string dirName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = b.find_last_of('.');
  return dot == std::string::npos ? b : b.substr(0, dot);
}

int run(const std::vector<std::string> &cmd, bool verbose) {
  if (verbose) {
    for (const auto &a : cmd) std::cerr << a << ' ';
    std::cerr << '\n';
  }
  pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    std::vector<char *> argv;
    for (const auto &a : cmd) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "wucc: error: cannot run '%s': %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

class TempDir {
public:
  TempDir() {
    const char *t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/wucc-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back(0);
    if (mkdtemp(buf.data())) path_ = buf.data();
  }
  ~TempDir() {
    if (!path_.empty() && !keep_) {
      std::string cmd = "rm -rf " + wuc::shellQuoted(path_); // $TMPDIR may hold a quote
      if (std::system(cmd.c_str()) != 0) {
      }
    }
  }
  const std::string &path() const { return path_; }
  void keep() { keep_ = true; }

private:
  std::string path_;
  bool keep_ = false;
};

class Driver {
public:
  Driver(DriverArgs args) : a_(std::move(args)), layout_(findLayout()) {}

  int main() {
    switch (a_.mode) {
    case DriverArgs::Mode::Version:
      std::cout << "wucc " << WUC_VERSION << " (waituntil for C; back end: " << a_.cc << ")\n";
      return 0;
    case DriverArgs::Mode::Help:
      std::cout << kUsage;
      return 0;
    default:
      break;
    }
    if (!a_.error.empty()) return fail("wucc: error: " + a_.error);
    if (a_.sources.empty() && a_.passInputs.empty()) return fail("wucc: error: no input files");
    if (tmp_.path().empty()) return fail("wucc: error: cannot create a temporary directory");
    int rc = build();
    if (rc != 0 && !a_.output.empty() && a_.output != "-") std::remove(a_.output.c_str());
    return rc;
  }

private:
  int fail(const std::string &message) {
    std::cerr << message << '\n';
    return 1;
  }

  // Translates one source to C; false (diagnostics printed) on error.
  bool translate(const std::string &path, std::string &c) {
    std::string text, err;
    if (!readFile(path, text, err)) {
      std::cerr << "wucc: error: " << wuc::format(wuc::msg::CannotRead, path, err) << '\n';
      return false;
    }
    wuc::SourceFile file(path, std::move(text));
    wuc::DiagEngine diags(file);
    wuc::FrontendResult fe;
    bool ok = wuc::parseSource(file, diags, fe);
    if (ok) wuc::checkClauseBodies(file, fe, diags);
    ok = ok && !diags.hasErrors();
    if (ok && a_.dumpAst) wuc::dumpFrontend(file, fe, std::cerr);
    wuc::SemaFacts facts;
    if (ok && !diags.hasErrors()) {
      wuc::SemaOptions opts;
      opts.compilerArgs = a_.semaFlags;
      opts.wucIncludeDir = layout_.includeDir;
      opts.resourceDir = layout_.clangResourceDir;
      ok = wuc::analyse(file, fe, opts, diags, facts);
    }
    diags.print(std::cerr);
    if (!ok || diags.hasErrors()) return false;
    c = wuc::lowerFile(file, fe, facts);
    return true;
  }

  std::vector<std::string> compileCommand(const std::string &source, const std::string &cfile,
                                          const std::string &obj, bool syntaxOnly) {
    // -fstack-clash-protection: a frame larger than the guard below a user
    // thread's stack must fault in the guard, not jump it (docs/runtime.md,
    // 'Stacks'); before the user's flags, so -fno-stack-clash-protection wins.
    std::vector<std::string> cmd{a_.cc, "-x", "c", "-std=gnu11", "-fstack-clash-protection"};
    cmd.insert(cmd.end(), a_.compileFlags.begin(), a_.compileFlags.end());
    // The lowered file lives in a temporary directory: #include "x.h" must
    // still find x.h beside the source.
    cmd.push_back("-iquote");
    cmd.push_back(dirName(source));
    cmd.push_back("-I" + layout_.includeDir);
    if (syntaxOnly) {
      cmd.push_back("-fsyntax-only");
    } else {
      cmd.push_back(a_.compileStep);
      if (!obj.empty()) {
        cmd.push_back("-o");
        cmd.push_back(obj);
      }
    }
    cmd.push_back(cfile);
    return cmd;
  }

  int build() {
    bool emitC = a_.mode == DriverArgs::Mode::EmitC;
    bool syntaxOnly = a_.mode == DriverArgs::Mode::SyntaxOnly;
    bool compileOnly = a_.mode == DriverArgs::Mode::CompileOnly;
    if ((emitC || compileOnly) && !a_.output.empty() &&
        a_.sources.size() + a_.passInputs.size() > 1)
      return fail("wucc: error: cannot specify '-o' with '-c' or '--emit-c' and multiple files");
    if (emitC && !a_.passInputs.empty())
      return fail("wucc: error: --emit-c takes extended-C sources only");

    std::vector<std::string> objects;
    int status = 0;
    for (size_t i = 0; i < a_.sources.size(); i++) {
      const std::string &src = a_.sources[i];
      std::string c;
      if (!translate(src, c)) {
        status = 1;
        continue;
      }
      if (emitC) {
        if (a_.output.empty() || a_.output == "-")
          std::cout << c;
        else if (!writeFile(a_.output, c))
          return fail("wucc: error: cannot write '" + a_.output + "'");
        continue;
      }
      // One directory per input, so the lowered file and its object carry the
      // source's name in back-end and linker messages (hello.c, hello.o).
      std::string dir = tmp_.path() + "/" + std::to_string(i);
      if (mkdir(dir.c_str(), 0700) != 0) return fail("wucc: error: cannot create '" + dir + "'");
      std::string cfile = dir + "/" + baseName(src) + ".c";
      if (!writeFile(cfile, c)) return fail("wucc: error: cannot write '" + cfile + "'");
      if (a_.keepTemps) {
        tmp_.keep();
        std::cerr << "wucc: lowered " << src << " -> " << cfile << '\n';
      }
      // cc's default outputs: a.o for -c, a.s for -S, stdout for -E.
      std::string defaultOut = a_.compileStep == "-E"   ? std::string()
                               : a_.compileStep == "-S" ? baseName(src) + ".s"
                                                        : baseName(src) + ".o";
      std::string obj = compileOnly ? (a_.output.empty() ? defaultOut : a_.output)
                                    : dir + "/" + baseName(src) + ".o";
      if (run(compileCommand(src, cfile, obj, syntaxOnly), a_.verbose) != 0) {
        status = 1;
        continue;
      }
      objects.push_back(obj);
    }
    if (status != 0 || emitC || syntaxOnly) return status;
    if (compileOnly) {
      // Other inputs compile as cc would compile them.
      for (const std::string &in : a_.passInputs) {
        std::vector<std::string> cmd{a_.cc};
        cmd.insert(cmd.end(), a_.compileFlags.begin(), a_.compileFlags.end());
        cmd.push_back("-I" + layout_.includeDir);
        cmd.push_back(a_.compileStep);
        if (!a_.output.empty()) {
          cmd.push_back("-o");
          cmd.push_back(a_.output);
        }
        cmd.push_back(in);
        if (run(cmd, a_.verbose) != 0) status = 1;
      }
      return status;
    }
    std::vector<std::string> cmd{a_.cc};
    cmd.insert(cmd.end(), a_.compileFlags.begin(), a_.compileFlags.end());
    cmd.insert(cmd.end(), objects.begin(), objects.end());
    cmd.insert(cmd.end(), a_.passInputs.begin(), a_.passInputs.end());
    cmd.push_back(layout_.library);
    cmd.insert(cmd.end(), a_.linkFlags.begin(), a_.linkFlags.end());
    // -rdynamic: deadlock reports name thread functions through dladdr.
    for (const char *f : {"-lpthread", "-ldl", "-rdynamic"}) cmd.push_back(f);
    cmd.push_back("-o");
    cmd.push_back(a_.output.empty() ? "a.out" : a_.output);
    return run(cmd, a_.verbose) == 0 ? 0 : 1;
  }

  DriverArgs a_;
  Layout layout_;
  TempDir tmp_;
};

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return Driver(wuc::parseDriverArgs(args, std::getenv("CC"))).main();
}
