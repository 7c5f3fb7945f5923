#include "schedkit/framework/status.h"

#include "schedkit/base/str_cat.h"

namespace schedkit::framework {

std::string_view CodeName(Code code) {
  switch (code) {
    case Code::kSuccess: return "Success";
    case Code::kError: return "Error";
    case Code::kUnschedulable: return "Unschedulable";
    case Code::kUnschedulableAndUnresolvable: return "UnschedulableAndUnresolvable";
    case Code::kWait: return "Wait";
    case Code::kSkip: return "Skip";
    case Code::kPending: return "Pending";
  }
  return "Unknown";
}

Status Status::WithReasons(Code code, std::initializer_list<std::string_view> reasons) {
  Status s(code);
  for (std::string_view r : reasons) s.reasons_.push_back(Symbol::Intern(r));
  return s;
}

Status Status::WithText(Code code, std::string text) {
  Status s(code);
  s.text_ = std::make_shared<const std::string>(std::move(text));
  return s;
}

std::vector<std::string> Status::Reasons() const {
  std::vector<std::string> out;
  out.reserve(num_reasons());
  for (Symbol r : reasons_) out.emplace_back(r.str());
  if (text_) out.push_back(*text_);
  return out;
}

std::string_view Status::reason(size_t i) const {
  if (i < reasons_.size()) return reasons_[i].str();
  return *text_;
}

std::string Status::Message() const {
  std::string out;
  for (size_t i = 0; i < num_reasons(); ++i) {
    if (i > 0) out += ", ";
    out += reason(i);
  }
  return out;
}

std::string Status::ToString() const {
  std::string out(CodeName(code_));
  if (!plugin_.empty()) schedkit::StrAppend(&out, " (", plugin_.str(), ")");
  if (num_reasons() > 0) schedkit::StrAppend(&out, ": ", Message());
  return out;
}

bool operator==(const Status& a, const Status& b) {
  if (a.code_ != b.code_ || a.plugin_ != b.plugin_) return false;
  // Interned reasons alone: equal ids are equal texts, without building strings.
  if (!a.text_ && !b.text_) return a.reasons_ == b.reasons_;
  return a.Reasons() == b.Reasons();
}

}  // namespace schedkit::framework
