// Internal to the framework and the scheduler: whether a metrics recorder
// records nothing, so that they skip reading the clock for it. Only the
// no-op recorder itself counts, not a class built on it (a host may override
// one method of NoopMetricsRecorder and still want those observations).
#ifndef SCHEDKIT_LIB_FRAMEWORK_RECORDS_NOTHING_H_
#define SCHEDKIT_LIB_FRAMEWORK_RECORDS_NOTHING_H_

#include <typeinfo>

#include "schedkit/framework/metrics.h"

namespace schedkit::framework {

inline bool RecordsNothing(const MetricsRecorder* recorder) {
  return recorder == nullptr || typeid(*recorder) == typeid(NoopMetricsRecorder);
}

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_RECORDS_NOTHING_H_
