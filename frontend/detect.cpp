// Placeholder scan (replaced by the frontend's exact one): any mention.
#include "detect.h"

namespace wuc {

bool mayUseDialect(std::string_view text) {
  return text.find("waituntil") != std::string_view::npos ||
         text.find('`') != std::string_view::npos ||
         text.find("channel") != std::string_view::npos ||
         text.find("future") != std::string_view::npos;
}

} // namespace wuc
