#include "headers.h"

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>

#include "driver_args.h"
#include "files.h"

namespace wuc {

namespace {

std::string dirOf(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1); // with its '/'
}

std::string realPath(const std::string &path) {
  char buf[PATH_MAX];
  if (!::realpath(path.empty() ? "." : path.c_str(), buf)) return "";
  return buf;
}

bool isRegularFile(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Directories the back end treats as system directories even when named by
// -I (gcc ignores such a -I): never a project's.
bool systemDirectory(const std::string &real) {
  for (const char *d : {"/usr/include", "/usr/local/include", "/usr/lib/gcc/", "/usr/lib/llvm"})
    if (real.compare(0, std::char_traits<char>::length(d), d) == 0) return true;
  return false;
}

struct SearchDirs {
  std::vector<std::string> quote, bracket; // as given, each ending in '/' (or "")
};

SearchDirs searchDirs(const std::vector<std::string> &options) {
  SearchDirs d;
  auto add = [](std::vector<std::string> &to, std::string dir) {
    if (!dir.empty() && dir.back() != '/') dir += '/';
    const std::string real = realPath(dir.empty() ? "." : dir);
    if (!real.empty() && !systemDirectory(real)) to.push_back(dir);
  };
  IncludeDirOption opt;
  for (size_t i = 0; i < options.size(); i++) {
    if (!readIncludeDirOption(options, i, opt)) continue;
    i += opt.words - 1;
    if (opt.dir.empty() || opt.dir == "-") continue; // missing, or -I- (obsolete)
    add(opt.flag[2] == 'q' ? d.quote : d.bracket, opt.dir);
  }
  return d;
}

// The #include lines of `text`: (name, quoted).  Comments and continued
// lines are not special-cased beyond what include lines need.
std::vector<std::pair<std::string, bool>> includesOf(const std::string &text) {
  std::vector<std::pair<std::string, bool>> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    size_t k = at;
    while (k < end && (text[k] == ' ' || text[k] == '\t')) k++;
    if (k < end && text[k] == '#') {
      k++;
      while (k < end && (text[k] == ' ' || text[k] == '\t')) k++;
      if (text.compare(k, 7, "include") == 0 && text.compare(k, 12, "include_next") != 0) {
        k += 7;
        while (k < end && (text[k] == ' ' || text[k] == '\t')) k++;
        if (k < end && (text[k] == '"' || text[k] == '<')) {
          const char close = text[k] == '"' ? '"' : '>';
          size_t e = text.find(close, k + 1);
          if (e != std::string::npos && e < end)
            out.push_back({text.substr(k + 1, e - k - 1), close == '"'});
        }
      }
    }
    at = end + 1;
  }
  return out;
}

std::string joined(const std::string &dir, const std::string &name) {
  return name.empty() || name[0] == '/' ? name : dir + name;
}

void scan(const std::string &path, const std::string &text, const SearchDirs &dirs,
          std::map<std::string, bool> &known, std::vector<ProjectHeader> &out) {
  for (const auto &[name, quoted] : includesOf(text)) {
    std::vector<std::string> candidates;
    if (quoted) {
      candidates.push_back(dirOf(path));
      candidates.insert(candidates.end(), dirs.quote.begin(), dirs.quote.end());
    }
    candidates.insert(candidates.end(), dirs.bracket.begin(), dirs.bracket.end());
    for (const std::string &dir : candidates) {
      const std::string display = joined(dir, name);
      if (!isRegularFile(display)) continue;
      const std::string real = realPath(display);
      if (real.empty() || systemDirectory(real)) break;
      if (known.count(real)) break;
      known[real] = true;
      ProjectHeader h;
      h.display = display;
      h.real = real;
      std::string err;
      if (!files::readFile(display, h.text, err)) break;
      scan(display, h.text, dirs, known, out);
      out.push_back(std::move(h));
      break;
    }
  }
}

} // namespace

void findProjectHeaders(const std::string &sourcePath, const std::string &text,
                        const std::vector<std::string> &options, const std::string &wucInclude,
                        std::map<std::string, bool> &known, std::vector<ProjectHeader> &out) {
  SearchDirs dirs = searchDirs(options);
  const std::string wuc = wucInclude.empty() ? "" : realPath(wucInclude);
  for (auto *list : {&dirs.quote, &dirs.bracket})
    list->erase(std::remove_if(list->begin(), list->end(),
                               [&](const std::string &d) {
                                 return !wuc.empty() && realPath(d.empty() ? "." : d) == wuc;
                               }),
                list->end());
  scan(sourcePath, text, dirs, known, out);
}

std::string mirrorOf(const std::string &root, const std::string &path) {
  const std::string real = realPath(path);
  struct stat st;
  if (real.empty() || stat((root + real).c_str(), &st) != 0) return "";
  return root + real;
}

std::vector<std::string> withMirrors(const std::vector<std::string> &options,
                                     const std::string &root) {
  std::vector<std::string> out;
  IncludeDirOption opt;
  for (size_t i = 0; i < options.size(); i++) {
    if (readIncludeDirOption(options, i, opt)) {
      // Only a mirror that exists: -Wmissing-include-dirs would warn.
      const std::string mirror = opt.dir.empty() || opt.dir == "-" ? "" : mirrorOf(root, opt.dir);
      if (!mirror.empty()) out.insert(out.end(), {opt.flag, mirror});
      out.insert(out.end(), options.begin() + i, options.begin() + i + opt.words);
      i += opt.words - 1;
    } else {
      out.push_back(options[i]);
    }
  }
  return out;
}

void mirroredDirectories(const std::string &root, const std::string &sourcePath,
                         const std::vector<std::string> &options,
                         const std::vector<ProjectHeader> &headers,
                         std::map<std::string, std::string> &out) {
  auto add = [&](const std::string &dir) { // as given, with its '/' (or "")
    const std::string m = mirrorOf(root, dir.empty() ? "." : dir);
    if (!m.empty()) out[m + "/"] = dir;
  };
  const SearchDirs d = searchDirs(options);
  for (const std::string &dir : d.quote) add(dir);
  for (const std::string &dir : d.bracket) add(dir);
  add(dirOf(sourcePath));
  for (const ProjectHeader &h : headers) add(dirOf(h.display));
}

bool makeMirrorDirectory(const std::string &root, const std::string &dir) {
  const std::string real = realPath(dir.empty() ? "." : dir);
  if (real.empty()) return false;
  const std::string path = root + real + "/";
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1))
    mkdir(path.substr(0, slash).c_str(), 0700); // exists already: fine
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool writeMirrorFile(const std::string &path, const std::string &text) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1))
    mkdir(path.substr(0, slash).c_str(), 0700); // exists already: fine
  std::ofstream out(path, std::ios::binary);
  out << text;
  return bool(out.flush());
}

} // namespace wuc
