#include "schedkit/framework/declared_features.h"

#include <cstddef>

namespace schedkit::framework {
namespace {

constexpr DeclaredFeatureSet Bit(std::string_view name) {
  for (size_t i = 0; i < kDeclaredFeatures.size(); ++i) {
    if (kDeclaredFeatures[i] == name) return DeclaredFeatureSet{1} << i;
  }
  return 0;
}

constexpr DeclaredFeatureSet kRestartAll = Bit("RestartAllContainersOnContainerExits");
constexpr DeclaredFeatureSet kUserNamespacesHostNetwork = Bit("UserNamespacesHostNetworkSupport");
constexpr DeclaredFeatureSet kBindMountOptions = Bit("VolumeBindMountOptions");
static_assert(kRestartAll != 0 && kUserNamespacesHostNetwork != 0 && kBindMountOptions != 0);
static_assert(kDeclaredFeatures.size() <= 32);

bool RestartsAll(const google::protobuf::RepeatedPtrField<api::v1::Container>& containers) {
  for (const api::v1::Container& c : containers) {
    for (const api::v1::ContainerRestartRule& rule : c.restart_policy_rules()) {
      if (rule.action() == "RestartAllContainers") return true;
    }
  }
  return false;
}

bool HasBindMountOptions(const google::protobuf::RepeatedPtrField<api::v1::Container>& containers) {
  for (const api::v1::Container& c : containers) {
    for (const api::v1::VolumeMount& m : c.volume_mounts()) {
      if (!m.bind_mount_options().empty()) return true;
    }
  }
  return false;
}

}  // namespace

DeclaredFeatureSet MapDeclaredFeatures(const google::protobuf::RepeatedPtrField<std::string>& sorted_names) {
  DeclaredFeatureSet out = 0;
  int i = 0;
  size_t j = 0;
  while (i < sorted_names.size() && j < kDeclaredFeatures.size()) {
    const std::string_view name = sorted_names[i];
    if (name == kDeclaredFeatures[j]) {
      out |= DeclaredFeatureSet{1} << j;
      ++i;
      ++j;
    } else if (name < kDeclaredFeatures[j]) {
      ++i;  // unknown: skipped
    } else {
      ++j;
    }
  }
  return out;
}

DeclaredFeatureSet InferPodFeatures(const api::v1::PodSpec& spec) {
  DeclaredFeatureSet out = 0;
  if (RestartsAll(spec.containers()) || RestartsAll(spec.init_containers())) out |= kRestartAll;
  if (spec.host_network() && spec.has_host_users() && !spec.host_users()) out |= kUserNamespacesHostNetwork;
  if (HasBindMountOptions(spec.containers()) || HasBindMountOptions(spec.init_containers()) ||
      HasBindMountOptions(spec.ephemeral_containers())) {
    out |= kBindMountOptions;
  }
  return out;
}

}  // namespace schedkit::framework
