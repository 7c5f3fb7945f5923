#include "plugins/noderesources/args.h"

#include <limits>
#include <utility>

#include "absl/strings/str_join.h"
#include "api/apimachinery_validation.h"
#include "api/go_format.h"
#include "api/json_documents.h"
#include "plugins/internal/args.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins::noderesources {
namespace {

using api::internal::FieldInvalid;
using api::internal::LabelKeyErrors;
using nlohmann::json;

constexpr std::string_view kFit = names::kNodeResourcesFit;
constexpr std::string_view kBalanced = names::kNodeResourcesBalancedAllocation;

std::string Join(std::string_view path, std::string_view key) {
  return path.empty() ? std::string(key) : schedkit::StrCat(path, ".", key);
}

std::string Index(std::string_view path, size_t i) { return schedkit::StrCat(path, "[", i, "]"); }

// The array at obj[key], or nullptr when absent or null.
absl::StatusOr<const json*> FindArray(const json& obj, std::string_view plugin, std::string_view path,
                                      std::string_view key) {
  auto it = obj.find(std::string(key));
  if (it == obj.end() || it->is_null()) return nullptr;
  if (!it->is_array()) {
    return internal::ArgsError(plugin, Join(path, key),
                               schedkit::StrCat("expected an array, got ", api::internal::DescribeType(*it)));
  }
  return &*it;
}

// The object at obj[key], or nullptr when absent or null.
absl::StatusOr<const json*> FindObject(const json& obj, std::string_view plugin, std::string_view path,
                                       std::string_view key) {
  auto it = obj.find(std::string(key));
  if (it == obj.end() || it->is_null()) return nullptr;
  if (!it->is_object()) {
    return internal::ArgsError(
        plugin, Join(path, key),
        schedkit::StrCat("expected an object, got ", api::internal::DescribeType(*it)));
  }
  return &*it;
}

absl::Status ReadStringList(const json& obj, std::string_view plugin, std::string_view key,
                            std::vector<std::string>& out) {
  SCHEDKIT_ASSIGN_OR_RETURN(const json* arr, FindArray(obj, plugin, "", key));
  if (arr == nullptr) return absl::OkStatus();
  for (size_t i = 0; i < arr->size(); ++i) {
    const json& v = (*arr)[i];
    if (!v.is_string()) {
      return internal::ArgsError(plugin, Index(key, i),
                                 schedkit::StrCat("expected a string, got ", api::internal::DescribeType(v)));
    }
    out.push_back(v.get<std::string>());
  }
  return absl::OkStatus();
}

absl::Status ReadInt32(const json& obj, std::string_view plugin, std::string_view path, std::string_view key,
                       int32_t& out) {
  int64_t v = out;
  SCHEDKIT_RETURN_IF_ERROR(internal::ReadInt(obj, plugin, path, key, v));
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return internal::ArgsError(plugin, Join(path, key), "expected a 32-bit integer");
  }
  out = static_cast<int32_t>(v);
  return absl::OkStatus();
}

// resources: [{name, weight}], with weight 0 (or absent) defaulted to 1.
absl::Status ReadResources(const json& obj, std::string_view plugin, std::string_view path,
                           std::vector<ResourceSpec>& out) {
  SCHEDKIT_ASSIGN_OR_RETURN(const json* arr, FindArray(obj, plugin, path, "resources"));
  if (arr == nullptr) return absl::OkStatus();
  const std::string list_path = Join(path, "resources");
  for (size_t i = 0; i < arr->size(); ++i) {
    const json& item = (*arr)[i];
    const std::string item_path = Index(list_path, i);
    if (!item.is_object()) {
      return internal::ArgsError(
          plugin, item_path, schedkit::StrCat("expected an object, got ", api::internal::DescribeType(item)));
    }
    SCHEDKIT_RETURN_IF_ERROR(internal::CheckKnownFields(item, plugin, item_path, {"name", "weight"}));
    ResourceSpec spec;
    SCHEDKIT_RETURN_IF_ERROR(internal::ReadString(item, plugin, item_path, "name", spec.name));
    SCHEDKIT_RETURN_IF_ERROR(internal::ReadInt(item, plugin, item_path, "weight", spec.weight));
    out.push_back(std::move(spec));
  }
  return absl::OkStatus();
}

// Applies the v1 defaulting of a resources list.
void DefaultResourceList(std::vector<ResourceSpec>& resources) {
  if (resources.empty()) {
    resources = DefaultResources();
    return;
  }
  for (ResourceSpec& r : resources) {
    if (r.weight == 0) r.weight = 1;
  }
}

