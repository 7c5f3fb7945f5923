#include "cel/function_registry.h"

namespace schedkit::cel {

const Overload* Function::Resolve(std::span<const Value> args) const {
  for (const Overload& o : overloads) {
    if (o.arg_kinds.size() != args.size()) continue;
    bool ok = true;
    for (size_t i = 0; i < args.size() && ok; ++i) {
      ok = ArgKindMatches(o.arg_kinds[i], args[i]);
      if (ok && i < o.object_types.size() && !o.object_types[i].empty() && args[i].kind() == ValueKind::kObject) {
        ok = args[i].object().TypeName() == o.object_types[i];
      }
    }
    if (ok) return &o;
  }
  return nullptr;
}

absl::Status FunctionRegistry::Add(std::string_view name, Overload overload) {
  auto& fn = functions_[std::string(name)];
  if (fn == nullptr) {
    fn = std::make_unique<Function>();
    fn->name = std::string(name);
  }
  for (const Overload& o : fn->overloads) {
    if (o.id == overload.id) {
      return absl::AlreadyExistsError("overload already exists: " + overload.id);
    }
  }
  fn->overloads.push_back(std::move(overload));
  return absl::OkStatus();
}

void FunctionRegistry::SetFallback(std::string_view name, FunctionImpl fallback) {
  auto& fn = functions_[std::string(name)];
  if (fn == nullptr) {
    fn = std::make_unique<Function>();
    fn->name = std::string(name);
  }
  fn->fallback = fallback;
}

const Function* FunctionRegistry::Find(std::string_view name) const {
  auto it = functions_.find(std::string(name));
  return it == functions_.end() ? nullptr : it->second.get();
}

}  // namespace schedkit::cel
