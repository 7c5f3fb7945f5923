// DefaultBinder: binds the pod to the chosen node through the host's
// ClusterClient, as upstream binds through the API server (upstream
// pkg/scheduler/framework/plugins/defaultbinder, v1.37).
//
//   auto plugin = NewDefaultBinder(framework::PluginArgs(), handle);
//   bind->Bind(state, pod, node);   // handle.client()->Bind(pod, node)
//
// A client error becomes an Error status with the client's message (as
// upstream's AsStatus(err)); a handle without a client (tests, tools) gives
// an Error saying so. Upstream's asynchronous API-dispatcher path has no
// counterpart here: the client decides how the call is made. Stateless.
#ifndef SCHEDKIT_LIB_PLUGINS_DEFAULTBINDER_DEFAULT_BINDER_H_
#define SCHEDKIT_LIB_PLUGINS_DEFAULTBINDER_DEFAULT_BINDER_H_

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class DefaultBinder final : public framework::BindPlugin {
 public:
  explicit DefaultBinder(framework::Handle& handle) : handle_(handle) {}

  std::string_view Name() const override;
  framework::Status Bind(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) override;

 private:
  framework::Handle& handle_;
};

// DefaultBinder has no args type upstream; pluginConfig args are ignored.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewDefaultBinder(const framework::PluginArgs& args,
                                                                    framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_DEFAULTBINDER_DEFAULT_BINDER_H_
