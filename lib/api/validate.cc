#include "api/validate.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/api/v1/namespace.h"
#include "schedkit/api/v1/pod_disruption_budget.h"
#include "schedkit/api/v1/priority_class.h"
#include "schedkit/api/v1/service.h"
#include "schedkit/api/v1/replication_controller.h"
#include "schedkit/api/v1/replica_set.h"
#include "schedkit/api/v1/stateful_set.h"

#include "api/validate_fields.h"

#include <initializer_list>
#include <string>

#include "absl/strings/escaping.h"
#include "api/apimachinery_validation.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/api/quantity.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/symbol.h"

namespace schedkit::api::internal {

absl::Status FieldError(std::string_view path, const std::string& problem) {
  return absl::InvalidArgumentError(schedkit::StrCat(path, ": ", problem));
}

absl::Status OneOf(std::string_view path, const std::string& value,
                   std::initializer_list<std::string_view> allowed) {
  for (std::string_view a : allowed) {
    if (value == a) return absl::OkStatus();
  }
  std::string shown;
  for (std::string_view a : allowed) {
    if (!shown.empty()) shown += ", ";
    schedkit::StrAppend(&shown, a.empty() ? "\"\"" : a);
  }
  return FieldError(path, schedkit::StrCat("unsupported value \"", value, "\" (allowed: ", shown, ")"));
}

absl::Status Required(std::string_view path, const std::string& value) {
  return value.empty() ? FieldError(path, "required value") : absl::OkStatus();
}

absl::Status ValidateTimestamp(std::string_view path, const std::string& text) {
  if (text.empty()) return absl::OkStatus();
  auto t = ParseTimestamp(text);
  return t.ok() ? absl::OkStatus() : FieldError(path, std::string(t.status().message()));
}

absl::Status ValidateName(std::string_view path, const std::string& name) {
  SCHEDKIT_RETURN_IF_ERROR(Required(path, name));
  if (!IsDns1123Subdomain(name)) {
    return FieldError(path, schedkit::StrCat("invalid name \"", absl::CEscape(name.substr(0, 80)),
                                             "\": must be lowercase letters, digits, '-' and '.', "
                                             "starting and ending with a letter or digit"));
  }
  return absl::OkStatus();
}

absl::Status ValidateMeta(std::string_view path, const v1::ObjectMeta& m) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateName(schedkit::StrCat(path, ".name"), m.name()));
  if (!m.namespace_().empty()) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateName(schedkit::StrCat(path, ".namespace"), m.namespace_()));
  }
  SCHEDKIT_RETURN_IF_ERROR(ValidateTimestamp(schedkit::StrCat(path, ".creationTimestamp"), m.creation_timestamp()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateTimestamp(schedkit::StrCat(path, ".deletionTimestamp"), m.deletion_timestamp()));
  return absl::OkStatus();
}

