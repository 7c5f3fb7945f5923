#include "plugins/imagelocality/image_locality.h"

#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

constexpr int64_t kMiB = 1024 * 1024;
// Bounds of the summed image score: roughly the size range of compressed
// images in registries.
constexpr int64_t kMinThreshold = 23 * kMiB;
constexpr int64_t kMaxContainerThreshold = 1000 * kMiB;

}  // namespace

std::string_view ImageLocality::Name() const { return names::kImageLocality; }

int64_t ImageLocalityPriority(int64_t sum_scores, int num_containers) {
  const int64_t max_threshold = kMaxContainerThreshold * static_cast<int64_t>(num_containers);
  if (sum_scores < kMinThreshold) {
    sum_scores = kMinThreshold;
  } else if (sum_scores > max_threshold) {
    sum_scores = max_threshold;
  }
  return framework::kMaxNodeScore * (sum_scores - kMinThreshold) / (max_threshold - kMinThreshold);
}

namespace {

// The node's score: the pod's images already there, their sizes scaled by
// how widely each is spread.
int64_t ScoreOnNode(const framework::Snapshot& snapshot, const framework::PodInfo& pod,
                    const framework::NodeInfo& node) {
  const int total_nodes = snapshot.NumNodes();
  int64_t sum = 0;
  // Init containers first, then regular ones, as upstream sums them.
  for (Symbol image : pod.images()) {
    const framework::ImageOnNode* on_node = node.FindImage(image);
    if (on_node == nullptr || total_nodes == 0) continue;
    // Upstream scales the size by the fraction of nodes holding the image, in
    // float64, and truncates back to int64.
    const double spread =
        static_cast<double>(snapshot.ImageNumNodes(image)) / static_cast<double>(total_nodes);
    sum += static_cast<int64_t>(static_cast<double>(on_node->size_bytes) * spread);
  }
  return ImageLocalityPriority(sum, pod.num_containers());
}

}  // namespace

framework::Status ImageLocality::Score(const framework::CycleState& /*state*/, const framework::PodInfo& pod,
                                       const framework::NodeInfo& node, int64_t& score) const {
  score = ScoreOnNode(handle_.snapshot(), pod, node);
  return framework::Status();
}

framework::Status ImageLocality::ScoreNodes(const framework::CycleState& /*state*/, const framework::PodInfo& pod,
                                            std::span<const framework::NodeInfo* const> nodes,
                                            std::span<int64_t> scores) const {
  const framework::Snapshot& snapshot = handle_.snapshot();
  for (size_t i = 0; i < nodes.size(); ++i) scores[i] = ScoreOnNode(snapshot, pod, *nodes[i]);
  return framework::Status();
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewImageLocality(const framework::PluginArgs& /*args*/,
                                                                    framework::Handle& handle) {
  return std::make_unique<ImageLocality>(handle);
}

}  // namespace schedkit::plugins
