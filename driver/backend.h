// backend.h — the back-end C compiler: which command it is, and running it.
//
// The back end is --cc=COMMAND, else $CC, else cc, each a command line
// split into words ("ccache gcc -m64").  make and CMake put CC=wucc in the
// environment of the very commands they run with it, so a $CC that is wucc
// itself is skipped, and so is $CC in a wucc that a wucc started (the
// variable WUCC_BACK_END marks those): wucc never starts itself.
#pragma once

#include <string>
#include <vector>

namespace wuc {

// The back-end command; empty with `error` set if none can be run.
std::vector<std::string> chooseBackEnd(const std::vector<std::string> &ccOption,
                                       std::string &error);

// Whether `program` (a name looked up in PATH, or a path) is this wucc.
bool isThisProgram(const std::string &program);

struct RunOptions {
  bool verbose = false;            // print the command to stderr first
  std::string stdinFile;           // the child's standard input, if set
  std::string *captured = nullptr; // if set, receives the child's standard output
};

// Runs the command and waits for it; its exit status (128 + N if it was
// killed by signal N; 127 if it could not be started).  SIGINT, SIGTERM,
// SIGHUP and SIGQUIT sent to wucc are passed on to the child.
int runBackEnd(const std::vector<std::string> &command, const RunOptions &options);

// Replaces wucc with the command (plain C: nothing of wucc stays around).
// Returns only if the command could not be started (status 127).  Prints
// nothing of its own: with -v the back end shows what it runs.
int execBackEnd(const std::vector<std::string> &command);

// Installs the handlers that pass signals on to the running child; the
// signal that stopped wucc, or 0.
void installSignalForwarding();
int receivedSignal();
// Ends wucc as the signal would have (after the caller cleaned up).
[[noreturn]] void dieBySignal(int sig);

} // namespace wuc
