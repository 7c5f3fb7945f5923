// Encoding of API objects back to the JSON kubectl reads: the inverse of
// decode.h, for hosts and tools that hand a cluster to another program
// (schedkit-perf --vs-upstream writes the cluster the upstream oracle reads).
//
//   std::string text = EncodeClusterJson(cluster);   // {"kind": "List", ...}
//   Decode(text)->objects   // equals `cluster`, object for object
//
// Thread-safe: functions share no state.
#ifndef SCHEDKIT_API_ENCODE_H_
#define SCHEDKIT_API_ENCODE_H_

#include <string>

#include "schedkit/api/v1/cluster.pb.h"

namespace schedkit::api {

// One `v1 List` of every object, in the order namespaces, priority classes,
// nodes, pods, PodDisruptionBudgets (so a reader meets what a pod refers to
// first), each with its apiVersion and kind filled in when unset. Only the
// fields schedkit models are written.
std::string EncodeClusterJson(const v1::Cluster& cluster);

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_ENCODE_H_
