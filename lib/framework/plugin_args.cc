#include "schedkit/framework/plugin_args.h"

#include <limits>

#include "absl/strings/cord.h"
#include "absl/strings/str_join.h"
#include "api/go_format.h"
#include "api/json_documents.h"
#include "api/proto_json.h"
#include "framework/args_error.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::framework {

using nlohmann::json;

std::string ArgsPath(std::string_view parent, std::string_view child) {
  if (parent.empty()) return std::string(child);
  if (child.empty()) return std::string(parent);
  if (child.front() == '[') return schedkit::StrCat(parent, child);
  return schedkit::StrCat(parent, ".", child);
}

std::string ArgsPath(std::string_view parent, size_t index) { return schedkit::StrCat(parent, "[", index, "]"); }

void ArgsErrors::Add(std::string_view path, std::string_view problem) {
  entries_.push_back({std::string(path), std::string(problem)});
}

void ArgsErrors::Required(std::string_view path, std::string_view detail) {
  Add(path, detail.empty() ? std::string("Required value") : schedkit::StrCat("Required value: ", detail));
}

void ArgsErrors::Invalid(std::string_view path, std::string_view value, std::string_view detail) {
  Add(path, schedkit::StrCat("Invalid value: ", GoQuote(value), ": ", detail));
}

void ArgsErrors::Invalid(std::string_view path, int64_t value, std::string_view detail) {
  Add(path, schedkit::StrCat("Invalid value: ", value, ": ", detail));
}

void ArgsErrors::NotSupported(std::string_view path, std::string_view value,
                              std::span<const std::string_view> supported) {
  std::string list;
  for (std::string_view s : supported) {
    if (!list.empty()) list += ", ";
    list += GoQuote(s);
  }
  Add(path, schedkit::StrCat("Unsupported value: ", GoQuote(value), ": supported values: ", list));
}

void ArgsErrors::Duplicate(std::string_view path, std::string_view value) {
  Add(path, schedkit::StrCat("Duplicate value: ", GoQuote(value)));
}

void ArgsErrors::Forbidden(std::string_view path, std::string_view detail) {
  Add(path, schedkit::StrCat("Forbidden: ", detail));
}

namespace {

const json& Node(const void* node) { return *static_cast<const json*>(node); }

}  // namespace

// Makes the values of one document; the only maker of ArgsValue.
class ArgsDocument {
 public:
  static ArgsValue Top(const json& doc, ArgsErrors& decode, ArgsErrors& validation, const FeatureGates& gates) {
    return ArgsValue(&doc, "", /*top=*/true, &decode, &validation, &gates);
  }
  static ArgsValue Child(const ArgsValue& parent, const json& node, std::string path) {
    return ArgsValue(&node, std::move(path), /*top=*/false, parent.decode_, parent.validation_, parent.gates_);
  }
  static ArgsOut Out(json& node) { return ArgsOut(&node); }
};

namespace {

json& Out(void* node) { return *static_cast<json*>(node); }

}  // namespace

void ArgsOut::Write(bool v) { Out(node_) = v; }
void ArgsOut::Write(int32_t v) { Out(node_) = v; }
void ArgsOut::Write(int64_t v) { Out(node_) = v; }
void ArgsOut::Write(double v) { Out(node_) = v; }
void ArgsOut::Write(const std::string& v) { Out(node_) = v; }
void ArgsOut::Write(absl::Duration v) { Out(node_) = FormatGoDuration(v); }
void ArgsOut::Write(const RawJson& v) {
  // The text came from a parsed document (ArgsValue::Read), or from code
  // that promises JSON; anything else is written as null.
  json parsed = json::parse(v.text, nullptr, /*allow_exceptions=*/false);
  Out(node_) = parsed.is_discarded() ? json() : std::move(parsed);
}
void ArgsOut::WriteMessage(const google::protobuf::Message& v) { Out(node_) = api::internal::MessageToJson(v); }
void ArgsOut::WriteNull() { Out(node_) = nullptr; }
void ArgsOut::MakeList() {
  if (!Out(node_).is_array()) Out(node_) = json::array();
}
ArgsOut ArgsOut::Element() {
  MakeList();
  return ArgsDocument::Out(Out(node_).emplace_back());
}
void ArgsOut::MakeObject() {
  if (!Out(node_).is_object()) Out(node_) = json::object();
}
ArgsOut ArgsOut::Member(std::string_view name) {
  MakeObject();
  return ArgsDocument::Out(Out(node_)[std::string(name)]);
}

