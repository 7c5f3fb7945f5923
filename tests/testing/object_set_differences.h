// Test helper: how two ObjectSets differ, kind by kind and object by object,
// in MessageDifferencer's words ("" when they hold equal objects in the same
// order).
#ifndef SCHEDKIT_TESTS_TESTING_OBJECT_SET_DIFFERENCES_H_
#define SCHEDKIT_TESTS_TESTING_OBJECT_SET_DIFFERENCES_H_

#include <string>

#include "google/protobuf/util/message_differencer.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/object_set.h"

namespace schedkit::testing {

inline std::string ObjectSetDifferences(const api::ObjectSet& a, const api::ObjectSet& b) {
  std::string report;
  api::KindSet kinds;
  for (const api::Kind* k : a.kinds()) kinds.Add(*k);
  for (const api::Kind* k : b.kinds()) kinds.Add(*k);
  for (const api::Kind* kind : kinds) {
    const api::AnyObjectList& x = a.List(*kind);
    const api::AnyObjectList& y = b.List(*kind);
    if (x.size() != y.size()) {
      report += std::string(kind->kind()) + ": " + std::to_string(x.size()) + " objects against " +
                std::to_string(y.size()) + "\n";
      continue;
    }
    for (size_t i = 0; i < x.size(); ++i) {
      google::protobuf::util::MessageDifferencer differencer;
      differencer.ReportDifferencesToString(&report);
      differencer.Compare(*x[i], *y[i]);
    }
  }
  return report;
}

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTS_TESTING_OBJECT_SET_DIFFERENCES_H_
