#include "schedkit/api/encode.h"

#include "api/object_json.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/builtin_kinds.h"

namespace schedkit::api {

std::string EncodeClusterJson(const ObjectSet& objects) {
  // Built-in kinds in their order, then any other kind in the set's.
  KindSet order = BuiltinKinds();
  for (const Kind* kind : objects.kinds()) order.Add(*kind);
  nlohmann::json items = nlohmann::json::array();
  for (const Kind* kind : order) {
    for (const AnyObject& object : objects.List(*kind)) items.push_back(internal::EncodeObjectJson(*kind, *object));
  }
  nlohmann::json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", std::move(items)}};
  return list.dump();
}

}  // namespace schedkit::api
