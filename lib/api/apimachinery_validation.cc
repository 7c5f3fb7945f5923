#include "api/apimachinery_validation.h"

#include <initializer_list>
#include <string>
#include <vector>

#include "schedkit/base/str_cat.h"

namespace schedkit::api::internal {
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

}  // namespace

bool IsDns1123Subdomain(std::string_view s) {
  return s.size() <= kDns1123SubdomainMaxLength && MatchesDns1123Subdomain(s);
}

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
  } else if (name.size() > kLabelValueMaxLength) {
    errs.push_back(schedkit::StrCat("name part ", MaxLenError(kLabelValueMaxLength)));
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
  if (value.size() > kLabelValueMaxLength) errs.push_back(MaxLenError(kLabelValueMaxLength));
  if (!value.empty() && !MatchesLabelKeyFmt(value)) {
    errs.push_back(RegexError(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

// content.IsDNS1123Subdomain.
std::vector<std::string> Dns1123SubdomainErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123SubdomainMaxLength) errs.push_back(MaxLenError(kDns1123SubdomainMaxLength));
  if (!MatchesDns1123Subdomain(value)) {
    errs.push_back(RegexError(kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

// content.IsDNS1123Label.
std::vector<std::string> Dns1123LabelErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(MaxLenError(kLabelValueMaxLength));
  if (value.find('.') != std::string_view::npos || !MatchesDns1123Subdomain(value)) {
    errs.push_back(RegexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
                              "'-', and must start and end with an alphanumeric character",
                              "[a-z0-9]([-a-z0-9]*[a-z0-9])?", {"my-name", "123-abc"}));
  }
  return errs;
}

// content.IsCIdentifier.
std::vector<std::string> CIdentifierErrors(std::string_view value) {
  auto word = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  bool ok = !value.empty() && word(value.front());
  for (char c : value) ok = ok && (word(c) || (c >= '0' && c <= '9'));
  if (ok) return {};
  return {RegexError("a valid C identifier must start with alphabetic character or '_', followed by a string of "
                     "alphanumeric characters or '_'",
                     "[A-Za-z_][A-Za-z0-9_]*", {"my_name", "MY_NAME", "MyName"})};
}

std::string FieldInvalid(std::string_view field, std::string_view rendered_value, std::string_view detail) {
  return schedkit::StrCat(field, ": Invalid value: ", rendered_value, ": ", detail);
}

}  // namespace schedkit::api::internal
