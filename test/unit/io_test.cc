// io_test.cc — <wuc/io.h> and the fd clause, white-box: what the runtime learns about
// an fd and which looks it skips (docs/io.md).  The first read of an fd of unknown kind
// is a preadv2 with RWF_NOWAIT, which learns nothing when it reads all that was asked
// (no fstat: a file opened, read once and closed, as a file server does per request);
// a readable clause's try skips its poll(2) on an fd known empty only when the
// statement registers after a failed try (no `else`).
#include <gtest/gtest.h>

#include <wuc.h>
#include <wuc/io.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime_probe.h"

namespace {

enum { KIND_UNKNOWN = 0, KIND_SOCKET = 1, KIND_POLLABLE = 2, KIND_FILE = 3 };

// A temporary file holding n bytes 0, 1, 2, ... (mod 251), opened for reading.
int OpenFileOf(size_t n) {
  char path[] = "/tmp/wuc_io_test_XXXXXX";
  int w = mkstemp(path);
  EXPECT_GE(w, 0);
  std::string data(n, '\0');
  for (size_t i = 0; i < n; i++) data[i] = static_cast<char>(i % 251);
  EXPECT_EQ(write(w, data.data(), n), static_cast<ssize_t>(n));
  close(w);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  unlink(path);
  EXPECT_GE(fd, 0);
  return fd;
}

bool HoldsFrom(const char *buf, size_t n, size_t from) {
  for (size_t i = 0; i < n; i++)
    if (buf[i] != static_cast<char>((from + i) % 251)) return false;
  return true;
}

TEST(IoRead, FileReadInFullLearnsNothing) {
  int fd = OpenFileOf(1024);
  char buf[1024];
  EXPECT_EQ(wuc_read(fd, buf, sizeof buf), 1024);
  EXPECT_TRUE(HoldsFrom(buf, 1024, 0));
  EXPECT_EQ(probe_fd_kind(fd), KIND_UNKNOWN);  // no fstat was needed
  EXPECT_EQ(wuc_read(fd, buf, sizeof buf), 0); // the end of the file
  EXPECT_EQ(wuc_close(fd), 0);
}

TEST(IoRead, FileReadsFollowTheFilePosition) {
  int fd = OpenFileOf(30);
  char buf[10];
  for (size_t at = 0; at < 30; at += 10) {
    ASSERT_EQ(wuc_read(fd, buf, sizeof buf), 10);
    EXPECT_TRUE(HoldsFrom(buf, 10, at)) << "at " << at;
  }
  EXPECT_EQ(lseek(fd, 0, SEEK_CUR), 30);
  EXPECT_EQ(wuc_close(fd), 0);
}

TEST(IoRead, FileShortReadLearnsItIsAFile) {
  int fd = OpenFileOf(100);
  char buf[4096];
  EXPECT_EQ(wuc_read(fd, buf, sizeof buf), 100); // less than asked: the end of the file
  EXPECT_TRUE(HoldsFrom(buf, 100, 0));
  EXPECT_EQ(probe_fd_kind(fd), KIND_FILE);
  EXPECT_EQ(wuc_read(fd, buf, sizeof buf), 0);
  EXPECT_EQ(wuc_close(fd), 0);
  // The number comes back as another file: learnt afresh.
  fd = OpenFileOf(8);
  EXPECT_EQ(wuc_read(fd, buf, 8), 8);
  EXPECT_EQ(probe_fd_kind(fd), KIND_UNKNOWN);
  EXPECT_EQ(wuc_close(fd), 0);
}

TEST(IoRead, DirectoryReadFailsAsReadDoes) {
  int fd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  char buf[16];
  errno = 0;
  EXPECT_EQ(wuc_read(fd, buf, sizeof buf), -1);
  EXPECT_EQ(errno, EISDIR);
  EXPECT_EQ(wuc_close(fd), 0);
}

TEST(IoRead, PipeShortFirstReadLearnsItAndMakesItNonBlocking) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  ASSERT_EQ(write(p[1], "abc", 3), 3);
  char buf[10];
  EXPECT_EQ(wuc_read(p[0], buf, sizeof buf), 3);
  EXPECT_EQ(std::memcmp(buf, "abc", 3), 0);
  EXPECT_EQ(probe_fd_kind(p[0]), KIND_POLLABLE);
  EXPECT_TRUE(fcntl(p[0], F_GETFL) & O_NONBLOCK);
  wuc_close(p[0]);
  wuc_close(p[1]);
}

struct PipeRead {
  int fd;
  std::atomic<ssize_t> got{-2};
  char buf[8];
};

void ReadThePipe(void *arg) {
  auto *r = static_cast<PipeRead *>(arg);
  r->got = wuc_read(r->fd, r->buf, sizeof r->buf);
}

// The first read of an empty blocking pipe parks its thread (the RWF_NOWAIT read reports
// EAGAIN, then the loop waits), rather than block the worker in read(2).
TEST(IoRead, EmptyPipeFirstReadParksTheThread) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  PipeRead r;
  r.fd = p[0];
  uthread_t *t = uthread_spawn(ReadThePipe, &r);
  probe_await_parked(t);
  EXPECT_EQ(r.got.load(), -2);
  EXPECT_EQ(wuc_write(p[1], "hello", 5), 5);
  uthread_join(t);
  EXPECT_EQ(r.got.load(), 5);
  EXPECT_EQ(std::memcmp(r.buf, "hello", 5), 0);
  wuc_close(p[0]);
  wuc_close(p[1]);
}

TEST(IoRead, StreamSocketShortFirstReadSetsTheParkFirstMark) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  ASSERT_EQ(write(sv[1], "hello", 5), 5);
  char buf[100];
  EXPECT_EQ(wuc_read(sv[0], buf, sizeof buf), 5);
  EXPECT_EQ(probe_fd_kind(sv[0]), KIND_SOCKET);
  EXPECT_TRUE(probe_fd_drained(sv[0]));
  wuc_close(sv[0]);
  wuc_close(sv[1]);
}

// Data has come, but the fd is not in the epoll set, so no edge moves its sequence: the
// mark still says "known empty".  The try of a statement that registers afterwards trusts
// it (its registration would: the registration's edge then reports the data); a try for
// `else` asks poll(2), finds the data and clears the mark.
TEST(FdClause, TryTrustsTheParkFirstMarkOnlyWithoutElse) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  char buf[8];
  ASSERT_EQ(write(sv[1], "x", 1), 1);
  ASSERT_EQ(wuc_read(sv[0], buf, sizeof buf), 1); // kind learnt, the mark set
  ASSERT_EQ(write(sv[1], "y", 1), 1);
  probe_fd_mark_drained(sv[0]);
  EXPECT_FALSE(probe_fd_try_readable(sv[0], 1)); // no look: known empty
  EXPECT_TRUE(probe_fd_drained(sv[0]));
  EXPECT_TRUE(probe_fd_try_readable(sv[0], 0)); // poll(2): the byte is there
  EXPECT_FALSE(probe_fd_drained(sv[0]));
  EXPECT_TRUE(probe_fd_try_readable(sv[0], 1)); // no mark: the try looks
  wuc_close(sv[0]);
  wuc_close(sv[1]);
}

} // namespace
