// Test helper for hint tables ported from upstream, whose cases give an old
// and new object of either kind: the EventObjects such a case makes. An
// event carries objects of one kind, so where a case gives both kinds (the
// "wrong object" cases), the kind the hint does not expect (`expected`) wins.
#ifndef SCHEDKIT_TESTS_TESTING_NODE_OR_POD_EVENT_H_
#define SCHEDKIT_TESTS_TESTING_NODE_OR_POD_EVENT_H_

#include <optional>

#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/events.h"

namespace schedkit::testing {

inline framework::EventObjects NodeOrPodEvent(framework::EventResource expected,
                                              const std::optional<api::v1::Node>& old_node,
                                              const std::optional<api::v1::Node>& new_node,
                                              const std::optional<api::v1::Pod>& old_pod,
                                              const std::optional<api::v1::Pod>& new_pod) {
  framework::EventObjects e;
  auto set_nodes = [&] {
    if (old_node) e.SetOld(&*old_node);
    if (new_node) e.SetNew(&*new_node);
  };
  auto set_pods = [&] {
    if (old_pod) e.SetOld(&*old_pod);
    if (new_pod) e.SetNew(&*new_pod);
  };
  if (expected == framework::EventResource::Node()) {
    set_nodes();
    set_pods();
  } else {
    set_pods();
    set_nodes();
  }
  return e;
}

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTS_TESTING_NODE_OR_POD_EVENT_H_
