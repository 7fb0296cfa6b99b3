// wucc — the compiler driver, a drop-in `cc` (docs/driver.md).
//
//   wucc [cc options] files...    as the back end would, plus the dialect
//   wucc --emit-c a.wc -o a.c     the lowered C (stdout without -o)
//
// A file that does not use the dialect goes to the back end exactly as
// written: when no input does, wucc replaces itself with the back end and
// its original arguments (plus, for a file of a wuc program, <wuc.h>'s
// directory and -fstack-clash-protection, and for a link that may use it,
// libwuc: runtime_use.h).  A file
// that does goes through the frontend (parseSource), the semantic pass
// (analyse, a module loaded only then) and the lowering (lowerFile); the
// back end compiles the lowered C, which sits in a temporary directory
// under the source's own file name, with the user's options.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "backend.h"
#include "clause_bodies.h"
#include "detect.h"
#include "diag.h"
#include "driver_args.h"
#include "files.h"
#include "frontend.h"
#include "headers.h"
#include "lower.h"
#include "messages.h"
#include "quote.h"
#include "runtime_use.h"
#include "sema_loader.h"

namespace {

using namespace wuc::files;
using wuc::DriverArgs;
using Strings = std::vector<std::string>;

const char *const kUsage =
    "usage: wucc [options] file...\n"
    "\n"
    "A C compiler driver for C with the waituntil statement (docs/driver.md): it\n"
    "takes the back-end C compiler's options and runs it; a file that uses the\n"
    "dialect (waituntil, channel(T), future(T), 10`ms) is lowered to C first,\n"
    "every other file reaches the back end untouched.\n"
    "\n"
    "wucc's own options:\n"
    "  --cc=COMMAND       the back-end C compiler (default: $CC, else cc)\n"
    "  --emit-c           write the lowered C (to stdout without -o)\n"
    "  --keep-temps       keep the lowered C of a build (its path is printed)\n"
    "  --dump-ast         print what the frontend found\n"
    "  --version, --help\n"
    "\n"
    "Every other option is the back end's (see its --help).\n";

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

// Installed: bin/../include, bin/../lib and bin/../lib/wuc; in the build
// tree: the paths compiled in.  The sanitizer variants of libwuc are where
// libwuc.a is ("" when this build has none: runtime/CMakeLists.txt).
struct Layout {
  std::string includeDir, library, asanLibrary, tsanLibrary, semaModule, clangResourceDir;
};

Layout findLayout() {
  Layout l;
  std::string prefix = selfDir() + "/..";
  bool installed = exists(prefix + "/include/wuc.h");
  l.includeDir = installed ? prefix + "/include" : WUC_BUILD_INCLUDE_DIR;
  const bool installedLibrary = exists(prefix + "/lib/libwuc.a");
  l.library = installedLibrary ? prefix + "/lib/libwuc.a" : WUC_BUILD_LIBRARY;
  l.asanLibrary = installedLibrary ? prefix + "/lib/libwuc-asan.a" : WUC_BUILD_ASAN_LIBRARY;
  l.tsanLibrary = installedLibrary ? prefix + "/lib/libwuc-tsan.a" : WUC_BUILD_TSAN_LIBRARY;
  l.semaModule = exists(prefix + "/lib/wuc/wucc-sema.so") ? prefix + "/lib/wuc/wucc-sema.so"
                                                          : WUC_BUILD_SEMA_MODULE;
  l.clangResourceDir = WUC_CLANG_RESOURCE_DIR;
  return l;
}

// Whether the text names one of wuc's headers (a comment that does is
// harmless: it only adds -fstack-clash-protection).
bool includesWucHeader(const std::string &text) {
  for (const char *name : {"<wuc.h>", "<wuc/", "\"wuc.h\"", "\"wuc/"})
    if (text.find(name) != std::string::npos) return true;
  return false;
}

// Where the file first uses the dialect (a statement or a rewritten token;
// the type definitions wucc inserts are not the user's).
unsigned firstConstruct(const wuc::FrontendResult &fe) {
  unsigned first = fe.statements.empty() ? ~0u : fe.statements.front().range.begin;
  for (const wuc::Edit &e : fe.edits)
    if (e.kind != wuc::Edit::TypeDefinition) first = std::min(first, e.range.begin);
  return first == ~0u ? 0 : first;
}

// One input file of the command line, and what wucc made of it.
struct Source {
  size_t arg = 0;       // index in DriverArgs::args
  std::string path;     // as given ("-" for standard input)
  std::string language; // the -x in force, "" for none
  bool isC = false;     // C or the dialect (by -x or by its suffix)
  bool usesDialect = false;
  bool includesWuc = false; // names <wuc.h> or <wuc/...>
  std::string lowered;      // the lowered C, if usesDialect (or --emit-c)
  std::string loweredPath;  // where the back end reads it

