#include "kube/api_host.h"

#include "nlohmann/json.hpp"
#include "schedkit/api/str_cat.h"

namespace schedkit::kube::internal {

absl::Status ApiHost::Bind(const api::v1::Pod& pod, std::string_view node) {
  const api::v1::ObjectMeta& meta = pod.metadata();
  const nlohmann::json binding = {
      {"apiVersion", "v1"},
      {"kind", "Binding"},
      {"metadata", {{"namespace", meta.namespace_()}, {"name", meta.name()}, {"uid", meta.uid()}}},
      {"target", {{"kind", "Node"}, {"name", node}}},
  };
  const std::string path =
      schedkit::StrCat("/api/v1/namespaces/", meta.namespace_(), "/pods/", meta.name(), "/binding");
  auto reply = client_.Do("POST", path, binding.dump());
  return reply.ok() ? absl::OkStatus() : reply.status();
}

}  // namespace schedkit::kube::internal
