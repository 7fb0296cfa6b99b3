// driver_args.h — wucc's command line read the way gcc reads it
// (docs/driver.md): response files expanded, every argument classified as
// an input file, an option with its values, or one of wucc's own options.
// Kept apart from the work so it can be tested alone.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace wuc {

// One input file: where it is in DriverArgs::args and the language gcc
// would give it (the `-x` in force, or "" to go by its suffix).
struct InputFile {
  size_t index = 0; // in DriverArgs::args
  std::string language;
};

struct DriverArgs {
  // What the back end would do with these arguments.
  enum class Action {
    Link,       // no -c, -S, -E, -fsyntax-only
    Compile,    // -c
    Assemble,   // -S
    Preprocess, // -E, or -M / -MM without -MD / -MMD
    SyntaxOnly, // -fsyntax-only
    Info,       // no input: --version, -v, -dumpversion, -print-*, ...
  } action = Action::Link;

  // The user's arguments, response files expanded, wucc's own options
  // removed: exactly what the back end gets for plain C.
  std::vector<std::string> args;
  std::vector<InputFile> inputs;
  // For each argument, whether it is an option or an option's value (not an
  // input); args.size() entries.
  std::vector<bool> isOption;
  std::string output;        // the last -o, empty if none
  std::string standard;      // the last -std= value ("c89" for -ansi), empty if none
  bool relocatable = false;  // -r: a partial link
  bool dependencies = false; // -M, -MM, -MD or -MMD
  std::string depFile;       // -MF's value
  std::string languageAtEnd; // the -x in force after the last argument

  // wucc's own options.
  std::vector<std::string> cc; // --cc=COMMAND, split into words; empty: $CC or cc
  bool emitC = false;          // --emit-c
  bool keepTemps = false;      // --keep-temps
  bool dumpAst = false;        // --dump-ast
  bool help = false;           // --help
  bool version = false;        // --version
  bool verbose = false;        // -v (also the back end's)

  std::string error; // set if the command line is wrong

  // The arguments that are options or their values (no inputs), in order.
  std::vector<std::string> options() const;
  // The options for a compile of one source: options() less those that only
  // the link step or the output take (-o, -l, -L, -Wl, -shared, ...).
  std::vector<std::string> compileOptions() const;
  // The sanitizers the options leave on, read as gcc does: each
  // -fsanitize=LIST adds its names, each -fno-sanitize=LIST takes them away
  // again (`all`: every one).  Names as written (a group such as
  // `undefined` is not expanded).
  std::set<std::string> sanitizers() const;
  // The -iquote directories, then the -I ones, in order: where a quoted
  // #include looks after the including file's directory.
  std::vector<std::string> quoteSearchDirs() const;
};

// An -I or -iquote option at options[i] (-Idir, or -I and dir apart): its
// flag ("-I" or "-iquote"), its directory ("" when the value is missing)
// and how many words it takes; false for any other option.
struct IncludeDirOption {
  const char *flag = nullptr;
  std::string dir;
  size_t words = 1;
};
bool readIncludeDirOption(const std::vector<std::string> &options, size_t i, IncludeDirOption &out);

// Reads argv (without argv[0]).  Response files (@file) are expanded as gcc
// does; one that cannot be read stays an argument.
DriverArgs parseDriverArgs(const std::vector<std::string> &argv);

// Splits a command such as $CC ("ccache gcc -m64") into words, with the
// shell's quotes and backslashes.
std::vector<std::string> splitCommand(const std::string &command);

// True for a -std= value older than C99 (c89, c90, gnu89, iso9899:199409...).
bool isPreC99Standard(const std::string &standard);

} // namespace wuc
