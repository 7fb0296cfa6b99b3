#include "sema_loader.h"

#include <dlfcn.h>

namespace wuc {

namespace {

using AnalyseFn = bool (*)(const SourceFile *, const FrontendResult *, const SemaOptions *,
                           DiagEngine *, SemaFacts *);

} // namespace

bool analyseWithModule(const std::string &modulePath, const SourceFile &file,
                       const FrontendResult &fe, const SemaOptions &options, DiagEngine &diags,
                       SemaFacts &out, std::string &error) {
  static AnalyseFn analyse = nullptr;
  if (!analyse) {
    void *module = dlopen(modulePath.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module) analyse = reinterpret_cast<AnalyseFn>(dlsym(module, "wuc_sema_analyse"));
    if (!analyse) {
      const char *why = dlerror();
      error = "cannot load the semantic pass '" + modulePath + "': " + (why ? why : "no entry");
      return false;
    }
  }
  return analyse(&file, &fe, &options, &diags, &out);
}

} // namespace wuc
