// Test helpers that unwrap what a test's set-up needs to succeed: a plugin
// from its factory, a PodInfo from a pod. A failure stops the test case
// (REQUIRE) with the status's message.
//
//   auto plugin = testing::MustNew(&NewNodeName, handle);
//   framework::PodInfoPtr pod = testing::Info(MakePod().Name("p").Obj());
#ifndef SCHEDKIT_TESTS_TESTING_MUST_H_
#define SCHEDKIT_TESTS_TESTING_MUST_H_

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/registry.h"

namespace schedkit::testing {

// The value of `v`, which must be OK.
template <typename T>
T Must(absl::StatusOr<T> v) {
  INFO(v.status().ToString());
  REQUIRE(v.ok());
  return *std::move(v);
}

// An in-tree plugin from its factory (NewNodeName, ...), with `args` as the
// plugin's pluginConfig args (JSON).
inline std::unique_ptr<framework::Plugin> MustNew(
    absl::StatusOr<std::unique_ptr<framework::Plugin>> (*factory)(const framework::PluginArgs&, framework::Handle&),
    framework::Handle& handle, const std::string& args = "") {
  return Must(factory(framework::PluginArgs(args), handle));
}

inline framework::PodInfoPtr Info(const api::v1::Pod& pod) { return Must(framework::PodInfo::Create(pod)); }

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTS_TESTING_MUST_H_
