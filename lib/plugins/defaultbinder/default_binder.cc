#include "plugins/defaultbinder/default_binder.h"

#include <string>

#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {

std::string_view DefaultBinder::Name() const { return names::kDefaultBinder; }

framework::Status DefaultBinder::Bind(framework::CycleState& /*state*/, const framework::PodInfo& pod,
                                      Symbol node) {
  framework::ClusterClient* client = handle_.client();
  if (client == nullptr) {
    return framework::Status::Error(
        schedkit::StrCat("no cluster client to bind pod ", pod.key(), " to node ", node.str()));
  }
  if (absl::Status s = client->Bind(pod, node); !s.ok()) {
    return framework::Status::Error(std::string(s.message()));
  }
  return framework::Status();
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewDefaultBinder(const framework::PluginArgs& /*args*/,
                                                                    framework::Handle& handle) {
  return std::make_unique<DefaultBinder>(handle);
}

}  // namespace schedkit::plugins