  // A file of a wuc program: it runs on user-thread stacks and may reach
  // <wuc.h> (also through a project header, for a .wc file).
  bool ofWucProgram() const {
    return usesDialect || includesWuc || (language.empty() && hasSuffix(path, ".wc"));
  }
};

class Driver {
public:
  Driver(DriverArgs args, Layout layout, Strings backEnd)
      : a_(std::move(args)), layout_(std::move(layout)), backEnd_(std::move(backEnd)) {}

  int run() {
    // Macros of quoted headers that hold the dialect are expanded at their
    // uses (docs/language.md, "Macros"): the frontend looks for those
    // headers where the back end would.
    wuc::setMacroSearchDirs(a_.quoteSearchDirs());
    sources_.reserve(a_.inputs.size());
    for (const wuc::InputFile &in : a_.inputs) {
      Source s;
      s.arg = in.index;
      s.path = a_.args[in.index];
      s.language = in.language;
      s.isC = in.language == "c" ||
              (in.language.empty() && (hasSuffix(s.path, ".c") || hasSuffix(s.path, ".wc")));
      sources_.push_back(s);
    }
    int status = 0;
    for (Source &s : sources_)
      if (s.isC && !classify(s)) status = 1;
    if (status != 0) return status;
    if (a_.emitC) return emitC();
    bool anyDialect = false;
    for (const Source &s : sources_) anyDialect |= s.usesDialect;
    if (!anyDialect) return passThrough();
    int rc = buildDialect();
    if (rc != 0) removeFailedOutput(a_.output);
    return rc;
  }

  void cleanUp() { tmp_.remove(); }

private:
  int fail(const std::string &message) {
    std::cerr << "wucc: error: " << message << '\n';
    return 1;
  }

  const std::string &tempDir() {
    const std::string &path = tmp_.path();
    if (path.empty()) {
      std::cerr << "wucc: error: cannot create a temporary directory: " << std::strerror(errno)
                << '\n';
      std::exit(1);
    }
    return path;
  }

  // Reads a C input and, if it uses the dialect, translates it; false
  // (diagnostics printed) on an error.
  bool classify(Source &s) {
    std::string text, err;
    if (s.path == "-") {
      text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
      stdinText_ = text;
      haveStdin_ = true;
    } else if (!readFile(s.path, text, err)) {
      // The back end reports it in its own words, as without wucc.
      if (!a_.emitC) return true;
      std::cerr << "wucc: error: " << wuc::format(wuc::msg::CannotRead, s.path, err) << '\n';
      return false;
    }
    s.includesWuc = includesWucHeader(text);
    // A .wc file whose only dialect is in its headers is a dialect file
    // too (docs/language.md, "Headers"); a .c file is not looked into.
    const bool viaHeaders = !wuc::mayUseDialect(text) && s.path != "-" &&
                            hasSuffix(s.path, ".wc") && includesDialectHeader(s.path, text);
    if (!a_.emitC && !wuc::mayUseDialect(text) && !viaHeaders) return true;
    wuc::SourceFile file(s.path == "-" ? "<stdin>" : s.path, std::move(text));
    wuc::DiagEngine diags(file);
    wuc::FrontendResult fe;
    bool ok = wuc::parseSource(file, diags, fe);
    if (ok) wuc::checkClauseBodies(file, fe, diags);
    ok = ok && !diags.hasErrors();
    if (ok && a_.dumpAst) wuc::dumpFrontend(file, fe, std::cerr);
    if (ok && fe.statements.empty() && fe.edits.empty() && !a_.emitC && !viaHeaders) {
      diags.print(std::cerr);
      return true; // plain C after all
    }
    if (ok && wuc::isPreC99Standard(a_.standard)) {
      diags.error(firstConstruct(fe), wuc::format(wuc::msg::DialectNeedsC99, a_.standard));
      ok = false;
    }
    wuc::SemaFacts facts;
    // Its project headers, lowered into the mirror first: the pass reads
    // the file with them (docs/language.md, "Headers").
    if (ok && s.path != "-" && !lowerHeaders(s, file.text())) return false;
    if (ok && !analyse(file, fe, semaArgs(s.path), probePath(s.path), diags, facts, ok))
      return false;
    diags.print(std::cerr);
    if (!ok || diags.hasErrors()) return false;
    s.lowered = wuc::lowerFile(file, fe, facts);
    s.usesDialect = true;
    return true;
  }

