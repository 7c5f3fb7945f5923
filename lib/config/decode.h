// Internal: a KubeSchedulerConfiguration v1 document, already turned into
// typed JSON, decoded strictly into a SchedulerConfiguration with upstream's
// v1 defaults applied (SetDefaults_KubeSchedulerConfiguration and the plugin
// merge). Validation is separate (ValidateConfiguration).
//
//   SCHEDKIT_ASSIGN_OR_RETURN(SchedulerConfiguration cfg, DecodeConfiguration(doc));
#ifndef SCHEDKIT_LIB_CONFIG_DECODE_H_
#define SCHEDKIT_LIB_CONFIG_DECODE_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "schedkit/config/configuration.h"

namespace schedkit::config::internal {

inline constexpr std::string_view kApiVersion = "kubescheduler.config.k8s.io/v1";
inline constexpr std::string_view kKind = "KubeSchedulerConfiguration";

// `doc` null means an empty document (all defaults). Unknown fields, wrong
// types, out-of-range integers, a foreign apiVersion or kind, extenders,
// pluginConfig names given twice and in-tree plugin args of another kind are
// errors, as InvalidArgument "<field path>: <problem>" without the source.
absl::StatusOr<SchedulerConfiguration> DecodeConfiguration(const nlohmann::json& doc);

}  // namespace schedkit::config::internal

#endif  // SCHEDKIT_LIB_CONFIG_DECODE_H_
