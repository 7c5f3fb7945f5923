// Decoding of Kubernetes objects from the JSON or YAML that kubectl prints.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(DecodedCluster c, LoadPaths({"cluster.yaml", "more/"}));
//   for (const v1::Node& n : c.objects.Of<v1::Node>()) ...
//
// Accepted input: one object, a `List`/`NodeList`/`PodList`/... with `items`,
// or multi-document YAML whose documents are any of these. The kinds of
// `kinds` are decoded (by default BuiltinKinds(); add a plugin's own with
// Registry::kinds()): an object's kind is found by its `kind` and, where two
// kinds share that name, the group of its `apiVersion`. Any other kind is
// counted in `skipped_kinds`, never dropped silently. Unknown fields are
// ignored, as protobuf's JSON mapping does with ignore_unknown_fields.
//
// Every object is validated as it is decoded (quantities parse, enumerations
// hold known values, names are present), so an error names the file, the
// document, the object and the field path, e.g.
//   cluster.yaml: document 3 (Pod default/web-1): spec.containers[0].resources
//   .requests.cpu: invalid quantity "1.5.5"
// Thread-safe: functions share no state.
#ifndef SCHEDKIT_API_DECODE_H_
#define SCHEDKIT_API_DECODE_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schedkit/api/builtin_kinds.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/object_set.h"

namespace schedkit::api {

struct DecodedCluster {
  ObjectSet objects;
  // Kind → number of objects of that kind that were read and not used.
  std::map<std::string, int> skipped_kinds;
  // "Kind namespace/name" (or "Kind name") → "file: document N[, items[i]]",
  // so that LoadPaths' whole-cluster errors name the file too.
  std::map<std::string, std::string> sources;
};

// Decodes `text` (JSON if it starts with '{' or '[', YAML otherwise) and
// appends its objects to `out`. `source` names the input in error messages.
// On error `out` may hold the objects decoded before the bad one.
absl::Status DecodeInto(std::string_view text, std::string_view source, DecodedCluster& out,
                        const KindSet& kinds = BuiltinKinds());

absl::StatusOr<DecodedCluster> Decode(std::string_view text, std::string_view source = "<input>",
                                      const KindSet& kinds = BuiltinKinds());

// Loads files and directories in the order given; a directory contributes
// every *.json, *.yaml and *.yml file below it (any case, as `kubectl apply
// -R` reads them), in walk order: names sorted, compared name by name. An
// object without `kind` in a folder named as a kind's resource or lower-case
// kind (must-gather's nodes/x.yaml, insights' config/pod/<ns>/x.json) is of
// that kind. Then checks the whole cluster with ValidateCluster.
absl::StatusOr<DecodedCluster> LoadPaths(const std::vector<std::string>& paths,
                                         const KindSet& kinds = BuiltinKinds());

// What the API server would refuse across objects: two objects of one kind
// with the same namespace and name. A pod bound to a node the cluster lacks,
// or a claim naming a missing StorageClass, is accepted as the API server
// accepts it (missing_objects.h says what is missing).
absl::Status ValidateCluster(const ObjectSet& objects);

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_DECODE_H_
