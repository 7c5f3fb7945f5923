#include "schedkit/framework/registry.h"

#include "schedkit/base/str_cat.h"

namespace schedkit::framework {

absl::Status Registry::Add(std::string name, PluginFactory factory) {
  if (factories_.contains(name)) {
    return absl::AlreadyExistsError(schedkit::StrCat("a plugin named \"", name, "\" already exists"));
  }
  factories_.emplace(std::move(name), std::move(factory));
  return absl::OkStatus();
}

absl::Status Registry::Merge(const Registry& other) {
  for (const auto& [name, factory] : other.factories_) {
    absl::Status s = Add(name, factory);
    if (!s.ok()) return s;
  }
  kinds_.Merge(other.kinds_);
  return absl::OkStatus();
}

const PluginFactory* Registry::Find(std::string_view name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::Names() const {
  std::vector<std::string> out;
  for (const auto& [name, unused] : factories_) out.push_back(name);
  return out;
}

}  // namespace schedkit::framework