absl::StatusOr<ScoringStrategy> ReadScoringStrategy(const json& obj) {
  constexpr std::string_view kPath = "scoringStrategy";
  SCHEDKIT_RETURN_IF_ERROR(
      internal::CheckKnownFields(obj, kFit, kPath, {"type", "resources", "requestedToCapacityRatio"}));
  ScoringStrategy s;
  SCHEDKIT_RETURN_IF_ERROR(internal::ReadString(obj, kFit, kPath, "type", s.type));
  SCHEDKIT_RETURN_IF_ERROR(ReadResources(obj, kFit, kPath, s.resources));
  SCHEDKIT_ASSIGN_OR_RETURN(const json* ratio, FindObject(obj, kFit, kPath, "requestedToCapacityRatio"));
  if (ratio != nullptr) {
    const std::string ratio_path = Join(kPath, "requestedToCapacityRatio");
    SCHEDKIT_RETURN_IF_ERROR(internal::CheckKnownFields(*ratio, kFit, ratio_path, {"shape"}));
    RequestedToCapacityRatioParam param;
    SCHEDKIT_ASSIGN_OR_RETURN(const json* shape, FindArray(*ratio, kFit, ratio_path, "shape"));
    if (shape != nullptr) {
      const std::string shape_path = Join(ratio_path, "shape");
      for (size_t i = 0; i < shape->size(); ++i) {
        const json& point = (*shape)[i];
        const std::string point_path = Index(shape_path, i);
        if (!point.is_object()) {
          return internal::ArgsError(
              kFit, point_path,
              schedkit::StrCat("expected an object, got ", api::internal::DescribeType(point)));
        }
        SCHEDKIT_RETURN_IF_ERROR(
            internal::CheckKnownFields(point, kFit, point_path, {"utilization", "score"}));
        UtilizationShapePoint p;
        SCHEDKIT_RETURN_IF_ERROR(ReadInt32(point, kFit, point_path, "utilization", p.utilization));
        SCHEDKIT_RETURN_IF_ERROR(ReadInt32(point, kFit, point_path, "score", p.score));
        param.shape.push_back(p);
      }
    }
    s.requested_to_capacity_ratio = std::move(param);
  }
  return s;
}

// --- validation: apimachinery's field errors and label-key rules ---

absl::Status Aggregate(std::string_view plugin, const std::vector<std::string>& errs) {
  if (errs.empty()) return absl::OkStatus();
  if (errs.size() == 1) return internal::ArgsError(plugin, "", errs[0]);
  return internal::ArgsError(plugin, "", schedkit::StrCat("[", absl::StrJoin(errs, ", "), "]"));
}

void ValidateLabelName(std::string_view value, std::string_view field, std::vector<std::string>& errs) {
  for (const std::string& msg : LabelKeyErrors(value)) errs.push_back(FieldInvalid(field, GoQuote(value), msg));
}

void ValidateFunctionShape(const std::vector<UtilizationShapePoint>& shape, std::string_view path,
                           std::vector<std::string>& errs) {
  if (shape.empty()) {
    errs.push_back(schedkit::StrCat(path, ": Required value: at least one point must be specified"));
    return;
  }
  for (size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      errs.push_back(FieldInvalid(schedkit::StrCat(Index(path, i), ".utilization"),
                             schedkit::StrCat(shape[i].utilization),
                             "values must be sorted in increasing order"));
      break;
    }
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    const UtilizationShapePoint& p = shape[i];
    if (p.utilization < 0 || p.utilization > 100) {
      errs.push_back(FieldInvalid(schedkit::StrCat(Index(path, i), ".utilization"),
                             schedkit::StrCat(p.utilization), "not in valid range [0, 100]"));
    }
    if (p.score < 0 || p.score > kMaxCustomPriorityScore) {
      errs.push_back(FieldInvalid(schedkit::StrCat(Index(path, i), ".score"), schedkit::StrCat(p.score),
                             schedkit::StrCat("not in valid range [0, ", kMaxCustomPriorityScore, "]")));
    }
  }
}

}  // namespace

std::vector<ResourceSpec> DefaultResources() { return {{"cpu", 1}, {"memory", 1}}; }

