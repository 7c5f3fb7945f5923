#include "api/proto_json.h"

#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "api/json_documents.h"
#include "schedkit/base/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"

namespace schedkit::api::internal {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using nlohmann::json;

// JSON name → field, built once per message type.
const FieldDescriptor* FindField(const Descriptor* d, std::string_view json_name) {
  using Index = absl::flat_hash_map<std::string, const FieldDescriptor*>;
  static std::mutex mu;
  static auto* indexes = new absl::flat_hash_map<const Descriptor*, Index>();
  std::lock_guard<std::mutex> lock(mu);
  auto [it, inserted] = indexes->try_emplace(d);
  if (inserted) {
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* f = d->field(i);
      it->second.emplace(f->json_name(), f);
      it->second.emplace(f->name(), f);  // protobuf's parser accepts both
    }
  }
  auto f = it->second.find(std::string(json_name));
  return f == it->second.end() ? nullptr : f->second;
}

// RawJson (meta.proto) holds any JSON value as its text.
bool IsRawJson(const Descriptor* d) { return d->full_name() == "schedkit.api.v1.RawJson"; }

class Decoder {
 public:
  explicit Decoder(bool strict) : strict_(strict) {}

  absl::Status Message(const json& j, google::protobuf::Message& m) {
    const Descriptor* d = m.GetDescriptor();
    if (IsRawJson(d)) {
      m.GetReflection()->SetString(&m, d->field(0), j.dump());
      return absl::OkStatus();
    }
    if (!j.is_object()) return TypeError("an object", j);
    for (auto it = j.begin(); it != j.end(); ++it) {
      const FieldDescriptor* f = FindField(d, it.key());
      // Strict decoding knows a field only by the name Kubernetes writes.
      if (strict_ && (f == nullptr || f->json_name() != it.key())) {
        PathScope scope(*this, it.key());
        return Error("unknown field");
      }
      if (f == nullptr || it.value().is_null()) continue;
      PathScope scope(*this, it.key());
      absl::Status s = Field(it.value(), m, f);
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  }

 private:
  // Appends a path element for the duration of a scope.
  class PathScope {
   public:
    PathScope(Decoder& d, std::string_view key) : d_(d), saved_(d.path_.size()) {
      if (!d.path_.empty()) d.path_ += '.';
      d.path_ += key;
    }
    PathScope(Decoder& d, size_t index) : d_(d), saved_(d.path_.size()) {
      schedkit::StrAppend(&d.path_, "[", index, "]");
    }
    ~PathScope() { d_.path_.resize(saved_); }

   private:
    Decoder& d_;
    size_t saved_;
  };

  // Errors carry the path at the point of failure; scopes unwind it later.
  absl::Status Error(std::string_view problem) const {
    if (path_.empty()) return absl::InvalidArgumentError(std::string(problem));
    return absl::InvalidArgumentError(schedkit::StrCat(path_, ": ", problem));
  }

  absl::Status TypeError(std::string_view expected, const json& got) const {
    return Error(schedkit::StrCat("expected ", expected, ", got ", DescribeType(got)));
  }

  absl::Status Field(const json& j, google::protobuf::Message& m, const FieldDescriptor* f) {
    const Reflection* r = m.GetReflection();
    if (f->is_map()) {
      if (!j.is_object()) return TypeError("an object", j);
      const FieldDescriptor* key_f = f->message_type()->map_key();
      const FieldDescriptor* value_f = f->message_type()->map_value();
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_null()) continue;
        PathScope scope(*this, it.key());
        google::protobuf::Message* entry = r->AddMessage(&m, f);
        entry->GetReflection()->SetString(entry, key_f, it.key());
        absl::Status s = value_f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE
                             ? Message(it.value(), *entry->GetReflection()->MutableMessage(entry, value_f))
                             : Scalar(it.value(), *entry, value_f, /*repeated=*/false);
        if (!s.ok()) return s;
      }
      return absl::OkStatus();
    }
    if (f->is_repeated()) {
      if (!j.is_array()) return TypeError("a list", j);
      for (size_t i = 0; i < j.size(); ++i) {
        PathScope scope(*this, i);
        if (j[i].is_null()) return TypeError("a value", j[i]);
        absl::Status s = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE
                             ? Message(j[i], *r->AddMessage(&m, f))
                             : Scalar(j[i], m, f, /*repeated=*/true);
        if (!s.ok()) return s;
      }
      return absl::OkStatus();
    }
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      return Message(j, *r->MutableMessage(&m, f));
    }
    return Scalar(j, m, f, /*repeated=*/false);
  }

  absl::Status Scalar(const json& j, google::protobuf::Message& m, const FieldDescriptor* f,
                      bool repeated) {
    const Reflection* r = m.GetReflection();
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_STRING: {
        std::string text;
        if (j.is_string()) {
          text = j.get<std::string>();
        } else if (j.is_number() || j.is_boolean()) {
          text = j.dump();
        } else {
          return TypeError("a string", j);
        }
        repeated ? r->AddString(&m, f, std::move(text)) : r->SetString(&m, f, std::move(text));
        return absl::OkStatus();
      }
      case FieldDescriptor::CPPTYPE_BOOL: {
        bool b;
        if (j.is_boolean()) {
          b = j.get<bool>();
        } else if (j.is_string() && (j == "true" || j == "false")) {
          b = j == "true";
        } else {
          return TypeError("a boolean", j);
        }
        repeated ? r->AddBool(&m, f, b) : r->SetBool(&m, f, b);
        return absl::OkStatus();
      }
      case FieldDescriptor::CPPTYPE_INT32:
      case FieldDescriptor::CPPTYPE_INT64: {
        const bool is32 = f->cpp_type() == FieldDescriptor::CPPTYPE_INT32;
        int64_t v;
        if (!Integer(j, v)) return TypeError("an integer", j);
        if (is32 && (v < std::numeric_limits<int32_t>::min() ||
                     v > std::numeric_limits<int32_t>::max())) {
          return Error(schedkit::StrCat("integer ", v, " out of range"));
        }
        if (is32) {
          repeated ? r->AddInt32(&m, f, static_cast<int32_t>(v))
                   : r->SetInt32(&m, f, static_cast<int32_t>(v));
        } else {
          repeated ? r->AddInt64(&m, f, v) : r->SetInt64(&m, f, v);
        }
        return absl::OkStatus();
      }
      default:
        return absl::InternalError(schedkit::StrCat("unsupported field type for ", f->full_name()));
    }
  }

  static bool Integer(const json& j, int64_t& out) {
    if (j.is_number_integer()) {
      if (j.is_number_unsigned() &&
          j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return false;
      }
      out = j.get<int64_t>();
      return true;
    }
    if (j.is_number_float()) {
      const double d = j.get<double>();
      // 2^63 is exactly representable; anything at or beyond it does not fit.
      if (!std::isfinite(d) || d != std::trunc(d) || d >= 9.2233720368547758e18 ||
          d < -9.2233720368547758e18) {
        return false;
      }
      out = static_cast<int64_t>(d);
      return true;
    }
    if (j.is_string()) {
      const std::string& s = j.get_ref<const std::string&>();
      return !s.empty() && s.find_first_of(" \t\n") == std::string::npos &&
             absl::SimpleAtoi(s, &out);
    }
    return false;
  }

  const bool strict_;
  std::string path_;
};

