// Must: unwraps what a test's set-up needs to succeed — a plugin from its
// factory, decoded args, a PodInfo — and throws MustError with the status's
// message when it did not. Any test framework reports an exception that
// leaves a test case as that case's failure, with the message.
//
//   auto plugin = testing::Must(sample::New(framework::PluginArgs(R"({"favorite_color": "blue"})"), handle));
//   testing::Must(registry.Add("Sample", &sample::New));
#ifndef SCHEDKIT_TESTING_MUST_H_
#define SCHEDKIT_TESTING_MUST_H_

#include <stdexcept>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace schedkit::testing {

class MustError : public std::runtime_error {
 public:
  explicit MustError(const absl::Status& status) : std::runtime_error(status.ToString()) {}
};

// The value of `v`; throws MustError when it holds an error.
template <typename T>
T Must(absl::StatusOr<T> v) {
  if (!v.ok()) throw MustError(v.status());
  return *std::move(v);
}

// Throws MustError unless `s` is OK.
inline void Must(const absl::Status& s) {
  if (!s.ok()) throw MustError(s);
}

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_MUST_H_
