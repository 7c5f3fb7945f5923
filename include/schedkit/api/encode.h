// Encoding of API objects back to the JSON kubectl reads: the inverse of
// decode.h, for hosts and tools that hand a cluster to another program
// (schedkit-perf --vs-upstream writes the cluster the upstream oracle reads).
//
//   std::string text = EncodeClusterJson(objects);   // {"kind": "List", ...}
//   Decode(text)->objects   // equals `objects`, object for object
//
// Thread-safe: functions share no state.
#ifndef SCHEDKIT_API_ENCODE_H_
#define SCHEDKIT_API_ENCODE_H_

#include <string>

#include "schedkit/api/object_set.h"

namespace schedkit::api {

// One `v1 List` of every object, built-in kinds in BuiltinKinds()' order
// (so a reader meets what a pod refers to first), then other kinds, each
// object with its apiVersion and kind filled in when unset. Only the fields
// schedkit models are written.
std::string EncodeClusterJson(const ObjectSet& objects);

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_ENCODE_H_
