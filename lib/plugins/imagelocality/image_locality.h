// ImageLocality: a Score plugin that favours nodes which already hold the
// pod's container images, scaled down for images present on many nodes
// (upstream pkg/scheduler/framework/plugins/imagelocality, v1.37: image
// volumes count as images too).
//
//   auto plugin = NewImageLocality(framework::PluginArgs(), handle);
//   score_plugin->Score(state, pod, node, score);   // raw score, already in [0, 100]
//
// Score only: no PreScore and no NormalizeScore, as upstream. Per node it
// walks the pod's normalized image names (PodInfo::images(), interned once
// when the pod is parsed) and looks each up on the node and in the snapshot's
// image counts; integer lookups only, nothing is allocated.
//
// Upstream's SignPod (opportunistic batching signatures) has no counterpart
// in schedkit's plugin interfaces and is not ported.
//
// Stateless; Score may run concurrently.
#ifndef SCHEDKIT_LIB_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_
#define SCHEDKIT_LIB_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class ImageLocality final : public framework::ScorePlugin,
                            public framework::SignPlugin {
 public:
  explicit ImageLocality(framework::Handle& handle) : handle_(handle) {}

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  // Per node: besides the node's images, a score reads how many nodes hold
  // each image, which only a change of node objects can move.
  bool OutcomesArePerNode() const override { return true; }
  framework::Status Score(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo& node, int64_t& score) const override;
  framework::Status ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                               std::span<const framework::NodeInfo* const> nodes,
                               std::span<int64_t> scores) const override;

 private:
  framework::Handle& handle_;
};

// Upstream's calculatePriority: `sum_scores` (bytes, already scaled by
// spread) clamped to [23 MiB, 1000 MiB × images] and mapped linearly onto
// [0, 100] with int64 arithmetic.
int64_t ImageLocalityPriority(int64_t sum_scores, int num_images);

// ImageLocality has no args type upstream, so pluginConfig args are ignored
// (upstream leaves them undecoded and the plugin never reads them).
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewImageLocality(const framework::PluginArgs& args,
                                                                    framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_
