// storage.k8s.io/v1 VolumeAttachment: the kind's message (v1/volume_attachment.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_VOLUME_ATTACHMENT_H_
#define SCHEDKIT_API_V1_VOLUME_ATTACHMENT_H_

#include <string_view>

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/volume_attachment.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::VolumeAttachment> {
  static constexpr KindName kName = {.group = "storage.k8s.io", .version = "v1", .kind = "VolumeAttachment",
                                     .resource = "volumeattachments", .namespaced = false};
  // NodeVolumeLimits counts the attachments to one node.
  static constexpr std::string_view kByNode = "spec.nodeName";
  static constexpr IndexSpec<v1::VolumeAttachment> kIndexes[] = {
      {kByNode, [](const v1::VolumeAttachment& a) -> std::string_view { return a.spec().node_name(); }}};
  static absl::Status Validate(const v1::VolumeAttachment& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_VOLUME_ATTACHMENT_H_
