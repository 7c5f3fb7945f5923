// ClusterLister: how a host hands schedkit its cluster state. The scheduler
// (and Snapshot building) take their initial state from it; changes after
// that arrive as events. Implement it over your informers, database or files.
//
//   class MyLister : public schedkit::api::ClusterLister {
//     absl::StatusOr<AnyObjectList> List(const Kind& kind) const override { ... }
//   };
//   StaticClusterLister lister(decoded.objects);   // in-memory, for tests and tools
//   SCHEDKIT_ASSIGN_OR_RETURN(ObjectList<v1::Node> nodes, lister.List<v1::Node>());
//
// Every kind is listed the same way, built-in or an out-of-tree plugin's
// (kind.h): the scheduler asks for each kind it holds, nodes and pods too.
// Methods may be called from any thread, but never concurrently with each
// other by schedkit. Errors abort the operation that listed.
#ifndef SCHEDKIT_API_LISTER_H_
#define SCHEDKIT_API_LISTER_H_

#include <memory>
#include <utility>

#include "absl/status/statusor.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/object_set.h"

namespace schedkit::api {

class ClusterLister {
 public:
  virtual ~ClusterLister() = default;
  // Every object of `kind` the host holds, each of that kind (Kind::Holds);
  // for pods, bound (spec.nodeName set) and pending alike. A kind the host
  // does not have is an empty list: then, as upstream with empty listers, a
  // pod that needs such an object waits for it.
  virtual absl::StatusOr<AnyObjectList> List(const Kind& kind) const = 0;

  template <typename T>
  absl::StatusOr<ObjectList<T>> List() const {
    absl::StatusOr<AnyObjectList> listed = List(KindOf<T>());
    if (!listed.ok()) return listed.status();
    ObjectList<T> out;
    out.reserve(listed->size());
    for (AnyObject& o : *listed) out.push_back(std::static_pointer_cast<const T>(std::move(o)));
    return out;
  }
};

// A lister over a fixed set of objects (what Decode/LoadPaths return).
class StaticClusterLister : public ClusterLister {
 public:
  StaticClusterLister() = default;
  explicit StaticClusterLister(ObjectSet objects) : objects_(std::move(objects)) {}

  absl::StatusOr<AnyObjectList> List(const Kind& kind) const override { return objects_.List(kind); }
  using ClusterLister::List;

 private:
  ObjectSet objects_;
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_LISTER_H_
