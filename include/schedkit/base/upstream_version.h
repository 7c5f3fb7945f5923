// The kube-scheduler release whose decisions schedkit reproduces: its
// default profile, plugins, messages and feature gates are that release's.
// This line is the one place that names it. The conformance oracle, the test
// API server and the side-by-side kube-scheduler are built at the same
// version (tests/conformance/set-upstream-version.sh writes their go.mod
// files from this line, and the test upstream/version_agrees fails when they
// or the README name another); schedkit-kube --version prints it.
#ifndef SCHEDKIT_BASE_UPSTREAM_VERSION_H_
#define SCHEDKIT_BASE_UPSTREAM_VERSION_H_

#include <string_view>

namespace schedkit {

inline constexpr std::string_view kUpstreamVersion = "v1.37.2";

}  // namespace schedkit

#endif  // SCHEDKIT_BASE_UPSTREAM_VERSION_H_