  // The semantic pass over a parsed file, when it has statements or channel
  // and future types (the pass names those by their canonical element types:
  // docs/language.md, "Types"); `ok` becomes its verdict.  False only when
  // the pass cannot be loaded (the diagnostics so far and why are printed).
  bool analyse(const wuc::SourceFile &file, const wuc::FrontendResult &fe, Strings args,
               std::string probe, wuc::DiagEngine &diags, wuc::SemaFacts &facts, bool &ok) {
    const bool types = std::any_of(fe.edits.begin(), fe.edits.end(), [](const wuc::Edit &e) {
      return e.kind == wuc::Edit::ChannelType || e.kind == wuc::Edit::FutureType;
    });
    if (fe.statements.empty() && !types) return true;
    wuc::SemaOptions opts;
    opts.compilerArgs = std::move(args);
    opts.probePath = std::move(probe);
    opts.wucIncludeDir = layout_.includeDir;
    opts.resourceDir = layout_.clangResourceDir;
    std::string loadError;
    ok = wuc::analyseWithModule(layout_.semaModule, file, fe, opts, diags, facts, loadError);
    if (loadError.empty()) return true;
    diags.print(std::cerr);
    std::cerr << "wucc: error: " << loadError << '\n';
    return false;
  }

  // ---- project headers (headers.h) ---------------------------------------

  const std::string &mirrorRoot() {
    if (mirrorRoot_.empty()) mirrorRoot_ = tempDir() + "/include";
    return mirrorRoot_;
  }

  // Finds the project headers `s` includes and writes each into the mirror:
  // lowered if it uses the dialect, else as written (after a #line naming
  // it).  False (diagnostics printed) if one has an error.
  bool lowerHeaders(const Source &s, const std::string &text) {
    std::vector<wuc::ProjectHeader> found;
    wuc::findProjectHeaders(s.path, text, a_.options(), layout_.includeDir, knownHeaders_, found);
    if (found.empty() && headers_.empty()) return true;
    // The source's own directory too (also when its headers were mirrored
    // for another source): its lowered C is elsewhere, so a quote include
    // beside it, also "../inc/x.h", is looked for there.
    wuc::makeMirrorDirectory(mirrorRoot(), dirName(s.path));
    for (wuc::ProjectHeader &h : found) {
      std::string out;
      if (wuc::mayUseDialect(h.text)) {
        if (!lowerHeader(h, out)) return false;
      } else if (h.text.find("include_next") != std::string::npos) {
        // A copy's #include_next would find the original itself next: the
        // back end reads this one where it is.
        continue;
      } else {
        out = "#line 1 " + wuc::cStringLiteral(h.display) + "\n" + h.text;
      }
      const std::string path = mirrorRoot() + h.real;
      if (!wuc::writeMirrorFile(path, out)) return fail("cannot write '" + path + "'"), false;
      h.text.clear();
      headers_.push_back(std::move(h));
    }
    return true;
  }

  // Whether a project header `path` includes (directly or not) may use the
  // dialect.
  bool includesDialectHeader(const std::string &path, const std::string &text) const {
    std::map<std::string, bool> known;
    std::vector<wuc::ProjectHeader> found;
    wuc::findProjectHeaders(path, text, a_.options(), layout_.includeDir, known, found);
    return std::any_of(found.begin(), found.end(),
                       [](const wuc::ProjectHeader &h) { return wuc::mayUseDialect(h.text); });
  }