absl::StatusOr<NodeResourcesFitArgs> ParseNodeResourcesFitArgs(const framework::PluginArgs& plugin_args) {
  SCHEDKIT_ASSIGN_OR_RETURN(json obj, internal::ParseArgs(plugin_args, kFit));
  SCHEDKIT_RETURN_IF_ERROR(internal::CheckKnownFields(
      obj, kFit, "", {"ignoredResources", "ignoredResourceGroups", "scoringStrategy"}));
  NodeResourcesFitArgs args;
  SCHEDKIT_RETURN_IF_ERROR(ReadStringList(obj, kFit, "ignoredResources", args.ignored_resources));
  SCHEDKIT_RETURN_IF_ERROR(ReadStringList(obj, kFit, "ignoredResourceGroups", args.ignored_resource_groups));
  SCHEDKIT_ASSIGN_OR_RETURN(const json* strategy, FindObject(obj, kFit, "", "scoringStrategy"));
  if (strategy != nullptr) {
    SCHEDKIT_ASSIGN_OR_RETURN(args.scoring_strategy, ReadScoringStrategy(*strategy));
  } else {
    args.scoring_strategy = ScoringStrategy{std::string(kLeastAllocated), {}, std::nullopt};
  }
  DefaultResourceList(args.scoring_strategy->resources);
  return args;
}

absl::StatusOr<NodeResourcesBalancedAllocationArgs> ParseNodeResourcesBalancedAllocationArgs(
    const framework::PluginArgs& plugin_args) {
  SCHEDKIT_ASSIGN_OR_RETURN(json obj, internal::ParseArgs(plugin_args, kBalanced));
  SCHEDKIT_RETURN_IF_ERROR(internal::CheckKnownFields(obj, kBalanced, "", {"resources"}));
  NodeResourcesBalancedAllocationArgs args;
  SCHEDKIT_RETURN_IF_ERROR(ReadResources(obj, kBalanced, "", args.resources));
  DefaultResourceList(args.resources);
  return args;
}

absl::Status ValidateNodeResourcesFitArgs(const NodeResourcesFitArgs& args) {
  std::vector<std::string> errs;
  for (size_t i = 0; i < args.ignored_resources.size(); ++i) {
    ValidateLabelName(args.ignored_resources[i], Index("ignoredResources", i), errs);
  }
  for (size_t i = 0; i < args.ignored_resource_groups.size(); ++i) {
    const std::string& group = args.ignored_resource_groups[i];
    const std::string field = Index("ignoredResourceGroups", i);
    if (group.find('/') != std::string::npos) {
      errs.push_back(FieldInvalid(field, GoQuote(group), "resource group name can't contain '/'"));
    }
    ValidateLabelName(group, field, errs);
  }
  if (args.scoring_strategy.has_value()) {
    const ScoringStrategy& s = *args.scoring_strategy;
    if (s.type != kLeastAllocated && s.type != kMostAllocated && s.type != kRequestedToCapacityRatio) {
      errs.push_back(schedkit::StrCat("scoringStrategy.type: Unsupported value: ", GoQuote(s.type),
                                      ": supported values: \"", kLeastAllocated, "\", \"", kMostAllocated,
                                      "\", \"", kRequestedToCapacityRatio, "\""));
    }
    for (size_t i = 0; i < s.resources.size(); ++i) {
      const ResourceSpec& r = s.resources[i];
      if (r.weight <= 0 || r.weight > 100) {
        errs.push_back(
            FieldInvalid(schedkit::StrCat("scoringStrategy.resources[", i, "].weight"), schedkit::StrCat(r.weight),
                    schedkit::StrCat("resource weight of ", r.name, " not in valid range (0, 100]")));
      }
    }
    // Upstream reports shape problems under "scoringStrategy.shape".
    if (s.requested_to_capacity_ratio.has_value()) {
      ValidateFunctionShape(s.requested_to_capacity_ratio->shape, "scoringStrategy.shape", errs);
    }
  }
  return Aggregate(kFit, errs);
}

absl::Status ValidateNodeResourcesBalancedAllocationArgs(const NodeResourcesBalancedAllocationArgs& args) {
  std::vector<std::string> errs;
  for (size_t i = 0; i < args.resources.size(); ++i) {
    const ResourceSpec& r = args.resources[i];
    bool seen = false;
    for (size_t j = 0; j < i; ++j) seen = seen || args.resources[j].name == r.name;
    if (seen) {
      errs.push_back(schedkit::StrCat(Index("resources", i), ".name: Duplicate value: ", GoQuote(r.name)));
    }
    if (r.weight != 1) {
      errs.push_back(FieldInvalid(schedkit::StrCat(Index("resources", i), ".weight"), schedkit::StrCat(r.weight),
                             "must be 1"));
    }
  }
  return Aggregate(kBalanced, errs);
}

}  // namespace schedkit::plugins::noderesources
