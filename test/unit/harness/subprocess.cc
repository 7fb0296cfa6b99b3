// subprocess.cc — see subprocess.h.
#include "subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>

extern char **environ;

namespace wuc_test {

namespace {

std::string SelfPath() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "/proc/self/exe";
  return std::string(buf, static_cast<size_t>(n));
}

// The parent's environment minus WUC_* (so a developer's WUC_PROCESSORS or
// WUC_ABORT cannot change a scenario), plus `extra`.
std::vector<std::string> ChildEnvironment(const Env &extra) {
  std::vector<std::string> env;
  for (char **e = environ; *e; e++)
    if (std::strncmp(*e, "WUC_", 4) != 0) env.emplace_back(*e);
  for (const auto &[key, value] : extra) env.push_back(key + "=" + value);
  return env;
}

// Reads what is available on fd into `into`; returns false at end of file.
bool Drain(int fd, std::string &into) {
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      into.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN; // any other error: treat as closed
  }
}

} // namespace

std::string ChildResult::Describe() const {
  std::ostringstream s;
  if (timed_out)
    s << "child killed by the watchdog (hung)";
  else if (exited)
    s << "child exited with status " << exit_status;
  else
    s << "child killed by signal " << signal << " (" << strsignal(signal) << ")";
  s << "\n--- child stdout ---\n" << out << "--- child stderr ---\n" << err << "---";
  return s.str();
}

ChildResult RunScenario(const std::string &name, const Env &env, int watchdog_seconds) {
  ChildResult r;
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.err = std::string("pipe2: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);

  std::string path = SelfPath();
  std::string scenario_arg = "--scenario=" + name;
  char *argv[] = {path.data(), scenario_arg.data(), nullptr};
  std::vector<std::string> env_strings = ChildEnvironment(env);
  std::vector<char *> envp;
  for (auto &e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid;
  int err = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (err != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    r.err = std::string("posix_spawn: ") + std::strerror(err);
    return r;
  }
  fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
  fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);

  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(watchdog_seconds);
  bool out_open = true, err_open = true;
  while (out_open || err_open) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    struct pollfd fds[2] = {{out_open ? out_pipe[0] : -1, POLLIN, 0},
                            {err_open ? err_pipe[0] : -1, POLLIN, 0}};
    int n = poll(fds, 2, static_cast<int>(left.count()));
    if (n < 0 && errno != EINTR) break;
    if (out_open && fds[0].revents) out_open = Drain(out_pipe[0], r.out);
    if (err_open && fds[1].revents) err_open = Drain(err_pipe[0], r.err);
  }
  // A child may close its pipes (or hand them to a grandchild) and still run:
  // the watchdog covers the wait too.
  int status = 0;
  for (;;) {
    pid_t done = waitpid(pid, &status, r.timed_out ? 0 : WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (done == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        r.timed_out = true;
        kill(pid, SIGKILL);
      } else {
        usleep(1000);
      }
    }
  }
  Drain(out_pipe[0], r.out);
  Drain(err_pipe[0], r.err);
  close(out_pipe[0]);
  close(err_pipe[0]);
  if (r.timed_out) return r;
  if (WIFEXITED(status)) {
    r.exited = true;
    r.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  return r;
}

::testing::AssertionResult ExitedWith(const ChildResult &r, int status) {
  if (r.exited && r.exit_status == status) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected exit status " << status << "; " << r.Describe();
}

} // namespace wuc_test
