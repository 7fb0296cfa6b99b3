// detect.h — whether a source may use the dialect at all (the driver hands
// a file that does not straight to the back end).
#pragma once

#include <string_view>

namespace wuc {

bool mayUseDialect(std::string_view text);

} // namespace wuc
