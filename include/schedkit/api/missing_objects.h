// What a cluster's objects name that the cluster lacks.
//
// A real dump is a state, not a proof: the API server accepts a pod bound
// to a node that is gone (or was left out of the dump) and a claim naming a
// StorageClass that does not exist yet, and kube-scheduler's caches hold
// them as they are. The pod then counts on no node, and the claim is bound
// immediately or never (its pods stay pending: "pod has unbound immediate
// PersistentVolumeClaims"). A reader of dumps says what is missing, once,
// and goes on; only what the API server itself refuses is an error
// (decode.h: ValidateCluster).
//
//   if (std::string line = api::DescribeMissingObjects(c.objects); !line.empty())
//     std::fprintf(stderr, "warning: %s\n", line.c_str());
//
// Thread-safe: the functions share no state.
#ifndef SCHEDKIT_API_MISSING_OBJECTS_H_
#define SCHEDKIT_API_MISSING_OBJECTS_H_

#include <string>
#include <vector>

#include "schedkit/api/object_set.h"

namespace schedkit::api {

// One object that others name and the cluster lacks.
struct MissingObject {
  std::string kind;  // "Node" or "StorageClass"
  std::string name;
  // The first object naming it and where: "Pod default/web-1: spec.nodeName".
  std::string first_reference;
  // How many objects name it (a StatefulSet counts once, whatever its
  // replicas).
  int references = 0;
};

// The nodes that pods' spec.nodeName name, then the storage classes that
// claims, StatefulSets' claim templates and pods' ephemeral volumes name,
// each in the order first named; empty when nothing is missing.
std::vector<MissingObject> FindMissingObjects(const ObjectSet& objects);

// The same in one line, "" when nothing is missing:
//   the cluster lacks 2 objects that others name: Node "n9" (Pod default/a:
//   spec.nodeName, and 3 more), StorageClass "gold" (PersistentVolumeClaim
//   shop/c: spec.storageClassName); scheduling the rest as kube-scheduler
//   would
std::string DescribeMissingObjects(const ObjectSet& objects);

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_MISSING_OBJECTS_H_
