// driver_args.h — wucc's command line (docs/language.md §1), parsed into what
// the driver does; kept apart from the work so it can be tested alone.
#pragma once

#include <string>
#include <vector>

namespace wuc {

struct DriverArgs {
  enum class Mode { Link, CompileOnly, EmitC, SyntaxOnly, Version, Help } mode = Mode::Link;
  // With CompileOnly: the back end's step flag, -c (object), -S (assembly)
  // or -E (the lowered C, preprocessed).
  std::string compileStep = "-c";
  std::vector<std::string> sources;      // extended C (.wc, .c): translated
  std::vector<std::string> passInputs;   // objects, archives, other languages: to the back end
  std::string output;                    // -o, empty if not given
  std::string cc;                        // --cc=, else $CC, else "cc"
  std::vector<std::string> compileFlags; // to every back-end compile (and the link)
  std::vector<std::string> linkFlags;    // to the link only (-L -l -Wl, ...)
  std::vector<std::string> semaFlags;    // the ones the semantic pass needs (-I -D -U -std ...)
  bool verbose = false;                  // -v: print the commands run
  bool keepTemps = false;                // --keep-temps (debugging)
  bool dumpAst = false;                  // --dump-ast
  std::string error;                     // set if the command line is wrong
};

DriverArgs parseDriverArgs(const std::vector<std::string> &argv, const char *envCC);

} // namespace wuc
