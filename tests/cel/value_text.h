// Values as text for table tests, in the same form as the generator that
// ran cel-go for the expected results: "int:1", "string:\"a\"", "[...]",
// "{k: v}" with entries sorted, "error:<message>".
#ifndef SCHEDKIT_TESTS_CEL_VALUE_TEXT_H_
#define SCHEDKIT_TESTS_CEL_VALUE_TEXT_H_

#include <algorithm>
#include <string>
#include <vector>

#include "cel/literals.h"
#include "cel/time_functions.h"
#include "cel/value.h"

namespace schedkit::cel {

inline std::string ValueText(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kError: return "error:" + v.error_message();
    case ValueKind::kNull: return "null";
    case ValueKind::kBool: return v.bool_value() ? "bool:true" : "bool:false";
    case ValueKind::kInt: return "int:" + std::to_string(v.int_value());
    case ValueKind::kUint: return "uint:" + std::to_string(v.uint_value());
    case ValueKind::kDouble: return "double:" + FormatDoubleGo(v.double_value());
    case ValueKind::kString: return "string:" + QuoteGo(v.string_value());
    case ValueKind::kBytes: return "bytes:" + QuoteGo(v.string_value());
    case ValueKind::kDuration: return "duration:" + std::to_string(v.duration_nanos());
    case ValueKind::kTimestamp: return "timestamp:" + FormatTimestamp(v.timestamp_seconds(), v.timestamp_nanos());
    case ValueKind::kOptional:
      return v.optional_has_value() ? "optional:" + ValueText(v.optional_value()) : "optional:none";
    case ValueKind::kType: return "type:" + v.string_value();
    case ValueKind::kList: {
      std::string out = "[";
      const auto& e = v.list_elements();
      for (size_t i = 0; i < e.size(); ++i) {
        if (i > 0) out += ", ";
        out += ValueText(e[i]);
      }
      return out + "]";
    }
    case ValueKind::kMap: {
      std::vector<std::string> parts;
      for (const auto& [k, val] : v.map().entries) parts.push_back(ValueText(k) + ": " + ValueText(val));
      std::sort(parts.begin(), parts.end());
      std::string out = "{";
      for (size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) out += ", ";
        out += parts[i];
      }
      return out + "}";
    }
    case ValueKind::kObject: return "object:" + std::string(TypeName(v));
    case ValueKind::kAny: break;
  }
  return "?";
}

}  // namespace schedkit::cel

#endif  // SCHEDKIT_TESTS_CEL_VALUE_TEXT_H_