absl::Status ValidateLabelSelector(std::string_view path, const v1::LabelSelector& s) {
  for (int i = 0; i < s.match_expressions_size(); ++i) {
    const auto& r = s.match_expressions(i);
    const std::string p = schedkit::StrCat(path, ".matchExpressions[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(Required(p + ".key", r.key()));
    SCHEDKIT_RETURN_IF_ERROR(OneOf(p + ".operator", r.operator_(), {"In", "NotIn", "Exists", "DoesNotExist"}));
    const bool wants_values = r.operator_() == "In" || r.operator_() == "NotIn";
    if (wants_values && r.values_size() == 0) {
      return FieldError(p + ".values", "must be specified when operator is In or NotIn");
    }
    if (!wants_values && r.values_size() > 0) {
      return FieldError(p + ".values", "may not be specified when operator is Exists or DoesNotExist");
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateNodeSelectorTerm(std::string_view path, const v1::NodeSelectorTerm& t) {
  for (int i = 0; i < t.match_expressions_size(); ++i) {
    const auto& r = t.match_expressions(i);
    const std::string p = schedkit::StrCat(path, ".matchExpressions[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(Required(p + ".key", r.key()));
    SCHEDKIT_RETURN_IF_ERROR(
        OneOf(p + ".operator", r.operator_(), {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}));
    const std::string& op = r.operator_();
    if ((op == "In" || op == "NotIn") && r.values_size() == 0) {
      return FieldError(p + ".values", "must be specified when operator is In or NotIn");
    }
    if ((op == "Exists" || op == "DoesNotExist") && r.values_size() > 0) {
      return FieldError(p + ".values", "may not be specified when operator is Exists or DoesNotExist");
    }
    if (op == "Gt" || op == "Lt") {
      if (r.values_size() != 1) return FieldError(p + ".values", "must be a single integer for Gt and Lt");
      if (!Symbol::Intern(r.values(0)).AsInt()) {
        return FieldError(p + ".values[0]", schedkit::StrCat("not an integer: \"", r.values(0), "\""));
      }
    }
  }
  for (int i = 0; i < t.match_fields_size(); ++i) {
    const auto& r = t.match_fields(i);
    const std::string p = schedkit::StrCat(path, ".matchFields[", i, "]");
    if (r.key() != "metadata.name") {
      return FieldError(p + ".key", schedkit::StrCat("unsupported field \"", r.key(), "\" (only metadata.name)"));
    }
    SCHEDKIT_RETURN_IF_ERROR(OneOf(p + ".operator", r.operator_(), {"In", "NotIn"}));
    if (r.values_size() != 1) return FieldError(p + ".values", "must have exactly one value");
  }
  return absl::OkStatus();
}

namespace {

absl::Status ValidateWeight(std::string_view path, int32_t w) {
  if (w < 1 || w > 100) return FieldError(path, schedkit::StrCat("weight ", w, " must be in the range 1-100"));
  return absl::OkStatus();
}

absl::Status ValidatePodAffinityTerm(std::string_view path, const v1::PodAffinityTerm& t) {
  SCHEDKIT_RETURN_IF_ERROR(Required(schedkit::StrCat(path, ".topologyKey"), t.topology_key()));
  if (t.has_label_selector()) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateLabelSelector(schedkit::StrCat(path, ".labelSelector"), t.label_selector()));
  }
  if (t.has_namespace_selector()) {
    SCHEDKIT_RETURN_IF_ERROR(
        ValidateLabelSelector(schedkit::StrCat(path, ".namespaceSelector"), t.namespace_selector()));
  }
  return absl::OkStatus();
}

template <typename PodAffinityLike>
absl::Status ValidatePodAffinity(std::string_view path, const PodAffinityLike& a) {
  for (int i = 0; i < a.required_during_scheduling_ignored_during_execution_size(); ++i) {
    SCHEDKIT_RETURN_IF_ERROR(ValidatePodAffinityTerm(
        schedkit::StrCat(path, ".requiredDuringSchedulingIgnoredDuringExecution[", i, "]"),
        a.required_during_scheduling_ignored_during_execution(i)));
  }
  for (int i = 0; i < a.preferred_during_scheduling_ignored_during_execution_size(); ++i) {
    const auto& w = a.preferred_during_scheduling_ignored_during_execution(i);
    const std::string p = schedkit::StrCat(path, ".preferredDuringSchedulingIgnoredDuringExecution[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateWeight(p + ".weight", w.weight()));
    SCHEDKIT_RETURN_IF_ERROR(ValidatePodAffinityTerm(p + ".podAffinityTerm", w.pod_affinity_term()));
  }
  return absl::OkStatus();
}

absl::Status ValidateAffinity(const v1::Affinity& a) {
  if (a.has_node_affinity()) {
    const auto& na = a.node_affinity();
    const auto& req = na.required_during_scheduling_ignored_during_execution();
    for (int i = 0; i < req.node_selector_terms_size(); ++i) {
      SCHEDKIT_RETURN_IF_ERROR(ValidateNodeSelectorTerm(
          schedkit::StrCat("spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                       ".nodeSelectorTerms[", i, "]"),
          req.node_selector_terms(i)));
    }
    for (int i = 0; i < na.preferred_during_scheduling_ignored_during_execution_size(); ++i) {
      const auto& pt = na.preferred_during_scheduling_ignored_during_execution(i);
      const std::string p =
          schedkit::StrCat("spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[", i, "]");
      SCHEDKIT_RETURN_IF_ERROR(ValidateWeight(p + ".weight", pt.weight()));
      SCHEDKIT_RETURN_IF_ERROR(ValidateNodeSelectorTerm(p + ".preference", pt.preference()));
    }
  }
  if (a.has_pod_affinity()) {
    SCHEDKIT_RETURN_IF_ERROR(ValidatePodAffinity("spec.affinity.podAffinity", a.pod_affinity()));
  }
  if (a.has_pod_anti_affinity()) {
    SCHEDKIT_RETURN_IF_ERROR(ValidatePodAffinity("spec.affinity.podAntiAffinity", a.pod_anti_affinity()));
  }
  return absl::OkStatus();
}

absl::Status ValidateContainers(std::string_view path,
                                const google::protobuf::RepeatedPtrField<v1::Container>& cs,
                                bool init) {
  for (int i = 0; i < cs.size(); ++i) {
    const v1::Container& c = cs[i];
    const std::string p = schedkit::StrCat(path, "[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList(p + ".resources.requests", c.resources().requests()));
    SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList(p + ".resources.limits", c.resources().limits()));
    if (init) SCHEDKIT_RETURN_IF_ERROR(OneOf(p + ".restartPolicy", c.restart_policy(), {"", "Always"}));
    for (int j = 0; j < c.ports_size(); ++j) {
      const auto& port = c.ports(j);
      const std::string pp = schedkit::StrCat(p, ".ports[", j, "]");
      if (port.container_port() < 0 || port.container_port() > 65535) {
        return FieldError(pp + ".containerPort", schedkit::StrCat("must be in 0-65535, got ", port.container_port()));
      }
      if (port.host_port() < 0 || port.host_port() > 65535) {
        return FieldError(pp + ".hostPort", schedkit::StrCat("must be in 0-65535, got ", port.host_port()));
      }
      SCHEDKIT_RETURN_IF_ERROR(OneOf(pp + ".protocol", port.protocol(), {"", "TCP", "UDP", "SCTP"}));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<absl::Time> ParseTimestamp(std::string_view text) {
  absl::Time t;
  std::string err;
  if (!absl::ParseTime(absl::RFC3339_full, std::string(text), &t, &err)) {
    return absl::InvalidArgumentError(schedkit::StrCat("invalid timestamp \"", text, "\": ", err));
  }
  return t;
}

}  // namespace schedkit::api::internal

namespace schedkit::api {

// The per-kind checks are the kinds' traits; the field helpers stay internal.
using namespace internal;  // NOLINT(build/namespaces)

void KindTraits<v1::Pod>::ApplyDefaults(v1::Pod& pod) {
  if (pod.spec().scheduler_name().empty()) pod.mutable_spec()->set_scheduler_name("default-scheduler");
}

namespace {


// The API server defaults a template's pod spec as a pod's.
template <typename Workload>
void DefaultTemplate(Workload& w) {
  if (!w.spec().has_template_()) return;
  v1::PodSpec& spec = *w.mutable_spec()->mutable_template_()->mutable_spec();
  if (spec.scheduler_name().empty()) spec.set_scheduler_name("default-scheduler");
}

absl::Status ValidateReplicas(bool has_replicas, int32_t replicas) {
  if (has_replicas && replicas < 0) {
    return FieldError("spec.replicas", schedkit::StrCat("must be greater than or equal to 0, got ", replicas));
  }
  return absl::OkStatus();
}

// apps/v1 requires a selector on ReplicaSets and StatefulSets.
absl::Status ValidateRequiredSelector(bool has_selector, const v1::LabelSelector& selector) {
  if (!has_selector) return FieldError("spec.selector", "required value");
  return ValidateLabelSelector("spec.selector", selector);
}

// A workload's pod template, checked as the pods it makes would be; paths
// read "spec.template.spec.containers[0]...".
absl::Status ValidateTemplate(bool has_template, const v1::PodTemplateSpec& t) {
  if (!has_template) return absl::OkStatus();
  v1::Pod pod;
  *pod.mutable_metadata() = t.metadata();
  // Templates leave the name to the controller.
  if (pod.metadata().name().empty()) pod.mutable_metadata()->set_name("template");
  *pod.mutable_spec() = t.spec();
  absl::Status s = KindTraits<v1::Pod>::Validate(pod);
  if (s.ok()) return s;
  return absl::Status(s.code(), schedkit::StrCat("spec.template.", s.message()));
}

}  // namespace

void KindTraits<v1::ReplicationController>::ApplyDefaults(v1::ReplicationController& rc) {
  DefaultTemplate(rc);
}
void KindTraits<v1::ReplicaSet>::ApplyDefaults(v1::ReplicaSet& rs) {
  DefaultTemplate(rs);
}
void KindTraits<v1::StatefulSet>::ApplyDefaults(v1::StatefulSet& ss) {
  DefaultTemplate(ss);
}

absl::Status KindTraits<v1::Service>::Validate(const v1::Service& service) { return ValidateMeta("metadata", service.metadata()); }

absl::Status KindTraits<v1::ReplicationController>::Validate(const v1::ReplicationController& rc) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", rc.metadata()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateTemplate(rc.spec().has_template_(), rc.spec().template_()));
  return ValidateReplicas(rc.spec().has_replicas(), rc.spec().replicas());
}

absl::Status KindTraits<v1::ReplicaSet>::Validate(const v1::ReplicaSet& rs) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", rs.metadata()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateReplicas(rs.spec().has_replicas(), rs.spec().replicas()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateTemplate(rs.spec().has_template_(), rs.spec().template_()));
  return ValidateRequiredSelector(rs.spec().has_selector(), rs.spec().selector());
}

absl::Status KindTraits<v1::StatefulSet>::Validate(const v1::StatefulSet& ss) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", ss.metadata()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateReplicas(ss.spec().has_replicas(), ss.spec().replicas()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateTemplate(ss.spec().has_template_(), ss.spec().template_()));
  for (int i = 0; i < ss.spec().volume_claim_templates_size(); ++i) {
    const v1::PersistentVolumeClaim& t = ss.spec().volume_claim_templates(i);
    const std::string p = schedkit::StrCat("spec.volumeClaimTemplates[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(Required(p + ".metadata.name", t.metadata().name()));
    SCHEDKIT_RETURN_IF_ERROR(ValidateClaimSpec(p + ".spec", t.spec()));
  }
  return ValidateRequiredSelector(ss.spec().has_selector(), ss.spec().selector());
}

absl::Status KindTraits<v1::Node>::Validate(const v1::Node& node) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", node.metadata()));
  for (int i = 0; i < node.spec().taints_size(); ++i) {
    const auto& t = node.spec().taints(i);
    const std::string p = schedkit::StrCat("spec.taints[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(Required(p + ".key", t.key()));
    SCHEDKIT_RETURN_IF_ERROR(OneOf(p + ".effect", t.effect(), {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
  }
  SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList("status.capacity", node.status().capacity()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList("status.allocatable", node.status().allocatable()));
  for (int i = 0; i < node.status().images_size(); ++i) {
    if (node.status().images(i).size_bytes() < 0) {
      return FieldError(schedkit::StrCat("status.images[", i, "].sizeBytes"), "must be non-negative");
    }
  }
  return absl::OkStatus();
}

namespace {

// The resize status's quantities feed the requests every node's accounting
// adds up, as the spec's do.
absl::Status ValidatePodStatusResources(const v1::PodStatus& status) {
  auto container_statuses = [](std::string_view path, const auto& list) -> absl::Status {
    for (int i = 0; i < list.size(); ++i) {
      const std::string p = schedkit::StrCat(path, "[", i, "]");
      SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList(p + ".allocatedResources", list[i].allocated_resources()));
      SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList(p + ".resources.requests", list[i].resources().requests()));
      SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList(p + ".resources.limits", list[i].resources().limits()));
    }
    return absl::OkStatus();
  };
  SCHEDKIT_RETURN_IF_ERROR(container_statuses("status.containerStatuses", status.container_statuses()));
  SCHEDKIT_RETURN_IF_ERROR(container_statuses("status.initContainerStatuses", status.init_container_statuses()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList("status.allocatedResources", status.allocated_resources()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList("status.resources.requests", status.resources().requests()));
  return ValidateResourceList("status.resources.limits", status.resources().limits());
}

}  // namespace

absl::Status KindTraits<v1::Pod>::Validate(const v1::Pod& pod) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", pod.metadata()));
  const v1::PodSpec& spec = pod.spec();
  SCHEDKIT_RETURN_IF_ERROR(ValidateContainers("spec.containers", spec.containers(), false));
  SCHEDKIT_RETURN_IF_ERROR(ValidateContainers("spec.initContainers", spec.init_containers(), true));
  SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList("spec.overhead", spec.overhead()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList("spec.resources.requests", spec.resources().requests()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList("spec.resources.limits", spec.resources().limits()));
  if (spec.has_affinity()) SCHEDKIT_RETURN_IF_ERROR(ValidateAffinity(spec.affinity()));
  for (int i = 0; i < spec.tolerations_size(); ++i) {
    const auto& t = spec.tolerations(i);
    const std::string p = schedkit::StrCat("spec.tolerations[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(OneOf(p + ".operator", t.operator_(), {"", "Equal", "Exists"}));
    SCHEDKIT_RETURN_IF_ERROR(OneOf(p + ".effect", t.effect(), {"", "NoSchedule", "PreferNoSchedule", "NoExecute"}));
    if (t.operator_() == "Exists" && !t.value().empty()) {
      return FieldError(p + ".value", "must be empty when operator is Exists");
    }
    if (t.key().empty() && t.operator_() != "Exists") {
      return FieldError(p + ".operator", "must be Exists when key is empty");
    }
  }
  for (int i = 0; i < spec.topology_spread_constraints_size(); ++i) {
    const auto& c = spec.topology_spread_constraints(i);
    const std::string p = schedkit::StrCat("spec.topologySpreadConstraints[", i, "]");
    if (c.max_skew() <= 0) return FieldError(p + ".maxSkew", schedkit::StrCat("must be greater than zero, got ", c.max_skew()));
    SCHEDKIT_RETURN_IF_ERROR(Required(p + ".topologyKey", c.topology_key()));
    SCHEDKIT_RETURN_IF_ERROR(OneOf(p + ".whenUnsatisfiable", c.when_unsatisfiable(), {"DoNotSchedule", "ScheduleAnyway"}));
    if (c.has_min_domains()) {
      if (c.min_domains() <= 0) return FieldError(p + ".minDomains", schedkit::StrCat("must be greater than zero, got ", c.min_domains()));
      if (c.when_unsatisfiable() != "DoNotSchedule") {
        return FieldError(p + ".minDomains", "can only be used with whenUnsatisfiable DoNotSchedule");
      }
    }
    if (c.has_node_affinity_policy()) SCHEDKIT_RETURN_IF_ERROR(OneOf(p + ".nodeAffinityPolicy", c.node_affinity_policy(), {"Honor", "Ignore"}));
    if (c.has_node_taints_policy()) SCHEDKIT_RETURN_IF_ERROR(OneOf(p + ".nodeTaintsPolicy", c.node_taints_policy(), {"Honor", "Ignore"}));
    if (c.has_label_selector()) SCHEDKIT_RETURN_IF_ERROR(ValidateLabelSelector(p + ".labelSelector", c.label_selector()));
  }
  if (spec.has_preemption_policy()) {
    SCHEDKIT_RETURN_IF_ERROR(OneOf("spec.preemptionPolicy", spec.preemption_policy(), {"PreemptLowerPriority", "Never"}));
  }
  for (int i = 0; i < spec.scheduling_gates_size(); ++i) {
    SCHEDKIT_RETURN_IF_ERROR(Required(schedkit::StrCat("spec.schedulingGates[", i, "].name"), spec.scheduling_gates(i).name()));
  }
  SCHEDKIT_RETURN_IF_ERROR(ValidatePodVolumes(spec.volumes()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateTimestamp("status.startTime", pod.status().start_time()));
  return ValidatePodStatusResources(pod.status());
}

absl::Status KindTraits<v1::PodDisruptionBudget>::Validate(const v1::PodDisruptionBudget& pdb) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", pdb.metadata()));
  if (pdb.spec().has_selector()) SCHEDKIT_RETURN_IF_ERROR(ValidateLabelSelector("spec.selector", pdb.spec().selector()));
  auto int_or_percent = [](std::string_view path, const std::string& v) -> absl::Status {
    std::string_view digits = v;
    if (!digits.empty() && digits.back() == '%') digits.remove_suffix(1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
      return FieldError(path, schedkit::StrCat("must be an integer or a percentage, got \"", v, "\""));
    }
    return absl::OkStatus();
  };
  if (pdb.spec().has_min_available()) SCHEDKIT_RETURN_IF_ERROR(int_or_percent("spec.minAvailable", pdb.spec().min_available()));
  if (pdb.spec().has_max_unavailable()) SCHEDKIT_RETURN_IF_ERROR(int_or_percent("spec.maxUnavailable", pdb.spec().max_unavailable()));
  return absl::OkStatus();
}

absl::Status KindTraits<v1::PriorityClass>::Validate(const v1::PriorityClass& pc) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", pc.metadata()));
  if (pc.has_preemption_policy()) {
    SCHEDKIT_RETURN_IF_ERROR(OneOf("preemptionPolicy", pc.preemption_policy(), {"PreemptLowerPriority", "Never"}));
  }
  return absl::OkStatus();
}

absl::Status KindTraits<v1::Namespace>::Validate(const v1::Namespace& ns) { return ValidateMeta("metadata", ns.metadata()); }

}  // namespace schedkit::api
