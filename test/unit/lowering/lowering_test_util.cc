#include "lowering_test_util.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "lower.h"

extern char **environ;

namespace wuc::test {

namespace {

ClauseFacts builtin(ClauseFacts::Kind kind, const std::string &type) {
  ClauseFacts f;
  f.kind = kind;
  f.traitVar = "wuc_selectable_trait_" + type + "_register";
  f.registerFn = type + "_register";
  f.unregisterFn = type + "_unregister";
  f.onSelectedFn = type + "_on_selected";
  return f;
}

} // namespace

ClauseFacts recvFacts(bool inPlace, bool channelIsPointer) {
  ClauseFacts f = builtin(ClauseFacts::Recv, "wuc_chan_recv");
  f.recvInPlace = inPlace;
  f.channelIsPointer = channelIsPointer;
  f.elementType = "int";
  return f;
}

ClauseFacts recvRegisterFacts() {
  ClauseFacts f = recvFacts(false);
  f.recvTargetIsRegister = true;
  return f;
}

ClauseFacts sendFacts(bool channelIsPointer) {
  ClauseFacts f = builtin(ClauseFacts::Send, "wuc_chan_send");
  f.channelIsPointer = channelIsPointer;
  f.elementType = "int";
  return f;
}

ClauseFacts closedFacts(bool channelIsPointer) {
  ClauseFacts f = builtin(ClauseFacts::Closed, "wuc_chan_closed");
  f.channelIsPointer = channelIsPointer;
  f.elementType = "int";
  return f;
}

ClauseFacts timeoutFacts() {
  ClauseFacts f = builtin(ClauseFacts::Timeout, "wuc_timeout");
  f.operandType = "duration_t";
  return f;
}

ClauseFacts fdFacts(bool readable) {
  ClauseFacts f = builtin(readable ? ClauseFacts::Readable : ClauseFacts::Writable, "wuc_fd");
  f.operandType = "int";
  return f;
}

ClauseFacts resourceFacts(const std::string &type, bool isPointer,
                          std::vector<std::string> memberPath) {
  // The library's resources have prefixed traits (<wuc.h>'s latch is wuc_latch).
  const bool library = type == "latch" || type == "owner_lock" || type == "semaphore";
  ClauseFacts f = builtin(ClauseFacts::Resource, library ? "wuc_" + type : type);
  f.resourceIsPointer = isPointer;
  f.memberPath = std::move(memberPath);
  f.operandType = type;
  return f;
}

ClauseFacts futureFacts(const std::string &mangled, bool isPointer) {
  return resourceFacts("wuc_future_" + mangled, isPointer);
}

std::string Lowered::statement(unsigned id) const {
  std::string open = "{ /* waituntil statement " + std::to_string(id) + " at ";
  std::string close = "__wuc" + std::to_string(id) + "_end:;";
  size_t b = plain.find(open);
  if (b == std::string::npos) return "<no statement " + std::to_string(id) + ">";
  size_t e = plain.find(close, b);
  if (e == std::string::npos) return "<statement " + std::to_string(id) + " has no end>";
  return plain.substr(b, e + close.size() - b);
}

void lower(const std::string &source, const std::vector<std::vector<ClauseFacts>> &facts,
           Lowered &out) {
  lower(source, facts, {}, out);
}

void lower(const std::string &source, const std::vector<std::vector<ClauseFacts>> &facts,
           const std::map<std::string, std::string> &typeTags, Lowered &out) {
  out.parsed = parse(source, "t.wc");
  ASSERT_TRUE(out.parsed.ok) << out.parsed.diags;
  const std::vector<WaitUntil> &stmts = out.parsed.fe.statements;
  ASSERT_EQ(stmts.size(), facts.size()) << "facts for every statement";
  for (size_t i = 0; i < stmts.size(); i++)
    ASSERT_EQ(stmts[i].clauses.size(), facts[i].size()) << "facts for every clause of " << i;
  SemaFacts sf;
  sf.statements = facts;
  sf.typeTags = typeTags;
  out.c = lowerFile(*out.parsed.file, out.parsed.fe, sf);
  std::istringstream in(out.c);
  out.plain.clear();
  for (std::string line; std::getline(in, line);)
    if (line.compare(0, 5, "#line") != 0) out.plain += line + '\n';
}

size_t count(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) n++;
  return n;
}