bool ArgsValue::is_null() const { return Node(node_).is_null(); }

bool ArgsValue::Fail(std::string_view problem) const {
  decode_->Add(path_, problem);
  return false;
}

namespace {

std::string Expected(std::string_view what, const json& got) {
  return schedkit::StrCat("expected ", what, ", got ", api::internal::DescribeType(got));
}

}  // namespace

bool ArgsValue::Read(bool& out) const {
  const json& j = Node(node_);
  if (!j.is_boolean()) return Fail(Expected("a boolean", j));
  out = j.get<bool>();
  return true;
}

bool ArgsValue::Read(int64_t& out) const {
  const json& j = Node(node_);
  if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return Fail(schedkit::StrCat("Invalid value: ", j.get<uint64_t>(), ": not a 64-bit integer"));
  }
  if (!j.is_number_integer()) return Fail(Expected("an integer", j));
  out = j.get<int64_t>();
  return true;
}

bool ArgsValue::Read(int32_t& out) const {
  int64_t v = 0;
  if (!Read(v)) return false;
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return Fail(schedkit::StrCat("Invalid value: ", v, ": not a 32-bit integer"));
  }
  out = static_cast<int32_t>(v);
  return true;
}

bool ArgsValue::Read(double& out) const {
  const json& j = Node(node_);
  if (!j.is_number()) return Fail(Expected("a number", j));
  out = j.get<double>();
  return true;
}

bool ArgsValue::Read(std::string& out) const {
  const json& j = Node(node_);
  if (!j.is_string()) return Fail(Expected("a string", j));
  out = j.get<std::string>();
  return true;
}

bool ArgsValue::Read(absl::Duration& out) const {
  const json& j = Node(node_);
  if (!j.is_string()) return Fail("expected a duration string such as \"10s\"");
  const std::string& text = j.get_ref<const std::string&>();
  if (!ParseGoDuration(text, &out)) return Fail(schedkit::StrCat("time: invalid duration ", GoQuote(text)));
  return true;
}

bool ArgsValue::Read(RawJson& out) const {
  out.text = Node(node_).dump();
  return true;
}

bool ArgsValue::ReadMessage(google::protobuf::Message& out) const {
  absl::Status s = api::internal::JsonToMessage(Node(node_), out, /*reject_unknown_fields=*/true);
  if (s.ok()) return true;
  // The decoder says "<path inside the value>: <problem>", or only the
  // problem ("expected ...") about the value itself.
  const std::string message(s.message());
  const size_t colon = message.find(": ");
  if (colon == std::string::npos || message.starts_with("expected ")) return Fail(message);
  decode_->Add(ArgsPath(path_, std::string_view(message).substr(0, colon)), message.substr(colon + 2));
  return false;
}

bool ArgsValue::ForEachElement(absl::FunctionRef<bool(const ArgsValue&)> element) const {
  const json& j = Node(node_);
  if (!j.is_array()) return Fail(Expected("an array", j));
  for (size_t i = 0; i < j.size(); ++i) {
    if (!element(ArgsDocument::Child(*this, j[i], ArgsPath(path_, i)))) return false;
  }
  return true;
}

bool ArgsValue::ForEachField(std::span<const std::string> fields, std::vector<bool>& seen,
                             absl::FunctionRef<bool(size_t, const ArgsValue&)> field) const {
  const json& j = Node(node_);
  if (!j.is_object()) return Fail(Expected("an object", j));
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    size_t index = fields.size();
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i] == key) index = i;
    }
    if (index == fields.size()) {
      if (top_ && (key == "apiVersion" || key == "kind")) continue;
      decode_->Add(ArgsPath(path_, key), "unknown field");
      return false;
    }
    if (it->is_null()) continue;
    seen[index] = true;
    if (!field(index, ArgsDocument::Child(*this, *it, ArgsPath(path_, key)))) return false;
  }
  return true;
}

