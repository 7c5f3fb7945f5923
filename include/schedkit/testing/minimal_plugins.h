// The two plugins every profile must have, doing the least, for tests and
// benchmarks of other plugins: a QueueSort that keeps arrival order and a
// Bind that accepts every binding without doing anything.
//
//   testing::AddMinimalPlugins(registry, profile);  // "Sort" and "Binder"
#ifndef SCHEDKIT_TESTING_MINIMAL_PLUGINS_H_
#define SCHEDKIT_TESTING_MINIMAL_PLUGINS_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/profile.h"
#include "schedkit/framework/registry.h"

namespace schedkit::testing {

// Queue order by arrival (QueuedPodInfo::sequence) alone.
class ArrivalOrderSort : public framework::QueueSortPlugin {
 public:
  explicit ArrivalOrderSort(std::string name = "Sort") : name_(std::move(name)) {}
  std::string_view Name() const override { return name_; }
  bool Less(const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) const override {
    return a.sequence < b.sequence;
  }

 private:
  std::string name_;
};

// Binds by doing nothing: the host's callback is not this plugin's business.
class AcceptingBinder : public framework::BindPlugin {
 public:
  explicit AcceptingBinder(std::string name = "Binder") : name_(std::move(name)) {}
  std::string_view Name() const override { return name_; }
  framework::Status Bind(framework::CycleState&, const framework::PodInfo&, Symbol) override {
    return framework::Status();
  }

 private:
  std::string name_;
};

// Registers both under these names and makes them the profile's QueueSort and Bind.
inline absl::Status AddMinimalPlugins(framework::Registry& registry, framework::Profile& profile,
                                      const std::string& sort = "Sort", const std::string& binder = "Binder") {
  if (absl::Status s = registry.Add(sort, [sort](const framework::PluginArgs&, framework::Handle&)
                                               -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
        return std::make_unique<ArrivalOrderSort>(sort);
      });
      !s.ok()) {
    return s;
  }
  if (absl::Status s = registry.Add(binder, [binder](const framework::PluginArgs&, framework::Handle&)
                                                 -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
        return std::make_unique<AcceptingBinder>(binder);
      });
      !s.ok()) {
    return s;
  }
  profile.plugins.queue_sort.enabled = {{sort}};
  profile.plugins.bind.enabled = {{binder}};
  return absl::OkStatus();
}

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_MINIMAL_PLUGINS_H_
