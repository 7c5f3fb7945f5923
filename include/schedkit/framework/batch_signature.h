// Opportunistic batching (upstream's OpportunisticBatching, beta and on by
// default in v1.37): when consecutive pods of a profile are alike for every
// plugin that filters or scores them, the ranking the first one's cycle
// computed is reused for the next ones instead of filtering and scoring every
// node again. "Alike" is decided by the pods' signatures: each such plugin
// contributes the fields of the pod it reads, as keyed fragments, or declines
// to sign, which keeps the pod out of batching.
//
//   class GpuFit : public FilterPlugin, public ScorePlugin, public SignPlugin {
//     Status SignPod(const PodInfo& pod, BatchSignatureBuilder& signature) const override {
//       signature.Add("example.com/GpuFit.model", ModelOf(pod));
//       return Status();
//     }
//   };
//
// A profile batches only when every PreFilter, Filter, PreScore and Score
// plugin implements SignPlugin (read once): one that does not turns batching
// off for the profile, as upstream's computeBatchablePlugins.
#ifndef SCHEDKIT_FRAMEWORK_BATCH_SIGNATURE_H_
#define SCHEDKIT_FRAMEWORK_BATCH_SIGNATURE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schedkit/framework/plugin.h"

namespace schedkit::framework {

// Upstream's signer names (k8s.io/kube-scheduler/framework/signers.go). A
// fragment's key names the pod fields its value is made of; plugins that read
// the same fields add the same key with the same value, and the signature
// keeps one of them.
inline constexpr std::string_view kSchedulerNameSigner = "v1.Pod.Spec.SchedulerName";
inline constexpr std::string_view kResourcesSigner = "v1.Pod.Spec.ContainerRequestsAndOverheads()";
inline constexpr std::string_view kVolumesSigner = "v1.Pod.Spec.Volumes.NonSyntheticSources()";
inline constexpr std::string_view kTolerationsSigner = "v1.Pod.Spec.Tolerations";
inline constexpr std::string_view kHostPortsSigner = "v1.Pod.Spec.HostPorts()";
inline constexpr std::string_view kNodeNameSigner = "v1.Pod.Spec.NodeName";
inline constexpr std::string_view kNodeAffinitySigner = "v1.Pod.Spec.Affinity.NodeAffinity";
inline constexpr std::string_view kNodeSelectorSigner = "v1.Pod.Spec.Affinity.NodeSelector";
inline constexpr std::string_view kLabelsSigner = "v1.Pod.Labels";
inline constexpr std::string_view kImageNamesSigner = "v1.Pod.Spec.CanonicalImageNames()";
inline constexpr std::string_view kFeaturesSigner = "v1.Pod.Spec.RequiredFeatures()";

// Collects one pod's fragments. Two pods are batched together only when
// their builders end with the same keys and, per key, the same bytes: a
// value must therefore be canonical (sorted where order does not matter to
// the plugin, every field the plugin reads included).
class BatchSignatureBuilder {
 public:
  // Adds a fragment, copying both views; a key added again keeps its last
  // value (plugins sharing a key add the same value).
  void Add(std::string_view key, std::string_view value);

  // The signature: the fragments in key order, each key and value
  // length-prefixed, so that distinct fragment sets never give equal bytes.
  std::string Finish() const;

  // Forgets the fragments, keeping the memory for the next pod.
  void Clear() {
    bytes_.clear();
    fragments_.clear();
  }

 private:
  // Offsets into bytes_, which holds every key and value added.
  struct Fragment {
    size_t key_at, key_size, value_at, value_size;
  };
  std::string_view View(size_t at, size_t size) const { return std::string_view(bytes_).substr(at, size); }

  std::string bytes_;
  std::vector<Fragment> fragments_;
};

// A plugin that can say which of a pod's fields its filtering and scoring
// depend on.
class SignPlugin : public virtual Plugin {
 public:
  // Called: once per scheduling cycle of a pod, after PreFilter succeeded and
  // before the filter pass, when the OpportunisticBatching gate is on and the
  // profile batches; plugins are asked in profile order until one declines.
  // Not called when the pod's namespace, labels and spec equal those of the
  // pod the profile signed last: that pod's answer is reused, so the answer
  // must depend on nothing else of the pod, nor on the cluster.
  // Thread: the scheduling thread.
  // Returns:
  //   Success: the fragments added to `signature` describe everything of the
  //     pod this plugin's PreFilter, Filter, PreScore and Score read; two
  //     pods with equal signatures must get equal outcomes from it on every
  //     node in every cluster state.
  //   Unschedulable: declines; the pod is scheduled without batching (what
  //     the plugin reads cannot be captured, e.g. inter-pod affinity).
  //   Anything else: as Unschedulable, and logged as an error.
  virtual Status SignPod(const PodInfo& pod, BatchSignatureBuilder& signature) const = 0;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_BATCH_SIGNATURE_H_
