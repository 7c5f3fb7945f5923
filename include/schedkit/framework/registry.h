// Registry: plugin name → factory, and the kinds of objects the plugins read
// beyond schedkit's own. The in-tree registry lists every built-in; a host
// adds out-of-tree plugins with one Add call before building the scheduler
// (no static self-registration), and their kinds with AddKind.
//
//   Registry registry = plugins::NewInTreeRegistry();
//   SCHEDKIT_RETURN_IF_ERROR(registry.Add("Coscheduling", &Coscheduling::New));
//   registry.AddKind<PodGroup>();   // a CRD: decoded from files, held, watched
//
// A factory receives the plugin's args from the profile's pluginConfig
// (plugin_args.h: decode them with DecodeArgs) and the Handle; it runs when a
// profile is built, before the scheduler's first cycle. Not thread-safe;
// build it before use, then share it read-only.
#ifndef SCHEDKIT_FRAMEWORK_REGISTRY_H_
#define SCHEDKIT_FRAMEWORK_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schedkit/api/builtin_kinds.h"
#include "schedkit/api/decode.h"
#include "schedkit/api/kind.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/plugin_args.h"

namespace schedkit::framework {

using PluginFactory = std::function<absl::StatusOr<std::unique_ptr<Plugin>>(const PluginArgs& args, Handle& handle)>;

class Registry {
 public:
  // AlreadyExists if `name` is registered. `args`, for a plugin whose args
  // are a kind of their own (upstream: "<name>Args" in the scheduler's
  // scheme; framework::DefaultsBy(spec)): the effective configuration
  // (config::EffectiveConfiguration) lists them, defaulted, for every
  // profile that runs the plugin, given or not. Without it, only args a
  // profile gives are listed, as given.
  absl::Status Add(std::string name, PluginFactory factory, ArgsDefaulter args = nullptr);
  // Adds every entry and kind of `other`; AlreadyExists on the first
  // duplicate entry.
  absl::Status Merge(const Registry& other);
  const PluginFactory* Find(std::string_view name) const;
  // The ArgsDefaulter given to Add; null when none was.
  const ArgsDefaulter* FindArgs(std::string_view name) const;
  std::vector<std::string> Names() const;

  // A kind the plugins read that schedkit does not model (api/kind.h): the
  // scheduler holds its objects (Scheduler::Upsert), raises its events,
  // lists it from the ClusterLister and, under schedkit::kube, watches it;
  // decoders given kinds() read it from files. Adding a kind twice, or a
  // built-in one, changes nothing.
  void AddKind(const api::Kind& kind) { kinds_.Add(kind); }
  template <typename T>
  void AddKind() {
    AddKind(api::KindOf<T>());
  }
  // BuiltinKinds() and the kinds added, in that order.
  const api::KindSet& kinds() const { return kinds_; }

  // A check of decoded objects beyond each kind's own validation, for what
  // the API server refuses and only a plugin can tell (DynamicResources
  // compiles device selectors): a host that reads objects from files runs
  // the checks after decoding (schedkit-sim exits 2 with the first error).
  // A check returns one line naming the file, the object and the field
  // (DecodedCluster::sources gives the file), or OK.
  using ObjectsCheck = std::function<absl::Status(const api::DecodedCluster& cluster)>;
  void AddObjectsCheck(ObjectsCheck check) { checks_.push_back(std::move(check)); }
  // The checks in the order added; the first error.
  absl::Status CheckObjects(const api::DecodedCluster& cluster) const {
    for (const ObjectsCheck& check : checks_) {
      if (absl::Status s = check(cluster); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

 private:
  std::map<std::string, PluginFactory, std::less<>> factories_;
  std::map<std::string, ArgsDefaulter, std::less<>> args_;
  api::KindSet kinds_ = api::BuiltinKinds();
  std::vector<ObjectsCheck> checks_;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_REGISTRY_H_
