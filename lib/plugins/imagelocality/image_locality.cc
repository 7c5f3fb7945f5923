#include "plugins/imagelocality/image_locality.h"

#include <algorithm>

#include "absl/container/inlined_vector.h"
#include "plugins/internal/signers.h"
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

int64_t ImageLocalityPriority(int64_t sum_scores, int num_images) {
  const int64_t max_threshold = kMaxContainerThreshold * static_cast<int64_t>(num_images);
  if (sum_scores < kMinThreshold) {
    sum_scores = kMinThreshold;
  } else if (sum_scores > max_threshold) {
    sum_scores = max_threshold;
  }
  return framework::kMaxNodeScore * (sum_scores - kMinThreshold) / (max_threshold - kMinThreshold);
}

namespace {

// One of the pod's images that some node holds, with upstream's spread factor:
// the fraction of nodes holding it.
struct PresentImage {
  Symbol name;
  double spread;
};
using PresentImages = absl::InlinedVector<PresentImage, 4>;

// The pod's images held by at least one node, in the pod's order (init
// containers, containers, then image volumes, as upstream sums them). Images on no node add nothing to
// any node's score, so they are dropped before the per-node loop.
PresentImages PresentImagesOf(const framework::Snapshot& snapshot, const framework::PodInfo& pod) {
  PresentImages out;
  const int total_nodes = snapshot.NumNodes();
  if (total_nodes == 0) return out;
  for (Symbol image : pod.images()) {
    const int holders = snapshot.ImageNumNodes(image);
    if (holders == 0) continue;
    out.push_back({image, static_cast<double>(holders) / static_cast<double>(total_nodes)});
  }
  return out;
}

// The node's score: the pod's images already there, their sizes scaled by
// how widely each is spread.
int64_t ScoreOnNode(const PresentImages& images, int num_images, const framework::NodeInfo& node) {
  int64_t sum = 0;
  for (const PresentImage& image : images) {
    const framework::ImageOnNode* on_node = node.FindImage(image.name);
    if (on_node == nullptr) continue;
    // Upstream scales in float64 and truncates back to int64.
    sum += static_cast<int64_t>(static_cast<double>(on_node->size_bytes) * image.spread);
  }
  return ImageLocalityPriority(sum, num_images);
}

}  // namespace

framework::Status ImageLocality::Score(const framework::CycleState& /*state*/, const framework::PodInfo& pod,
                                       const framework::NodeInfo& node, int64_t& score) const {
  score = ScoreOnNode(PresentImagesOf(handle_.snapshot(), pod), pod.num_images(), node);
  return framework::Status();
}

framework::Status ImageLocality::ScoreNodes(const framework::CycleState& /*state*/, const framework::PodInfo& pod,
                                            std::span<const framework::NodeInfo* const> nodes,
                                            std::span<int64_t> scores) const {
  const PresentImages images = PresentImagesOf(handle_.snapshot(), pod);
  if (images.empty()) {
    // The common case of images no node holds yet: one score for every node.
    std::fill(scores.begin(), scores.end(), ImageLocalityPriority(0, pod.num_images()));
    return framework::Status();
  }
  for (size_t i = 0; i < nodes.size(); ++i) scores[i] = ScoreOnNode(images, pod.num_images(), *nodes[i]);
  return framework::Status();
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewImageLocality(const framework::PluginArgs& /*args*/,
                                                                    framework::Handle& handle) {
  return std::make_unique<ImageLocality>(handle);
}

framework::Status ImageLocality::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kImageNamesSigner, ImageNamesSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
