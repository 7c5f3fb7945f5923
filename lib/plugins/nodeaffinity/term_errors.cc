#include "plugins/nodeaffinity/term_errors.h"

#include <cstdint>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "api/apimachinery_validation.h"
#include "api/go_format.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins::nodeaffinity_internal {
namespace {

using api::internal::FieldInvalid;
using api::internal::LabelKeyErrors;
using api::internal::LabelValueErrors;

constexpr std::string_view kSelectorOperators =
    "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"";
constexpr std::string_view kFieldSelectorOperators = "\"In\", \"NotIn\"";

// json.Marshal of a []string; an empty list reads "null" as for an absent
// field (the API object cannot tell nil from empty).
std::string JsonList(const google::protobuf::RepeatedPtrField<std::string>& values) {
  if (values.empty()) return "null";
  std::string out = "[";
  for (int i = 0; i < values.size(); ++i) {
    if (i > 0) out += ",";
    out += JsonQuote(values[i]);
  }
  out += "]";
  return out;
}

std::string Child(std::string_view path, std::string_view name) {
  return path.empty() ? std::string(name) : schedkit::StrCat(path, ".", name);
}

std::string Index(std::string_view path, int i) { return schedkit::StrCat(path, "[", i, "]"); }

// labels.NewRequirement's checks for one matchExpressions entry at `p`.
void AppendRequirementErrors(const api::v1::NodeSelectorRequirement& r, const std::string& p,
                             std::vector<std::string>& errors) {
  const std::string& op = r.operator_();
  const bool in = op == "In" || op == "NotIn";
  const bool exists = op == "Exists" || op == "DoesNotExist";
  const bool numeric = op == "Gt" || op == "Lt";
  if (!in && !exists && !numeric) {
    errors.push_back(schedkit::StrCat(Child(p, "operator"), ": Unsupported value: ", JsonQuote(op),
                                      ": supported values: ", kSelectorOperators));
    return;
  }
  if (std::vector<std::string> key_errs = LabelKeyErrors(r.key()); !key_errs.empty()) {
    errors.push_back(FieldInvalid(Child(p, "key"), GoQuote(r.key()), absl::StrJoin(key_errs, "; ")));
  }
  const std::string values_path = Child(p, "values");
  if (in && r.values().empty()) {
    errors.push_back(
        FieldInvalid(values_path, JsonList(r.values()), "for 'in', 'notin' operators, values set can't be empty"));
  } else if (exists && !r.values().empty()) {
    errors.push_back(
        FieldInvalid(values_path, JsonList(r.values()), "values set must be empty for exists and does not exist"));
  } else if (numeric) {
    if (r.values().size() != 1) {
      errors.push_back(FieldInvalid(values_path, JsonList(r.values()),
                               "for 'Gt', 'Lt' operators, exactly one value is required"));
    }
    for (int i = 0; i < r.values().size(); ++i) {
      if (!IsDecimalInt64(r.values(i))) {
        errors.push_back(FieldInvalid(Index(values_path, i), GoQuote(r.values(i)),
                                 "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
    }
  }
  for (int i = 0; i < r.values().size(); ++i) {
    if (std::vector<std::string> value_errs = LabelValueErrors(r.values(i)); !value_errs.empty()) {
      errors.push_back(FieldInvalid(schedkit::StrCat(Index(values_path, i), "[", r.key(), "]"),
                               GoQuote(r.values(i)), absl::StrJoin(value_errs, "; ")));
    }
  }
}

// nodeSelectorRequirementsAsFieldSelector's checks for one matchFields entry.
// Field keys are not checked upstream.
void AppendFieldRequirementErrors(const api::v1::NodeSelectorRequirement& r, const std::string& p,
                                  std::vector<std::string>& errors) {
  if (r.operator_() != "In" && r.operator_() != "NotIn") {
    errors.push_back(schedkit::StrCat(Child(p, "operator"), ": Unsupported value: ", JsonQuote(r.operator_()),
                                      ": supported values: ", kFieldSelectorOperators));
  } else if (r.values().size() != 1) {
    errors.push_back(FieldInvalid(Child(p, "values"), JsonList(r.values()), "must have one element"));
  }
}

}  // namespace

bool IsDecimalInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t magnitude = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (limit - digit) / 10) return false;
    magnitude = magnitude * 10 + digit;
  }
  return true;
}

bool IsEmptyTerm(const api::v1::NodeSelectorTerm& term) {
  return term.match_expressions().empty() && term.match_fields().empty();
}

void AppendTermErrors(const api::v1::NodeSelectorTerm& term, std::string_view path,
                      std::vector<std::string>& errors) {
  const std::string expressions_path = Child(path, "matchExpressions");
  for (int i = 0; i < term.match_expressions().size(); ++i) {
    AppendRequirementErrors(term.match_expressions(i), Index(expressions_path, i), errors);
  }
  const std::string fields_path = Child(path, "matchFields");
  for (int i = 0; i < term.match_fields().size(); ++i) {
    AppendFieldRequirementErrors(term.match_fields(i), Index(fields_path, i), errors);
  }
}

std::string AggregateMessage(const std::vector<std::string>& errors) {
  absl::flat_hash_set<std::string> seen;
  std::vector<std::string> distinct;
  for (const std::string& e : errors) {
    if (seen.insert(e).second) distinct.push_back(e);
  }
  if (distinct.size() == 1) return distinct.front();
  if (distinct.empty()) return "";
  return schedkit::StrCat("[", absl::StrJoin(distinct, ", "), "]");
}

}  // namespace schedkit::plugins::nodeaffinity_internal