namespace args_internal {

void AppendUnder(std::string_view prefix, const ArgsErrors& nested, ArgsErrors& out) {
  for (const ArgsErrors::Entry& e : nested.entries()) out.Add(ArgsPath(prefix, e.path), e.problem);
}

void CheckRange(std::string_view path, int64_t value, std::optional<int64_t> lo, std::optional<int64_t> hi,
                ArgsErrors& out) {
  if ((!lo || value >= *lo) && (!hi || value <= *hi)) return;
  if (lo && hi) {
    out.Invalid(path, value, schedkit::StrCat("must be between ", *lo, " and ", *hi, ", inclusive"));
  } else if (lo) {
    out.Invalid(path, value, schedkit::StrCat("must be greater than or equal to ", *lo));
  } else {
    out.Invalid(path, value, schedkit::StrCat("must be less than or equal to ", *hi));
  }
}

absl::Status Report(const PluginArgs& args, std::string_view fallback_plugin, const ArgsErrors& errors);

namespace {

std::string Entry(std::string_view prefix, const ArgsErrors::Entry& e) {
  const std::string path = ArgsPath(prefix, e.path);
  return path.empty() ? e.problem : schedkit::StrCat(path, ": ", e.problem);
}

// One line for the problems: where the args were written, the field and the
// problem; apimachinery's "[a, b]" when there are several.
}  // namespace
}  // namespace args_internal

absl::Status ArgsErrors::ToStatus(std::string_view plugin, const PluginArgs& args) const {
  if (empty()) return absl::OkStatus();
  return args_internal::Report(args, plugin, *this);
}

namespace args_internal {

absl::Status Report(const PluginArgs& args, std::string_view fallback_plugin, const ArgsErrors& errors) {
  const std::string_view plugin = args.plugin().empty() ? fallback_plugin : args.plugin();
  std::string line;
  if (!args.source().empty()) {
    // "sched.yaml: profiles[1].pluginConfig[0].args" + ".field: problem".
    if (errors.size() == 1) {
      line = Entry(args.source(), errors.entries()[0]);
    } else {
      std::vector<std::string> parts;
      for (const ArgsErrors::Entry& e : errors.entries()) parts.push_back(Entry("", e));
      line = schedkit::StrCat(args.source(), ": [", absl::StrJoin(parts, ", "), "]");
    }
    line += schedkit::StrCat(" (plugin \"", plugin, "\"");
    if (!args.profile().empty()) line += schedkit::StrCat(", profile \"", args.profile(), "\"");
    line += ")";
  } else {
    if (!args.profile().empty()) line = schedkit::StrCat("profile \"", args.profile(), "\": ");
    line += schedkit::StrCat(plugin, " args: ");
    if (errors.size() == 1) {
      line += Entry("", errors.entries()[0]);
    } else {
      std::vector<std::string> parts;
      for (const ArgsErrors::Entry& e : errors.entries()) parts.push_back(Entry("", e));
      line += schedkit::StrCat("[", absl::StrJoin(parts, ", "), "]");
    }
  }
  absl::Status status = absl::InvalidArgumentError(line);
  if (!args.profile().empty()) MarkArgsError(status);
  return status;
}

absl::Status DecodeDocument(const PluginArgs& args, std::string_view fallback_plugin,
                            absl::FunctionRef<bool(const ArgsValue&)> decode) {
  ArgsErrors decode_errors, validation_errors;
  json doc = json::object();
  if (!args.empty()) {
    doc = json::parse(args.json(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) {
      decode_errors.Add("", "malformed JSON");
      return Report(args, fallback_plugin, decode_errors);
    }
    if (doc.is_null()) doc = json::object();
  }
  ArgsValue top = ArgsDocument::Top(doc, decode_errors, validation_errors, args.gates());
  if (!doc.is_object()) {
    decode_errors.Add("", Expected("an object", doc));
    return Report(args, fallback_plugin, decode_errors);
  }
  if (!decode(top)) {
    if (decode_errors.empty()) decode_errors.Add("", "could not be decoded");
    ArgsErrors first;
    first.Add(decode_errors.entries()[0].path, decode_errors.entries()[0].problem);
    return Report(args, fallback_plugin, first);
  }
  if (!validation_errors.empty()) return Report(args, fallback_plugin, validation_errors);
  return absl::OkStatus();
}

std::string EncodeDocument(absl::FunctionRef<void(ArgsOut)> encode) {
  json doc = json::object();
  encode(ArgsDocument::Out(doc));
  return doc.dump();
}

}  // namespace args_internal
}  // namespace schedkit::framework

namespace schedkit::framework {
namespace {
constexpr char kArgsErrorPayload[] = "type.schedkit.io/plugin-args-error";
}  // namespace

void MarkArgsError(absl::Status& status) { status.SetPayload(kArgsErrorPayload, absl::Cord("1")); }

bool IsArgsError(const absl::Status& status) { return status.GetPayload(kArgsErrorPayload).has_value(); }

}  // namespace schedkit::framework
