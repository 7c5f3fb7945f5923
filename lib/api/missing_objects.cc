#include "schedkit/api/missing_objects.h"

#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/api/v1/stateful_set.h"
#include "schedkit/api/v1/storage_class.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::api {
namespace {

std::string Key(const v1::ObjectMeta& m) { return schedkit::StrCat(m.namespace_(), "/", m.name()); }

// Collects the references of one kind to names outside `present`, keeping
// the order in which they were first named.
class Missing {
 public:
  Missing(std::string kind, absl::flat_hash_set<std::string> present)
      : kind_(std::move(kind)), present_(std::move(present)) {}

  void Named(const std::string& name, std::string_view by) {
    if (name.empty() || present_.contains(name)) return;
    auto [it, fresh] = index_.try_emplace(name, found_.size());
    if (fresh) found_.push_back({kind_, name, std::string(by), 0});
    ++found_[it->second].references;
  }

  void AppendTo(std::vector<MissingObject>& out) {
    for (MissingObject& m : found_) out.push_back(std::move(m));
  }

 private:
  std::string kind_;
  absl::flat_hash_set<std::string> present_;
  absl::flat_hash_map<std::string, size_t> index_;
  std::vector<MissingObject> found_;
};

}  // namespace

std::vector<MissingObject> FindMissingObjects(const ObjectSet& objects) {
  absl::flat_hash_set<std::string> node_names;
  for (const v1::Node& n : objects.Of<v1::Node>()) node_names.insert(n.metadata().name());
  absl::flat_hash_set<std::string> class_names;
  for (const v1::StorageClass& sc : objects.Of<v1::StorageClass>()) class_names.insert(sc.metadata().name());
  Missing nodes("Node", std::move(node_names));
  Missing classes("StorageClass", std::move(class_names));

  for (const v1::Pod& pod : objects.Of<v1::Pod>()) {
    if (pod.spec().node_name().empty()) continue;
    nodes.Named(pod.spec().node_name(), schedkit::StrCat("Pod ", Key(pod.metadata()), ": spec.nodeName"));
  }
  for (const v1::PersistentVolumeClaim& pvc : objects.Of<v1::PersistentVolumeClaim>()) {
    classes.Named(pvc.spec().storage_class_name(),
                  schedkit::StrCat("PersistentVolumeClaim ", Key(pvc.metadata()), ": spec.storageClassName"));
  }
  for (const v1::StatefulSet& ss : objects.Of<v1::StatefulSet>()) {
    for (int i = 0; i < ss.spec().volume_claim_templates_size(); ++i) {
      classes.Named(ss.spec().volume_claim_templates(i).spec().storage_class_name(),
                    schedkit::StrCat("StatefulSet ", Key(ss.metadata()), ": spec.volumeClaimTemplates[", i,
                                     "].spec.storageClassName"));
    }
  }
  for (const v1::Pod& pod : objects.Of<v1::Pod>()) {
    for (int i = 0; i < pod.spec().volumes_size(); ++i) {
      const v1::Volume& v = pod.spec().volumes(i);
      if (!v.has_ephemeral()) continue;
      classes.Named(v.ephemeral().volume_claim_template().spec().storage_class_name(),
                    schedkit::StrCat("Pod ", Key(pod.metadata()), ": spec.volumes[", i,
                                     "].ephemeral.volumeClaimTemplate.spec.storageClassName"));
    }
  }
  std::vector<MissingObject> out;
  nodes.AppendTo(out);
  classes.AppendTo(out);
  return out;
}

std::string DescribeMissingObjects(const ObjectSet& objects) {
  const std::vector<MissingObject> missing = FindMissingObjects(objects);
  if (missing.empty()) return "";
  std::string line = schedkit::StrCat("the cluster lacks ", missing.size(),
                                      missing.size() == 1 ? " object" : " objects", " that others name: ");
  for (size_t i = 0; i < missing.size(); ++i) {
    const MissingObject& m = missing[i];
    schedkit::StrAppend(&line, i == 0 ? "" : ", ", m.kind, " \"", m.name, "\" (", m.first_reference);
    if (m.references > 1) schedkit::StrAppend(&line, ", and ", m.references - 1, " more");
    line += ")";
  }
  line += "; scheduling the rest as kube-scheduler would";
  return line;
}

}  // namespace schedkit::api
