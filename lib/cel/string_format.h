// Internal to lib/cel: cel-go's string.format (ext/formatting.go, the
// version-1 formatter ext.Strings v2 uses): %s %d %f %e %b %o %x %X %% with
// optional precision, and its error texts.
#ifndef SCHEDKIT_CEL_STRING_FORMAT_H_
#define SCHEDKIT_CEL_STRING_FORMAT_H_

#include <string_view>

#include "cel/value.h"

namespace schedkit::cel {

// "<format>".format(args): the string, or an error value.
Value FormatString(std::string_view format, const Value& args);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_STRING_FORMAT_H_
