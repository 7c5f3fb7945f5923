#include "cel/function_registry.h"

namespace schedkit::cel {

bool ArgKindMatches(ArgKind k, const Value& v) {
  switch (k) {
    case ArgKind::kAny: return true;
    case ArgKind::kNull: return v.kind() == ValueKind::kNull;
    case ArgKind::kBool: return v.kind() == ValueKind::kBool;
    case ArgKind::kInt: return v.kind() == ValueKind::kInt;
    case ArgKind::kUint: return v.kind() == ValueKind::kUint;
    case ArgKind::kDouble: return v.kind() == ValueKind::kDouble;
    case ArgKind::kString: return v.kind() == ValueKind::kString;
    case ArgKind::kBytes: return v.kind() == ValueKind::kBytes;
    case ArgKind::kList: return v.kind() == ValueKind::kList;
    case ArgKind::kMap: return v.kind() == ValueKind::kMap;
    case ArgKind::kType: return v.kind() == ValueKind::kType;
    case ArgKind::kDuration: return v.kind() == ValueKind::kDuration;
    case ArgKind::kTimestamp: return v.kind() == ValueKind::kTimestamp;
    case ArgKind::kOptional: return v.kind() == ValueKind::kOptional;
    case ArgKind::kObject: return v.kind() == ValueKind::kObject;
  }
  return false;
}

const Overload* Function::Resolve(std::span<const Value> args) const {
  for (const Overload& o : overloads) {
    if (o.arg_kinds.size() != args.size()) continue;
    bool ok = true;
    for (size_t i = 0; i < args.size() && ok; ++i) {
      ok = ArgKindMatches(o.arg_kinds[i], args[i]);
      if (ok && !o.object_type.empty() && args[i].kind() == ValueKind::kObject) {
        ok = args[i].object().TypeName() == o.object_type;
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