  // A dialect header: parsed, analysed and lowered on its own, as a dialect
  // file compiled with the same options.  False only when wucc itself
  // cannot go on (the semantic pass cannot be loaded).
  bool lowerHeader(const wuc::ProjectHeader &h, std::string &out) {
    wuc::SourceFile file(h.display, h.text);
    wuc::DiagEngine diags(file);
    wuc::FrontendResult fe;
    bool ok = wuc::parseSource(file, diags, fe);
    if (ok) wuc::checkClauseBodies(file, fe, diags);
    ok = ok && !diags.hasErrors();
    wuc::SemaFacts facts;
    if (ok && !analyse(file, fe, semaArgs(h.display), mirrorRoot() + h.real, diags, facts, ok))
      return false;
    if (!ok || diags.hasErrors()) {
      // wucc cannot tell whether the back end will include the header (an
      // #if may exclude it): its errors become #error lines of the mirror,
      // which the back end reports at the header's line and column only if
      // it reads the header.
      out.clear();
      for (const wuc::Diagnostic &d : diags.all()) {
        if (d.severity != wuc::Severity::Error) continue;
        const wuc::LineCol lc = file.lineCol(d.offset);
        out += "#line " + std::to_string(lc.line) + " " + wuc::cStringLiteral(h.display) + "\n";
        // The back end reports the column of the word `error`.
        out.append(lc.col > 1 ? lc.col - 2 : 0, ' ');
        out += "#error " + wuc::cStringLiteral(d.message) + "\n";
      }
      return true;
    }
    diags.print(std::cerr); // warnings
    out = wuc::lowerFile(file, fe, facts);
    return true;
  }

  // The options of the semantic pass for a file at `path`: the mirrors
  // searched first, and the file's own directory after them (its probe
  // stands in the mirror, probePath).
  Strings semaArgs(const std::string &path) {
    if (headers_.empty()) return a_.options();
    Strings args = wuc::withMirrors(a_.options(), mirrorRoot());
    args.insert(args.end(), {"-iquote", dirName(path)});
    return args;
  }
  std::string probePath(const std::string &path) {
    if (headers_.empty() || path == "-") return "";
    const std::string dir = wuc::mirrorOf(mirrorRoot(), dirName(path));
    return dir.empty() ? "" : dir + "/" + fileName(path);
  }

  int emitC() {
    for (const Source &s : sources_)
      if (!s.isC) return fail("--emit-c takes C and dialect sources only");
    if (sources_.size() > 1 && !a_.output.empty())
      return fail("cannot specify '-o' with '--emit-c' and multiple files");
    for (const Source &s : sources_) {
      if (a_.output.empty() || a_.output == "-")
        std::cout << s.lowered;
      else if (!writeFile(a_.output, s.lowered))
        return fail("cannot write '" + a_.output + "'");
    }
    return 0;
  }

  // The arguments an input becomes in a back-end command: a .wc file needs
  // -x c (the back end does not know the suffix), then the -x in force again.
  Strings inputWords(const Source &s, const std::string &path) const {
    if (!s.language.empty() || !hasSuffix(s.path, ".wc")) return {path};
    return {"-x", "c", path, "-x", "none"};
  }

  // What wucc adds to a back-end command: where <wuc.h> is, if a file
  // includes it or uses the dialect (last, so the user's own -I come
  // first), and for a link that may refer to it, libwuc (runtime_use.h) of
  // the link's sanitizer (runtimeLibrary).  False (and a message) when a
  // sanitizer's libwuc is not there (the plain one's absence is the back
  // end's to report).
  bool addWucPaths(Strings &cmd, bool link) const {
    bool sourcesUseWuc = false;
    for (const Source &s : sources_) sourcesUseWuc |= s.ofWucProgram();
    if (sourcesUseWuc) cmd.push_back("-I" + layout_.includeDir);
    if (!link || (!sourcesUseWuc && !wuc::linkedFilesUseWuc(a_))) return true;
    std::string sanitizer;
    const std::string library = runtimeLibrary(sanitizer);
    if (!sanitizer.empty() && (library.empty() || !exists(library))) {
      std::cerr << "wucc: error: "
                << wuc::format(wuc::msg::NoSanitizerRuntime, sanitizer,
                               library.empty() ? "libwuc-" + sanitizer.substr(0, 1) + "san.a"
                                               : library)
                << '\n';
      return false;
    }
    if (!a_.languageAtEnd.empty()) cmd.insert(cmd.end(), {"-x", "none"}); // an archive, not C
    cmd.push_back(library);
    return true;
  }

  // The libwuc a link takes (docs/driver.md, "Sanitizers"): the one built
  // with the sanitizer the link's own -fsanitize= options leave on, as the
  // back end picks the sanitizer's run-time library by them; `sanitizer`
  // names it ("thread" or "address"; thread first: the back end refuses
  // both).  Any other sanitizer (undefined, leak alone...) needs no
  // annotation of the runtime: the plain libwuc.
  std::string runtimeLibrary(std::string &sanitizer) const {
    const std::set<std::string> on = a_.sanitizers();
    sanitizer = on.count("thread") ? "thread" : on.count("address") ? "address" : "";
    if (sanitizer == "thread") return layout_.tsanLibrary;
    if (sanitizer == "address") return layout_.asanLibrary;
    return layout_.library;
  }

