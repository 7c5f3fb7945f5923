#include "plugins/noderesources/args.h"

#include <utility>

#include "api/apimachinery_validation.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins::noderesources {
namespace {

using api::internal::LabelKeyErrors;

constexpr std::string_view kFit = names::kNodeResourcesFit;
constexpr std::string_view kBalanced = names::kNodeResourcesBalancedAllocation;

std::string Index(std::string_view path, size_t i) { return schedkit::StrCat(path, "[", i, "]"); }

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

const framework::ArgsSpec<ResourceSpec>& ResourceSpecSpec() {
  static const auto* spec = framework::ArgsSpec<ResourceSpec>("ResourceSpec")
                                .Field("name", &ResourceSpec::name)
                                .Field("weight", &ResourceSpec::weight)
                                .OmitEmpty()
                                .Leak();
  return *spec;
}

const framework::ArgsSpec<UtilizationShapePoint>& ShapePointSpec() {
  static const auto* spec = framework::ArgsSpec<UtilizationShapePoint>("UtilizationShapePoint")
                                .Field("utilization", &UtilizationShapePoint::utilization)
                                .Field("score", &UtilizationShapePoint::score)
                                .Leak();
  return *spec;
}

const framework::ArgsSpec<RequestedToCapacityRatioParam>& RatioSpec() {
  static const auto* spec = framework::ArgsSpec<RequestedToCapacityRatioParam>("RequestedToCapacityRatioParam")
                                .Field("shape", &RequestedToCapacityRatioParam::shape, ShapePointSpec())
                                .OmitEmpty()
                                .Leak();
  return *spec;
}

const framework::ArgsSpec<ScoringStrategy>& ScoringStrategySpec() {
  static const auto* spec =
      framework::ArgsSpec<ScoringStrategy>("ScoringStrategy")
          .Field("type", &ScoringStrategy::type)
          .OmitEmpty()
          .Field("resources", &ScoringStrategy::resources, ResourceSpecSpec())
          .OmitEmpty()
          .Field("requestedToCapacityRatio", &ScoringStrategy::requested_to_capacity_ratio, RatioSpec())
          .OmitEmpty()
          .Defaults([](ScoringStrategy& s) { DefaultResourceList(s.resources); })
          .Leak();
  return *spec;
}

// --- validation: apimachinery's field errors and label-key rules ---

void ValidateLabelName(std::string_view value, std::string_view field, framework::ArgsErrors& errs) {
  for (const std::string& msg : LabelKeyErrors(value)) errs.Invalid(field, value, msg);
}

void ValidateFunctionShape(const std::vector<UtilizationShapePoint>& shape, std::string_view path,
                           framework::ArgsErrors& errs) {
  if (shape.empty()) {
    errs.Required(path, "at least one point must be specified");
    return;
  }
  for (size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      errs.Invalid(schedkit::StrCat(Index(path, i), ".utilization"), shape[i].utilization,
                   "values must be sorted in increasing order");
      break;
    }
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    const UtilizationShapePoint& p = shape[i];
    if (p.utilization < 0 || p.utilization > 100) {
      errs.Invalid(schedkit::StrCat(Index(path, i), ".utilization"), p.utilization, "not in valid range [0, 100]");
    }
    if (p.score < 0 || p.score > kMaxCustomPriorityScore) {
      errs.Invalid(schedkit::StrCat(Index(path, i), ".score"), p.score,
                   schedkit::StrCat("not in valid range [0, ", kMaxCustomPriorityScore, "]"));
    }
  }
}

