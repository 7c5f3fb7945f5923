// Claim constraints across the devices of a claim (upstream's
// matchAttributeConstraint and distinctAttributeConstraint).
#include <string_view>

#include "dra/allocator_internal.h"

namespace schedkit::dra::internal {
namespace {

// Which of the single-value fields holds the value; 0 for none we know
// (list-type attributes belong to a feature this variant lacks).
enum ValueKind { kNone, kString, kInt, kBool, kVersion };

ValueKind KindOf(const api::v1::DeviceAttribute& a) {
  if (a.has_string_value()) return kString;
  if (a.has_int_value()) return kInt;
  if (a.has_bool_value()) return kBool;
  if (a.has_version_value()) return kVersion;
  return kNone;
}

// Whether two attributes hold the same value of the same kind. Versions are
// compared as text: semver 2.0.0 values are in minimal form.
bool SameValue(const api::v1::DeviceAttribute& a, const api::v1::DeviceAttribute& b) {
  switch (KindOf(a)) {
    case kString: return b.has_string_value() && a.string_value() == b.string_value();
    case kInt: return b.has_int_value() && a.int_value() == b.int_value();
    case kBool: return b.has_bool_value() && a.bool_value() == b.bool_value();
    case kVersion: return b.has_version_value() && a.version_value() == b.version_value();
    case kNone: return false;
  }
  return false;
}

}  // namespace

const api::v1::DeviceAttribute* LookupAttribute(const api::v1::Device& device, const DeviceId& id,
                                                std::string_view qualified_name) {
  const auto& attributes = device.attributes();
  if (auto it = attributes.find(std::string(qualified_name)); it != attributes.end()) return &it->second;
  const size_t slash = qualified_name.find('/');
  if (slash == std::string_view::npos) return nullptr;
  // Attributes in the driver's own domain may be stored by id alone.
  if (qualified_name.substr(0, slash) != id.driver.str()) return nullptr;
  if (auto it = attributes.find(std::string(qualified_name.substr(slash + 1))); it != attributes.end()) {
    return &it->second;
  }
  return nullptr;
}

bool Constraint::Add(const api::v1::Device& device, const DeviceId& id) {
  const api::v1::DeviceAttribute* attribute = LookupAttribute(device, id, attribute_);
  if (attribute == nullptr) return false;
  if (kind_ == Kind::kMatch) {
    // Constraints are monotonic: the first device fixes the value, the
    // others must equal it. Only the count matters for removal.
    if (!values_.empty()) {
      if (KindOf(*attribute) == kNone || !SameValue(*attribute, *values_.front())) return false;
    }
    values_.push_back(attribute);
    return true;
  }
  if (KindOf(*attribute) == kNone && !values_.empty()) return false;
  for (const api::v1::DeviceAttribute* other : values_) {
    if (SameValue(*attribute, *other)) return false;
  }
  values_.push_back(attribute);
  return true;
}

void Constraint::Remove() { values_.pop_back(); }

}  // namespace schedkit::dra::internal