  bool links() const { return a_.action == DriverArgs::Action::Link && !a_.relocatable; }

  // A file of a wuc program (one that includes wuc's headers) runs on user
  // threads' stacks: it gets -fstack-clash-protection, as the lowered C
  // does (loweredCommand), before the user's options.
  void addStackClashProtection(Strings &cmd) const {
    for (const Source &s : sources_)
      if (s.ofWucProgram()) return cmd.push_back("-fstack-clash-protection");
  }

  // No input uses the dialect: the back end, with the user's arguments.
  int passThrough() {
    Strings cmd = backEnd_;
    addStackClashProtection(cmd);
    for (size_t i = 0; i < a_.args.size(); i++) {
      const Source *s = sourceAt(i);
      if (s) {
        Strings words = inputWords(*s, a_.args[i]);
        cmd.insert(cmd.end(), words.begin(), words.end());
      } else {
        cmd.push_back(a_.args[i]);
      }
    }
    if (!addWucPaths(cmd, links())) return 1;
    if (haveStdin_) {
      // wucc read standard input to look at it: the back end reads the same
      // bytes from a file that is gone once it is open.
      std::string path = tempDir() + "/stdin";
      int fd = -1;
      if (writeFile(path, stdinText_)) fd = open(path.c_str(), O_RDONLY);
      if (fd < 0 || dup2(fd, STDIN_FILENO) < 0) return fail("cannot pass standard input on");
      close(fd);
      cleanUp();
    }
    return wuc::execBackEnd(cmd);
  }

  const Source *sourceAt(size_t arg) const {
    for (const Source &s : sources_)
      if (s.arg == arg) return &s;
    return nullptr;
  }

  // Writes the lowered C of `s` where the back end will read it: a
  // directory of its own, under the source's own file name, so that the
  // back end's default outputs (x.o, x.s, x.d) and messages name it.
  bool writeLowered(Source &s, size_t n) {
    std::string dir = tempDir() + "/" + std::to_string(n);
    if (mkdir(dir.c_str(), 0700) != 0) return fail("cannot create '" + dir + "'"), false;
    s.loweredPath = dir + "/" + (s.path == "-" ? std::string("stdin.c") : fileName(s.path));
    if (!writeFile(s.loweredPath, s.lowered))
      return fail("cannot write '" + s.loweredPath + "'"), false;
    if (a_.keepTemps) {
      tmp_.keep();
      std::cerr << "wucc: lowered " << s.path << " -> " << s.loweredPath << '\n';
    }
    return true;
  }

  // The back-end command that compiles the lowered C of `s` with `options`.
  Strings loweredCommand(const Source &s, const Strings &options) const {
    // -fstack-clash-protection: a frame larger than the guard below a user
    // thread's stack must fault in the guard, not jump it (docs/runtime.md,
    // 'Stacks'); before the user's options, so -fno-stack-clash-protection
    // wins.  -iquote: #include "x.h" finds x.h beside the source first.
    Strings cmd = backEnd_;
    cmd.push_back("-fstack-clash-protection");
    if (headers_.empty()) {
      cmd.insert(cmd.end(), {"-iquote", dirName(s.path)});
      cmd.insert(cmd.end(), options.begin(), options.end());
    } else {
      // The mirror of each directory before it: the back end reads the
      // lowered headers (docs/lowering.md, "Headers").
      const std::string mirror = wuc::mirrorOf(mirrorRoot_, dirName(s.path));
      if (!mirror.empty()) cmd.insert(cmd.end(), {"-iquote", mirror});
      cmd.insert(cmd.end(), {"-iquote", dirName(s.path)});
      Strings mirrored = wuc::withMirrors(options, mirrorRoot_);
      cmd.insert(cmd.end(), mirrored.begin(), mirrored.end());
    }
    addWucPaths(cmd, false);
    // Debug information names the source, not the temporary file.
    std::string dir = dirName(s.loweredPath) + "/";
    std::string prefix = s.path.find('/') == std::string::npos
                             ? std::string()
                             : s.path.substr(0, s.path.find_last_of('/') + 1);
    cmd.push_back("-ffile-prefix-map=" + dir + "=" + prefix);
    cmd.insert(cmd.end(), {"-x", "c", s.loweredPath});
    return cmd;
  }

