#include "runtime_use.h"

#include "files.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

namespace wuc {

namespace {

using files::hasSuffix;

// A shared library that uses wuc has libwuc linked into it already.
bool isSharedLibrary(const std::string &path) {
  return hasSuffix(path, ".so") || path.find(".so.") != std::string::npos;
}

} // namespace

bool mentionsWuc(const std::string &path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  bool found = false;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void *data = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (data != MAP_FAILED) {
      found = memmem(data, size_t(st.st_size), "wuc_", 4) != nullptr;
      munmap(data, size_t(st.st_size));
    }
  }
  close(fd);
  return found;
}

bool linkedFilesUseWuc(const DriverArgs &a) {
  std::vector<std::string> libraryDirs, libraries;
  for (size_t i = 0; i < a.args.size(); i++) {
    const std::string &arg = a.args[i];
    if (!a.isOption[i]) {
      bool source = hasSuffix(arg, ".c") || hasSuffix(arg, ".wc") || arg == "-";
      if (!source && !isSharedLibrary(arg) && mentionsWuc(arg)) return true;
      continue;
    }
    bool apart = (arg == "-L" || arg == "-l") && i + 1 < a.args.size();
    std::string value = apart ? a.args[i + 1] : arg.size() > 2 ? arg.substr(2) : "";
    if (arg.compare(0, 2, "-L") == 0) libraryDirs.push_back(value);
    if (arg.compare(0, 2, "-l") == 0 && !value.empty()) libraries.push_back(value);
    if (apart) i++;
  }
  for (const std::string &name : libraries) {
    for (const std::string &dir : libraryDirs) {
      // The linker takes the shared library first when a directory has
      // both; only an archive can leave wuc's symbols undefined.
      std::string shared = dir + "/lib" + name + ".so", archive = dir + "/lib" + name + ".a";
      if (access(shared.c_str(), F_OK) == 0) break;
      if (access(archive.c_str(), F_OK) == 0) {
        if (mentionsWuc(archive)) return true;
        break;
      }
    }
  }
  return false;
}

} // namespace wuc
