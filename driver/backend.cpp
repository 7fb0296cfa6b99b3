#include "backend.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "driver_args.h"

namespace wuc {

namespace {

const char *const kGuard = "WUCC_BACK_END";

volatile sig_atomic_t gSignal = 0;
volatile pid_t gChild = 0;

const int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void forward(int sig) {
  gSignal = sig;
  pid_t child = gChild;
  if (child > 0) kill(child, sig);
}

bool sameFile(const std::string &a, const std::string &b) {
  struct stat sa, sb;
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// The file execvp would run for `program`, or "" if there is none.
std::string lookUp(const std::string &program) {
  if (program.find('/') != std::string::npos)
    return access(program.c_str(), X_OK) == 0 ? program : "";
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t begin = 0;
  while (begin <= dirs.size()) {
    size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(begin, end - begin);
    std::string file = (dir.empty() ? "." : dir) + "/" + program;
    struct stat st;
    if (stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(file.c_str(), X_OK) == 0)
      return file;
    begin = end + 1;
  }
  return "";
}

void printCommand(const std::vector<std::string> &command) {
  std::string line;
  for (const auto &a : command) line += a + ' ';
  line.back() = '\n';
  std::cerr << line;
}

std::vector<char *> argvOf(const std::vector<std::string> &command) {
  std::vector<char *> argv;
  for (const auto &a : command) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

} // namespace

bool isThisProgram(const std::string &program) {
  std::string file = lookUp(program);
  return !file.empty() && sameFile(file, "/proc/self/exe");
}

std::vector<std::string> chooseBackEnd(const std::vector<std::string> &ccOption,
                                       std::string &error) {
  std::vector<std::string> chosen;
  if (!ccOption.empty()) {
    if (isThisProgram(ccOption[0])) {
      error = "--cc names wucc itself; give it the C compiler wucc should run";
      return {};
    }
    chosen = ccOption;
  } else {
    const char *cc = std::getenv("CC");
    std::vector<std::string> words;
    if (cc && !std::getenv(kGuard)) words = splitCommand(cc);
    if (!words.empty() && !isThisProgram(words[0])) chosen = words;
    for (const char *fallback : {"cc", "gcc", "clang"}) {
      if (!chosen.empty()) break;
      if (!lookUp(fallback).empty() && !isThisProgram(fallback)) chosen = {fallback};
    }
    if (chosen.empty()) {
      error = "no C compiler to run: give one with --cc=COMMAND or $CC";
      return {};
    }
  }
  // Whatever the back end starts knows it runs under wucc.
  setenv(kGuard, "1", 1);
  return chosen;
}

void installSignalForwarding() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward;
  sigemptyset(&sa.sa_mask);
  for (int sig : kForwarded) {
    struct sigaction old;
    // A signal the caller ignores (nohup, a background job) stays ignored.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

int receivedSignal() { return gSignal; }

void dieBySignal(int sig) {
  signal(sig, SIG_DFL);
  raise(sig);
  _exit(128 + sig);
}

int runBackEnd(const std::vector<std::string> &command, const RunOptions &options) {
  if (gSignal) return 128 + gSignal;
  if (options.verbose) printCommand(command);
  int out[2] = {-1, -1};
  if (options.captured && pipe2(out, O_CLOEXEC) != 0) return 127;
  std::vector<char *> argv = argvOf(command);
  pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    for (int sig : kForwarded) {
      struct sigaction old;
      if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == forward) signal(sig, SIG_DFL);
    }
    if (!options.stdinFile.empty()) {
      int in = open(options.stdinFile.c_str(), O_RDONLY);
      if (in < 0 || dup2(in, STDIN_FILENO) < 0) _exit(127);
    }
    if (options.captured && dup2(out[1], STDOUT_FILENO) < 0) _exit(127);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "wucc: error: cannot run '%s': %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  gChild = pid;
  if (gSignal) kill(pid, gSignal); // it came between the check and the fork
  if (options.captured) {
    close(out[1]);
    char buf[65536];
    for (;;) {
      ssize_t n = read(out[0], buf, sizeof buf);
      if (n > 0)
        options.captured->append(buf, size_t(n));
      else if (n == 0 || errno != EINTR)
        break;
    }
    close(out[0]);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  gChild = 0;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int execBackEnd(const std::vector<std::string> &command) {
  for (int sig : kForwarded) {
    struct sigaction old;
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == forward) signal(sig, SIG_DFL);
  }
  std::vector<char *> argv = argvOf(command);
  execvp(argv[0], argv.data());
  std::fprintf(stderr, "wucc: error: cannot run '%s': %s\n", argv[0], std::strerror(errno));
  return 127;
}

} // namespace wuc
