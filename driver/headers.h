// headers.h — the project headers of a dialect file (docs/language.md,
// "Headers"; docs/lowering.md, "Headers").
//
// wucc follows the `#include` lines of a dialect file (and of the headers it
// reaches, whatever the #if around them) through the directories the back
// end would search for a *project* header: for `#include "x.h"` the
// including file's directory, then the -iquote and -I directories; for
// `#include <x.h>` the -I directories.  System headers (the back end's own
// directories, -isystem, -idirafter) are never looked at.  Every header so
// found is copied into a mirror directory (its absolute path under the
// mirror's root): a header that uses the dialect as its lowered C, any other
// as written; each starts with a #line naming the original.  Each search
// directory is searched in its mirror first (withMirrors), so the back end
// reads the copies, and a copy's own quote includes find the copies beside
// it.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace wuc {

struct ProjectHeader {
  std::string display; // as the back end names it: "inc/x.h", "../lib/y.h"
  std::string real;    // its absolute, resolved path
  std::string text;
};

// The headers `sourcePath` (whose text is `text`) includes, directly or not,
// found with `options` (the back end's options: -I, -iquote, -nostdinc...),
// the included ones before the including ones.  `known` (by real path) are
// not scanned again and are not returned.
// `wucInclude`: the directory of <wuc.h>, never a project's.
void findProjectHeaders(const std::string &sourcePath, const std::string &text,
                        const std::vector<std::string> &options, const std::string &wucInclude,
                        std::map<std::string, bool> &known, std::vector<ProjectHeader> &out);

// `options` with each -I and -iquote directory preceded by its mirror under
// `root` (the same option).
std::vector<std::string> withMirrors(const std::vector<std::string> &options,
                                     const std::string &root);

// The mirror of directory or file `path` under `root` ("" if `path` cannot
// be resolved or has no mirror).
std::string mirrorOf(const std::string &root, const std::string &path);

// The directories whose mirror the back end may name, mirror -> as given
// (with a trailing '/' each, "" for the current directory): to turn the
// back end's depfiles and -E output back to the original names.
void mirroredDirectories(const std::string &root, const std::string &sourcePath,
                         const std::vector<std::string> &options,
                         const std::vector<ProjectHeader> &headers,
                         std::map<std::string, std::string> &out);

// Creates the mirror of directory `dir` under `root` (for a source's own
// directory, whose quote includes may go up: "../inc/x.h").
bool makeMirrorDirectory(const std::string &root, const std::string &dir);

// Creates the directories of `path`, then writes it.
bool writeMirrorFile(const std::string &path, const std::string &text);

} // namespace wuc
