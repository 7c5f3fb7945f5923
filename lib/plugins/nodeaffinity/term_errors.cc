#include "plugins/nodeaffinity/term_errors.h"

#include <cstdint>
#include <cstdio>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "api/go_format.h"
#include "schedkit/api/str_cat.h"

namespace schedkit::plugins::nodeaffinity_internal {
namespace {

// apimachinery's api/validate/content texts.
constexpr std::string_view kLabelKeyFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelKeyErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDns1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character";
constexpr size_t kLabelMaxLength = 63;
constexpr size_t kDns1123SubdomainMaxLength = 253;

constexpr std::string_view kSelectorOperators =
    "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"";
constexpr std::string_view kFieldSelectorOperators = "\"In\", \"NotIn\"";

bool IsAlnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$
bool MatchesLabelKeyFmt(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$, one
// dot-separated label at a time.
bool MatchesDns1123Subdomain(std::string_view s) {
  auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  while (true) {
    const size_t dot = s.find('.');
    const std::string_view label = s.substr(0, dot);
    if (label.empty() || !lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    for (char c : label) {
      if (!lower_alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// content.RegexError.
std::string RegexError(std::string_view msg, std::string_view re,
                       std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view e : examples) {
    if (!first) out += " or ";
    first = false;
    schedkit::StrAppend(&out, "'", e, "', ");
  }
  schedkit::StrAppend(&out, "regex used for validation is '", re, "')");
  return out;
}

std::string MaxLenError(size_t n) { return schedkit::StrCat("must be no more than ", n, " bytes"); }

// content.IsLabelKey.
std::vector<std::string> LabelKeyErrors(std::string_view key) {
  std::vector<std::string> errs;
  std::string_view name = key;
  const size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    if (key.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back(schedkit::StrCat(
          "a valid label key ", RegexError(kLabelKeyErrMsg, kLabelKeyFmt, {"MyName", "my.name", "123-abc"}),
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"));
      return errs;
    }
    const std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      if (prefix.size() > kDns1123SubdomainMaxLength) {
        errs.push_back(schedkit::StrCat("prefix part ", MaxLenError(kDns1123SubdomainMaxLength)));
      }
      if (!MatchesDns1123Subdomain(prefix)) {
        errs.push_back(schedkit::StrCat(
            "prefix part ", RegexError(kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"})));
      }
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kLabelMaxLength) {
    errs.push_back(schedkit::StrCat("name part ", MaxLenError(kLabelMaxLength)));
  }
  if (!MatchesLabelKeyFmt(name)) {
    errs.push_back(schedkit::StrCat(
        "name part ", RegexError(kLabelKeyErrMsg, kLabelKeyFmt, {"MyName", "my.name", "123-abc"})));
  }
  return errs;
}

// content.IsLabelValue.
std::vector<std::string> LabelValueErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelMaxLength) errs.push_back(MaxLenError(kLabelMaxLength));
  if (!value.empty() && !MatchesLabelKeyFmt(value)) {
    errs.push_back(RegexError(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

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

std::string Invalid(std::string_view field, std::string_view rendered_value, std::string_view detail) {
  return schedkit::StrCat(field, ": Invalid value: ", rendered_value, ": ", detail);
}

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
    errors.push_back(Invalid(Child(p, "key"), GoQuote(r.key()), absl::StrJoin(key_errs, "; ")));
  }
  const std::string values_path = Child(p, "values");
  if (in && r.values().empty()) {
    errors.push_back(
        Invalid(values_path, JsonList(r.values()), "for 'in', 'notin' operators, values set can't be empty"));
  } else if (exists && !r.values().empty()) {
    errors.push_back(
        Invalid(values_path, JsonList(r.values()), "values set must be empty for exists and does not exist"));
  } else if (numeric) {
    if (r.values().size() != 1) {
      errors.push_back(Invalid(values_path, JsonList(r.values()),
                               "for 'Gt', 'Lt' operators, exactly one value is required"));
    }
    for (int i = 0; i < r.values().size(); ++i) {
      if (!IsDecimalInt64(r.values(i))) {
        errors.push_back(Invalid(Index(values_path, i), GoQuote(r.values(i)),
                                 "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
    }
  }
  for (int i = 0; i < r.values().size(); ++i) {
    if (std::vector<std::string> value_errs = LabelValueErrors(r.values(i)); !value_errs.empty()) {
      errors.push_back(Invalid(schedkit::StrCat(Index(values_path, i), "[", r.key(), "]"),
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
    errors.push_back(Invalid(Child(p, "values"), JsonList(r.values()), "must have one element"));
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
