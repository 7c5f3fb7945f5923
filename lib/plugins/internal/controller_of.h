// Internal to the plugins: an object's controller, as metav1.GetControllerOf
// finds it — the first owner reference with controller: true, or null.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_CONTROLLER_OF_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_CONTROLLER_OF_H_

#include "schedkit/api/v1/meta.pb.h"

namespace schedkit::plugins::internal {

inline const api::v1::OwnerReference* ControllerOf(const api::v1::ObjectMeta& meta) {
  for (const api::v1::OwnerReference& ref : meta.owner_references()) {
    if (ref.has_controller() && ref.controller()) return &ref;
  }
  return nullptr;
}

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_CONTROLLER_OF_H_
