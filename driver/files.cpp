#include "files.h"

#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace wuc::files {

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

std::string fileName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string withoutSuffix(const std::string &name) {
  size_t dot = name.find_last_of('.');
  size_t slash = name.find_last_of('/');
  return dot == std::string::npos || (slash != std::string::npos && dot < slash)
             ? name
             : name.substr(0, dot);
}

bool hasSuffix(const std::string &s, const char *suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

void replaceAll(std::string &text, const std::string &from, const std::string &to) {
  if (from.empty()) return;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

void removeFailedOutput(const std::string &path) {
  struct stat st;
  if (!path.empty() && path != "-" && lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    std::remove(path.c_str());
}

const std::string &TempDir::path() {
  if (path_.empty() && !removed_) {
    const char *t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/wucc-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back(0);
    if (mkdtemp(buf.data())) path_ = buf.data();
  }
  return path_;
}

void TempDir::remove() {
  removed_ = true;
  if (path_.empty() || keep_) return;
  nftw(
      path_.c_str(),
      [](const char *p, const struct stat *, int, struct FTW *) { return ::remove(p), 0; }, 16,
      FTW_DEPTH | FTW_PHYS);
  path_.clear();
}

} // namespace wuc::files
