// files.h — the driver's file and path helpers, and its temporary
// directory.
#pragma once

#include <string>

namespace wuc::files {

// The whole file; false with `err` set (a directory is an error, not empty).
bool readFile(const std::string &path, std::string &text, std::string &err);
bool writeFile(const std::string &path, const std::string &text);

std::string dirName(const std::string &path);       // "." when there is no '/'
std::string fileName(const std::string &path);      // the last component
std::string withoutSuffix(const std::string &name); // "dir/x.wc" -> "dir/x"
bool hasSuffix(const std::string &s, const char *suffix);
void replaceAll(std::string &text, const std::string &from, const std::string &to);

// After a failed build no partial output stays behind; but only a regular
// file is ours to remove (as gcc: -o /dev/null must survive, even as root).
void removeFailedOutput(const std::string &path);

// Made on first use: a plain-C build, which ends in exec, makes none.
class TempDir {
public:
  ~TempDir() { remove(); }
  // The directory's path, or "" (errno set) if it cannot be made.
  const std::string &path();
  void remove();
  void keep() { keep_ = true; }

private:
  std::string path_;
  bool keep_ = false, removed_ = false;
};

} // namespace wuc::files
