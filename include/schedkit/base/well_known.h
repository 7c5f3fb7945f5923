// Interned names the scheduler compares against: resource names, well-known
// labels and taints. Each accessor interns once and then returns the cached
// Symbol, so it is cheap enough for any path (but hoist it out of hot loops).
#ifndef SCHEDKIT_BASE_WELL_KNOWN_H_
#define SCHEDKIT_BASE_WELL_KNOWN_H_

#include "schedkit/base/symbol.h"

namespace schedkit::well_known {

#define SCHEDKIT_WELL_KNOWN_SYMBOL(fn, text) \
  inline Symbol fn() {                      \
    static const Symbol s = Symbol::Intern(text); \
    return s;                               \
  }

SCHEDKIT_WELL_KNOWN_SYMBOL(ResourceCpu, "cpu")
SCHEDKIT_WELL_KNOWN_SYMBOL(ResourceMemory, "memory")
SCHEDKIT_WELL_KNOWN_SYMBOL(ResourceEphemeralStorage, "ephemeral-storage")
SCHEDKIT_WELL_KNOWN_SYMBOL(ResourcePods, "pods")
SCHEDKIT_WELL_KNOWN_SYMBOL(LabelHostname, "kubernetes.io/hostname")
SCHEDKIT_WELL_KNOWN_SYMBOL(LabelTopologyZone, "topology.kubernetes.io/zone")
SCHEDKIT_WELL_KNOWN_SYMBOL(LabelTopologyRegion, "topology.kubernetes.io/region")
SCHEDKIT_WELL_KNOWN_SYMBOL(LabelFailureDomainZone, "failure-domain.beta.kubernetes.io/zone")
SCHEDKIT_WELL_KNOWN_SYMBOL(LabelFailureDomainRegion, "failure-domain.beta.kubernetes.io/region")
SCHEDKIT_WELL_KNOWN_SYMBOL(LabelNamespaceName, "kubernetes.io/metadata.name")
SCHEDKIT_WELL_KNOWN_SYMBOL(TaintNodeUnschedulable, "node.kubernetes.io/unschedulable")
SCHEDKIT_WELL_KNOWN_SYMBOL(IpAny, "0.0.0.0")

#undef SCHEDKIT_WELL_KNOWN_SYMBOL

}  // namespace schedkit::well_known

#endif  // SCHEDKIT_BASE_WELL_KNOWN_H_
