#include "schedkit/api/kind.h"

#include <algorithm>

#include "schedkit/base/str_cat.h"

namespace schedkit::api {

void Kind::Finish() {
  api_version_ = name_.group.empty() ? std::string(name_.version) : schedkit::StrCat(name_.group, "/", name_.version);
  collection_path_ = name_.group.empty() ? schedkit::StrCat("/api/", name_.version, "/", name_.resource)
                                         : schedkit::StrCat("/apis/", api_version_, "/", name_.resource);
  if (event_resource_.empty()) {
    event_resource_ = name_.group.empty() ? std::string(name_.kind) : schedkit::StrCat(name_.group, "/", name_.kind);
  }
}

std::string Kind::ObjectPath(std::string_view namespace_name, std::string_view name) const {
  const std::string_view root = name_.group.empty() ? "/api/" : "/apis/";
  if (!name_.namespaced) return schedkit::StrCat(collection_path_, "/", name);
  return schedkit::StrCat(root, api_version_, "/namespaces/", namespace_name, "/", name_.resource, "/", name);
}

void Kind::ApplyDefaults(google::protobuf::Message& object) const {
  if (name_.namespaced) {
    v1::ObjectMeta* meta = mutable_meta_(object);
    if (meta->namespace_().empty()) meta->set_namespace_("default");
  }
  if (apply_defaults_ != nullptr) apply_defaults_(object);
}

KindSet::KindSet(std::initializer_list<const Kind*> kinds) {
  for (const Kind* k : kinds) Add(*k);
}

void KindSet::Add(const Kind& kind) {
  if (!Contains(kind)) kinds_.push_back(&kind);
}

void KindSet::Merge(const KindSet& other) {
  for (const Kind* k : other.kinds_) Add(*k);
}

bool KindSet::Contains(const Kind& kind) const {
  return std::find(kinds_.begin(), kinds_.end(), &kind) != kinds_.end();
}

const Kind* KindSet::Find(std::string_view kind, std::string_view api_version) const {
  // "storage.k8s.io/v1" names the group "storage.k8s.io"; "v1" the core group.
  const size_t slash = api_version.find('/');
  const std::string_view group = slash == std::string_view::npos ? "" : api_version.substr(0, slash);
  const Kind* only = nullptr;
  int named = 0;
  for (const Kind* k : kinds_) {
    if (k->kind() != kind) continue;
    if (!api_version.empty() && k->group() == group) return k;
    only = k;
    ++named;
  }
  return named == 1 ? only : nullptr;
}

}  // namespace schedkit::api