std::string codeLines(const std::string &text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line.compare(b, 2, "/*") != 0) out += line + '\n';
  }
  return out;
}

::testing::AssertionResult inOrder(const std::string &text,
                                   std::initializer_list<std::string> needles) {
  size_t at = 0;
  std::string previous = "<start>";
  for (const std::string &n : needles) {
    size_t p = text.find(n, at);
    if (p == std::string::npos) {
      bool anywhere = text.find(n) != std::string::npos;
      return ::testing::AssertionFailure()
             << "\"" << n << "\" " << (anywhere ? "is not after" : "is missing, looked for after")
             << " \"" << previous << "\" in:\n"
             << text;
    }
    at = p + n.size();
    previous = n;
  }
  return ::testing::AssertionSuccess();
}

std::vector<std::string> linesWith(const std::string &text, const std::string &needle) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find(needle) != std::string::npos) out.push_back(line);
  return out;
}

std::string lineAfter(const std::string &text, const std::string &line) {
  std::istringstream in(text);
  bool found = false;
  for (std::string l; std::getline(in, l);) {
    if (found) return l;
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.pop_back();
    found = l == line;
  }
  return "<none>";
}

CompileResult compileC(const std::string &compiler, const std::string &c) {
  CompileResult r;
  r.compiler = compiler;
  std::string dir = ::testing::TempDir();
  if (!dir.empty() && dir.back() != '/') dir += '/';
  std::string path = dir + "wuc_lowering_XXXXXX.c";
  int fd = mkstemps(path.data(), 2);
  if (fd < 0) {
    r.output = "mkstemps " + path + ": " + std::strerror(errno);
    return r;
  }
  for (size_t done = 0; done < c.size();) {
    ssize_t n = write(fd, c.data() + done, c.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      r.output = "write " + path + ": " + std::strerror(errno);
      close(fd);
      unlink(path.c_str());
      return r;
    }
    done += size_t(n);
  }
  close(fd);

  std::vector<std::string> args{compiler,
                                "-x",
                                "c",
                                "-std=gnu11",
                                "-Wall",
                                "-Wextra",
                                "-Werror",
                                "-Wstrict-prototypes",
                                "-fsyntax-only",
                                "-I" WUC_TEST_STDLIB_DIR,
                                path};
  std::vector<char *> argv;
  for (std::string &a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    r.output = std::string("pipe2: ") + std::strerror(errno);
    unlink(path.c_str());
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDERR_FILENO);
  pid_t pid;
  int err = posix_spawnp(&pid, compiler.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipefd[1]);
  if (err != 0) {
    close(pipefd[0]);
    unlink(path.c_str());
    r.output = "posix_spawnp " + compiler + ": " + std::strerror(err);
    return r;
  }
  char buf[4096];
  for (;;) {
    ssize_t n = read(pipefd[0], buf, sizeof buf);
    if (n > 0) {
      r.output.append(buf, size_t(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  unlink(path.c_str());
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!WIFEXITED(status)) r.output += "\n(" + compiler + " killed by a signal)";
  return r;
}

std::vector<std::string> testCompilers() {
  std::vector<std::string> cs{WUC_TEST_CC};
  std::string clang = WUC_TEST_CLANG;
  if (!clang.empty() && clang != cs[0]) cs.push_back(clang);
  return cs;
}

::testing::AssertionResult compilesCleanly(const std::string &c) {
  for (const std::string &compiler : testCompilers()) {
    CompileResult r = compileC(compiler, c);
    // Clean means no diagnostic at all (a note without a warning would pass
    // -Werror).
    if (!r.ok || !r.output.empty())
      return ::testing::AssertionFailure() << compiler << " on the lowered C:\n"
                                           << r.output << "\n--- the C ---\n"
                                           << c;
  }
  return ::testing::AssertionSuccess();
}

} // namespace wuc::test
