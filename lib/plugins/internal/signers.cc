#include "plugins/internal/signers.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/message_lite.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins {
namespace {

// Each part length-prefixed: a list of parts never reads as another list.
void AppendPart(std::string& out, std::string_view part) {
  schedkit::StrAppend(&out, part.size(), ":", part);
}

std::string JoinParts(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) AppendPart(out, p);
  return out;
}

// Protobuf bytes with map entries in key order, so equal messages give equal bytes.
std::string DeterministicBytes(const google::protobuf::MessageLite& message) {
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  message.SerializeToCodedStream(&coded);
  coded.Trim();
  return out;
}

template <typename Map>
std::string SortedMapSignature(const Map& map) {
  std::map<std::string_view, std::string_view> sorted;
  for (const auto& [k, v] : map) sorted.emplace(k, v);
  std::string out;
  for (const auto& [k, v] : sorted) {
    AppendPart(out, k);
    AppendPart(out, v);
  }
  return out;
}

std::string RequirementsSignature(
    const google::protobuf::RepeatedPtrField<api::v1::NodeSelectorRequirement>& requirements) {
  std::vector<std::string> parts;
  parts.reserve(requirements.size());
  for (const api::v1::NodeSelectorRequirement& r : requirements) {
    api::v1::NodeSelectorRequirement copy = r;
    std::sort(copy.mutable_values()->begin(), copy.mutable_values()->end());
    parts.push_back(DeterministicBytes(copy));
  }
  std::sort(parts.begin(), parts.end());
  return JoinParts(parts);
}

std::string TermSignature(const api::v1::NodeSelectorTerm& term) {
  std::string out;
  AppendPart(out, RequirementsSignature(term.match_expressions()));
  AppendPart(out, RequirementsSignature(term.match_fields()));
  return out;
}

}  // namespace

std::string TolerationsSignature(const framework::PodInfo& pod) {
  std::vector<const api::v1::Toleration*> sorted;
  for (const api::v1::Toleration& t : pod.pod().spec().tolerations()) sorted.push_back(&t);
  std::stable_sort(sorted.begin(), sorted.end(), [](const api::v1::Toleration* a, const api::v1::Toleration* b) {
    return a->key() != b->key() ? a->key() < b->key() : a->value() < b->value();
  });
  std::string out;
  for (const api::v1::Toleration* t : sorted) AppendPart(out, DeterministicBytes(*t));
  return out;
}

std::string VolumesSignature(const framework::PodInfo& pod) {
  // ConfigMap and Secret volumes never reach the world model, so every
  // volume it holds counts; the name is not part of the source.
  std::vector<std::string> parts;
  for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
    api::v1::Volume source = v;
    source.clear_name();
    parts.push_back(DeterministicBytes(source));
  }
  std::sort(parts.begin(), parts.end());
  return JoinParts(parts);
}

std::string HostPortsSignature(const framework::PodInfo& pod) {
  std::vector<int32_t> ports;
  const auto collect = [&](const auto& containers) {
    for (const api::v1::Container& c : containers) {
      for (const api::v1::ContainerPort& p : c.ports()) {
        if (p.host_port() != 0) ports.push_back(p.host_port());
      }
    }
  };
  collect(pod.pod().spec().containers());
  collect(pod.pod().spec().init_containers());
  std::sort(ports.begin(), ports.end());
  ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
  std::string out;
  for (int32_t p : ports) schedkit::StrAppend(&out, p, ",");
  return out;
}

std::string NodeAffinitySignature(const framework::PodInfo& pod) {
  const api::v1::PodSpec& spec = pod.pod().spec();
  if (!spec.has_affinity() || !spec.affinity().has_node_affinity()) return "";
  const api::v1::NodeAffinity& na = spec.affinity().node_affinity();
  std::vector<std::string> required;
  for (const api::v1::NodeSelectorTerm& t :
       na.required_during_scheduling_ignored_during_execution().node_selector_terms()) {
    required.push_back(TermSignature(t));
  }
  std::sort(required.begin(), required.end());
  std::vector<std::string> preferred;
  for (const api::v1::PreferredSchedulingTerm& t : na.preferred_during_scheduling_ignored_during_execution()) {
    std::string part = schedkit::StrCat(t.weight(), ";");
    AppendPart(part, TermSignature(t.preference()));
    preferred.push_back(std::move(part));
  }
  std::sort(preferred.begin(), preferred.end());
  std::string out = "set;";
  AppendPart(out, JoinParts(required));
  AppendPart(out, JoinParts(preferred));
  return out;
}

std::string NodeSelectorSignature(const framework::PodInfo& pod) {
  return SortedMapSignature(pod.pod().spec().node_selector());
}

std::string LabelsSignature(const framework::PodInfo& pod) {
  return SortedMapSignature(pod.pod().metadata().labels());
}

std::string ImageNamesSignature(const framework::PodInfo& pod) {
  std::vector<std::string> names;
  for (const api::v1::Container& c : pod.pod().spec().containers()) names.push_back(framework::NormalizedImageName(c.image()));
  for (const api::v1::Container& c : pod.pod().spec().init_containers()) {
    names.push_back(framework::NormalizedImageName(c.image()));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return JoinParts(names);
}

std::string ResourcesSignature(const framework::Resource& request) {
  std::string out = schedkit::StrCat(request.milli_cpu, ",", request.memory, ",", request.ephemeral_storage, ",",
                                 request.allowed_pod_number);
  std::vector<std::pair<std::string_view, int64_t>> scalars;
  for (const framework::Resource::Scalar& s : request.scalars) scalars.emplace_back(s.name.str(), s.amount);
  std::sort(scalars.begin(), scalars.end());
  for (const auto& [name, amount] : scalars) schedkit::StrAppend(&out, ";", name, "=", amount);
  return out;
}

}  // namespace schedkit::plugins