json ScalarToJson(const Message& m, const FieldDescriptor* f, int index) {
  const Reflection* r = m.GetReflection();
  const bool rep = index >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      return rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f);
    case FieldDescriptor::CPPTYPE_BOOL:
      return rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f);
    case FieldDescriptor::CPPTYPE_INT32:
      return rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f);
    case FieldDescriptor::CPPTYPE_INT64:
      return rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f);
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return MessageToJson(rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f));
    default:
      // The decoder rejects every other type, so no message holds one.
      return nullptr;
  }
}

}  // namespace

json MessageToJson(const Message& message) {
  if (IsRawJson(message.GetDescriptor())) {
    // The decoder wrote the text; anything else set there stays a string.
    const std::string& text = message.GetReflection()->GetString(message, message.GetDescriptor()->field(0));
    json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
    return parsed.is_discarded() ? json(text) : parsed;
  }
  json out = json::object();
  const Reflection* r = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(message, &fields);
  for (const FieldDescriptor* f : fields) {
    json& value = out[f->json_name()];
    if (f->is_map()) {
      value = json::object();
      const FieldDescriptor* key_f = f->message_type()->map_key();
      const FieldDescriptor* value_f = f->message_type()->map_value();
      for (int i = 0; i < r->FieldSize(message, f); ++i) {
        const Message& entry = r->GetRepeatedMessage(message, f, i);
        value[entry.GetReflection()->GetString(entry, key_f)] = ScalarToJson(entry, value_f, -1);
      }
    } else if (f->is_repeated()) {
      value = json::array();
      for (int i = 0; i < r->FieldSize(message, f); ++i) value.push_back(ScalarToJson(message, f, i));
    } else {
      value = ScalarToJson(message, f, -1);
    }
  }
  return out;
}

absl::Status JsonToMessage(const json& j, google::protobuf::Message& message, bool reject_unknown_fields) {
  Decoder decoder(reject_unknown_fields);
  return decoder.Message(j, message);
}

}  // namespace schedkit::api::internal
