#include "schedkit/framework/registry.h"

#include "schedkit/base/str_cat.h"

namespace schedkit::framework {

absl::Status Registry::Add(std::string name, PluginFactory factory, ArgsDefaulter args) {
  if (factories_.contains(name)) {
    return absl::AlreadyExistsError(schedkit::StrCat("a plugin named \"", name, "\" already exists"));
  }
  if (args) args_.emplace(name, std::move(args));
  factories_.emplace(std::move(name), std::move(factory));
  return absl::OkStatus();
}

absl::Status Registry::Merge(const Registry& other) {
  for (const auto& [name, factory] : other.factories_) {
    const ArgsDefaulter* args = other.FindArgs(name);
    absl::Status s = Add(name, factory, args != nullptr ? *args : nullptr);
    if (!s.ok()) return s;
  }
  kinds_.Merge(other.kinds_);
  return absl::OkStatus();
}

const PluginFactory* Registry::Find(std::string_view name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

const ArgsDefaulter* Registry::FindArgs(std::string_view name) const {
  auto it = args_.find(name);
  return it == args_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::Names() const {
  std::vector<std::string> out;
  for (const auto& [name, unused] : factories_) out.push_back(name);
  return out;
}

}  // namespace schedkit::framework
