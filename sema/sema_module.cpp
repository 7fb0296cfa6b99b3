// sema_module.cpp — the semantic pass as a loadable module (wucc-sema.so).
//
// Clang and LLVM are tens of megabytes of shared libraries: loading them
// costs a plain-C compile more than the compile itself.  wucc therefore does
// not link them; it loads this module only for a file that uses the dialect
// (driver/sema_loader.cpp).  The entry point has C linkage so dlsym finds it
// by name; its types are sema.h's, compiled by the same build.
#include "sema.h"

extern "C" __attribute__((visibility("default"))) bool
wuc_sema_analyse(const wuc::SourceFile *file, const wuc::FrontendResult *fe,
                 const wuc::SemaOptions *options, wuc::DiagEngine *diags, wuc::SemaFacts *out) {
  return wuc::analyse(*file, *fe, *options, *diags, *out);
}
