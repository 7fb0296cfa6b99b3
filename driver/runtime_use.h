// runtime_use.h — whether a link needs libwuc.
//
// libwuc is an archive, so linking it always would add nothing to a
// program that does not use it; but the back end's -v output, which build
// systems read (CMake finds a compiler's implicit libraries in it), would
// show it all the same.  wucc adds it only when something in the link may
// refer to it: a file of the command that uses the dialect or includes a wuc
// header, or an object or archive (given, or as -lNAME found in a -L
// directory) whose bytes name a wuc_ symbol.  A shared library that uses
// wuc carries its own copy and needs nothing.
#pragma once

#include <string>

#include "driver_args.h"

namespace wuc {

// Whether the file's bytes contain "wuc_" (every symbol of libwuc has it).
bool mentionsWuc(const std::string &path);

// Whether the link of `args` refers to libwuc through an object or archive
// input, or a -l archive in one of its -L directories.
bool linkedFilesUseWuc(const DriverArgs &args);

} // namespace wuc