  // Where the back end writes text that names the lowered file: -E and -M
  // output, and the depfile.
  Strings textOutputs(const Source &s) const {
    Strings out;
    bool preprocess = a_.action == DriverArgs::Action::Preprocess;
    if (preprocess && !a_.output.empty() && a_.output != "-") out.push_back(a_.output);
    if (a_.dependencies) {
      if (!a_.depFile.empty())
        out.push_back(a_.depFile);
      else if (!preprocess)
        out.push_back(withoutSuffix(a_.output.empty() ? fileName(s.path) : a_.output) + ".d");
    }
    return out;
  }

  std::string rewriteNames(std::string text, const Source &s) const {
    std::string source = s.path == "-" ? "<stdin>" : s.path;
    replaceAll(text, s.loweredPath, source);
    if (headers_.empty()) return text;
    // The mirrored headers by their own names: each mirrored directory as
    // given, longest first.
    std::map<std::string, std::string> dirs;
    wuc::mirroredDirectories(mirrorRoot_, s.path, a_.options(), headers_, dirs);
    std::vector<std::pair<std::string, std::string>> byLength(dirs.begin(), dirs.end());
    std::stable_sort(byLength.begin(), byLength.end(),
                     [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
    for (const auto &[mirror, dir] : byLength) replaceAll(text, mirror, dir);
    return text;
  }

  int compileOne(Source &s, size_t n) {
    if (!s.usesDialect) {
      Strings cmd = backEnd_;
      if (s.ofWucProgram()) cmd.push_back("-fstack-clash-protection");
      Strings options = a_.options();
      cmd.insert(cmd.end(), options.begin(), options.end());
      addWucPaths(cmd, false);
      Strings words = inputWords(s, s.path);
      if (!s.language.empty()) cmd.insert(cmd.end(), {"-x", s.language});
      cmd.insert(cmd.end(), words.begin(), words.end());
      wuc::RunOptions run;
      run.verbose = a_.verbose;
      if (s.path == "-") {
        run.stdinFile = tempDir() + "/stdin";
        if (!writeFile(run.stdinFile, stdinText_)) return fail("cannot pass standard input on");
      }
      return wuc::runBackEnd(cmd, run);
    }
    if (!writeLowered(s, n)) return 1;
    Strings cmd = loweredCommand(s, a_.options());
    wuc::RunOptions run;
    run.verbose = a_.verbose;
    std::string captured;
    bool toStdout =
        a_.action == DriverArgs::Action::Preprocess && (a_.output.empty() || a_.output == "-");
    if (toStdout) run.captured = &captured;
    int rc = wuc::runBackEnd(cmd, run);
    if (toStdout) std::cout << rewriteNames(captured, s) << std::flush;
    for (const std::string &path : textOutputs(s)) {
      std::string text, err;
      if (readFile(path, text, err)) writeFile(path, rewriteNames(text, s));
    }
    return rc;
  }

  int buildDialect() {
    bool multipleWithOutput = !a_.output.empty() && a_.inputs.size() > 1;
    if (a_.action != DriverArgs::Action::Link) {
      // The back end refuses -o with several files: let it say so.
      if (multipleWithOutput) return passThroughOriginal();
      int status = 0;
      for (size_t i = 0; i < sources_.size(); i++)
        if (compileOne(sources_[i], i) != 0) status = 1;
      return status;
    }
    // A link: each dialect source becomes an object first.
    Strings replacements(a_.args.size());
    std::vector<bool> replaced(a_.args.size(), false);
    int status = 0;
    for (size_t i = 0; i < sources_.size(); i++) {
      Source &s = sources_[i];
      if (!s.usesDialect) continue;
      if (!writeLowered(s, i)) return 1;
      std::string object = withoutSuffix(s.loweredPath) + ".o";
      Strings options = a_.compileOptions();
      options.insert(options.end(), {"-c", "-o", object});
      std::string depFile = linkDepFile(s, options);
      wuc::RunOptions run;
      run.verbose = a_.verbose;
      if (wuc::runBackEnd(loweredCommand(s, options), run) != 0) {
        status = 1;
        continue;
      }
      std::string text, err;
      if (!depFile.empty() && readFile(depFile, text, err))
        writeFile(depFile, rewriteNames(text, s));
      replacements[s.arg] = object;
      replaced[s.arg] = true;
    }
    if (status != 0) return status;
    Strings cmd = backEnd_;
    addStackClashProtection(cmd);
    for (size_t i = 0; i < a_.args.size(); i++) {
      const Source *s = sourceAt(i);
      if (s && replaced[i]) {
        // An object, whatever -x is in force around it.
        cmd.insert(cmd.end(), {"-x", "none", replacements[i]});
        if (!s->language.empty()) cmd.insert(cmd.end(), {"-x", s->language});
      } else if (s) {
        Strings words = inputWords(*s, a_.args[i]);
        cmd.insert(cmd.end(), words.begin(), words.end());
      } else {
        cmd.push_back(a_.args[i]);
      }
    }
    if (!addWucPaths(cmd, true)) return 1;
    wuc::RunOptions run;
    run.verbose = a_.verbose;
    if (haveStdin_) {
      run.stdinFile = tempDir() + "/stdin";
      if (!writeFile(run.stdinFile, stdinText_)) return fail("cannot pass standard input on");
    }
    return wuc::runBackEnd(cmd, run) == 0 ? 0 : 1;
  }

  // -MD / -MMD in a compile-and-link: the depfile where gcc writes it
  // (prog.d for one input and -o prog, prog-x.d for several, a-x.d without
  // -o), not beside the temporary object; "" if there is none to write.
  std::string linkDepFile(const Source &s, Strings &options) const {
    if (!a_.dependencies || !a_.depFile.empty()) return "";
    std::string base = withoutSuffix(fileName(s.path));
    bool one = a_.inputs.size() == 1;
    std::string file = a_.output.empty() ? "a-" + base
                       : one             ? withoutSuffix(a_.output)
                                         : withoutSuffix(a_.output) + "-" + base;
    file += ".d";
    options.insert(options.end(), {"-MF", file});
    bool targetGiven = false;
    for (const std::string &o : a_.options())
      targetGiven |= o.compare(0, 3, "-MT") == 0 || o.compare(0, 3, "-MQ") == 0;
    if (!targetGiven)
      options.insert(options.end(), {"-MT", one && !a_.output.empty() ? a_.output : base + ".o"});
    return file;
  }

  int passThroughOriginal() {
    Strings cmd = backEnd_;
    cmd.insert(cmd.end(), a_.args.begin(), a_.args.end());
    wuc::RunOptions run;
    return wuc::runBackEnd(cmd, run);
  }

  DriverArgs a_;
  Layout layout_;
  Strings backEnd_;
  std::vector<Source> sources_;
  std::string stdinText_;
  // The project headers of the dialect sources (headers.h), by real path,
  // and those copied into the mirror (tempDir()/include).
  std::map<std::string, bool> knownHeaders_;
  std::vector<wuc::ProjectHeader> headers_;
  std::string mirrorRoot_; // "" until a header is mirrored
  bool haveStdin_ = false;
  TempDir tmp_;
};

int printVersion(const Strings &backEnd) {
  std::cout << "wucc " << WUC_VERSION << " (waituntil for C); back end:" << std::flush;
  Strings cmd = backEnd;
  cmd.push_back("--version");
  for (const std::string &w : backEnd) std::cout << ' ' << w;
  std::cout << '\n' << std::flush;
  wuc::RunOptions run;
  return wuc::runBackEnd(cmd, run);
}

} // namespace

int main(int argc, char **argv) {
  wuc::installSignalForwarding();
  DriverArgs args = wuc::parseDriverArgs(Strings(argv + 1, argv + argc));
  if (args.help) {
    std::cout << kUsage;
    return 0;
  }
  std::string error;
  Strings backEnd = wuc::chooseBackEnd(args.cc, error);
  if (backEnd.empty()) {
    std::cerr << "wucc: error: " << error << '\n';
    return 1;
  }
  if (args.version) return printVersion(backEnd);
  if (!args.error.empty()) {
    // The back end reports its own command-line errors.
    Strings cmd = backEnd;
    cmd.insert(cmd.end(), args.args.begin(), args.args.end());
    return wuc::execBackEnd(cmd);
  }
  int rc;
  {
    Driver driver(std::move(args), findLayout(), backEnd);
    rc = driver.run();
  }
  if (int sig = wuc::receivedSignal()) wuc::dieBySignal(sig);
  return rc;
}