// Upstream ValidateNodeResourcesFitArgs.
void AppendFitArgsErrors(const NodeResourcesFitArgs& args, framework::ArgsErrors& errs) {
  for (size_t i = 0; i < args.ignored_resources.size(); ++i) {
    ValidateLabelName(args.ignored_resources[i], Index("ignoredResources", i), errs);
  }
  for (size_t i = 0; i < args.ignored_resource_groups.size(); ++i) {
    const std::string& group = args.ignored_resource_groups[i];
    const std::string field = Index("ignoredResourceGroups", i);
    if (group.find('/') != std::string::npos) errs.Invalid(field, group, "resource group name can't contain '/'");
    ValidateLabelName(group, field, errs);
  }
  if (args.scoring_strategy.has_value()) {
    const ScoringStrategy& s = *args.scoring_strategy;
    if (s.type != kLeastAllocated && s.type != kMostAllocated && s.type != kRequestedToCapacityRatio) {
      static constexpr std::string_view kTypes[] = {kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio};
      errs.NotSupported("scoringStrategy.type", s.type, kTypes);
    }
    for (size_t i = 0; i < s.resources.size(); ++i) {
      const ResourceSpec& r = s.resources[i];
      if (r.weight <= 0 || r.weight > 100) {
        errs.Invalid(schedkit::StrCat("scoringStrategy.resources[", i, "].weight"), r.weight,
                     schedkit::StrCat("resource weight of ", r.name, " not in valid range (0, 100]"));
      }
    }
    // Upstream reports shape problems under "scoringStrategy.shape".
    if (s.requested_to_capacity_ratio.has_value()) {
      ValidateFunctionShape(s.requested_to_capacity_ratio->shape, "scoringStrategy.shape", errs);
    }
  }
}

// Upstream ValidateNodeResourcesBalancedAllocationArgs.
void AppendBalancedArgsErrors(const NodeResourcesBalancedAllocationArgs& args, framework::ArgsErrors& errs) {
  for (size_t i = 0; i < args.resources.size(); ++i) {
    const ResourceSpec& r = args.resources[i];
    bool seen = false;
    for (size_t j = 0; j < i; ++j) seen = seen || args.resources[j].name == r.name;
    if (seen) errs.Duplicate(schedkit::StrCat(Index("resources", i), ".name"), r.name);
    if (r.weight != 1) errs.Invalid(schedkit::StrCat(Index("resources", i), ".weight"), r.weight, "must be 1");
  }
}

}  // namespace

std::vector<ResourceSpec> DefaultResources() { return {{"cpu", 1}, {"memory", 1}}; }

const framework::ArgsSpec<NodeResourcesFitArgs>& NodeResourcesFitArgsSpec() {
  static const auto* spec =
      framework::ArgsSpec<NodeResourcesFitArgs>(std::string(kFit))
          .Field("ignoredResources", &NodeResourcesFitArgs::ignored_resources)
          .OmitEmpty()
          .Field("ignoredResourceGroups", &NodeResourcesFitArgs::ignored_resource_groups)
          .OmitEmpty()
          .Field("scoringStrategy", &NodeResourcesFitArgs::scoring_strategy, ScoringStrategySpec())
          .OmitEmpty()
          .Defaults([](NodeResourcesFitArgs& a) {
            if (!a.scoring_strategy.has_value()) {
              a.scoring_strategy = ScoringStrategy{std::string(kLeastAllocated), DefaultResources(), std::nullopt};
            }
          })
          .Validate(AppendFitArgsErrors)
          .Leak();
  return *spec;
}

const framework::ArgsSpec<NodeResourcesBalancedAllocationArgs>& NodeResourcesBalancedAllocationArgsSpec() {
  static const auto* spec =
      framework::ArgsSpec<NodeResourcesBalancedAllocationArgs>(std::string(kBalanced))
          .Field("resources", &NodeResourcesBalancedAllocationArgs::resources, ResourceSpecSpec())
          .OmitEmpty()
          .Defaults([](NodeResourcesBalancedAllocationArgs& a) { DefaultResourceList(a.resources); })
          .Validate(AppendBalancedArgsErrors)
          .Leak();
  return *spec;
}

absl::StatusOr<NodeResourcesFitArgs> ParseNodeResourcesFitArgs(const framework::PluginArgs& args) {
  return framework::DecodeArgs(args, NodeResourcesFitArgsSpec());
}

absl::StatusOr<NodeResourcesBalancedAllocationArgs> ParseNodeResourcesBalancedAllocationArgs(
    const framework::PluginArgs& args) {
  return framework::DecodeArgs(args, NodeResourcesBalancedAllocationArgsSpec());
}

absl::Status ValidateNodeResourcesFitArgs(const NodeResourcesFitArgs& args) {
  framework::ArgsErrors errs;
  AppendFitArgsErrors(args, errs);
  return errs.ToStatus(kFit);
}

absl::Status ValidateNodeResourcesBalancedAllocationArgs(const NodeResourcesBalancedAllocationArgs& args) {
  framework::ArgsErrors errs;
  AppendBalancedArgsErrors(args, errs);
  return errs.ToStatus(kBalanced);
}

}  // namespace schedkit::plugins::noderesources
