// Internal to NodeAffinity: the parse errors upstream reports for a
// v1.NodeSelectorTerm (component-helpers scheduling/corev1/nodeaffinity, which
// builds apimachinery label requirements and field selectors), as the text of
// upstream's field errors.
//
//   std::vector<std::string> errors;
//   AppendTermErrors(term, "[0]", errors);   // "[0].matchExpressions[0].key: Invalid value: ..."
//   if (!errors.empty()) return Status::Error(AggregateMessage(errors));
//
// Why it exists: schedkit's compiled api::NodeSelector checks operators and
// value counts but not label syntax, while upstream rejects a term whose label
// key or value is malformed. Upstream then never matches such a required
// term, fails PreScore on such a preferred term, and rejects such args;
// NodeAffinity reproduces that with these checks, run once per pod (PreFilter,
// PreScore) or per event (hints), never per node. Thread-safe: pure functions.
#ifndef SCHEDKIT_LIB_PLUGINS_NODEAFFINITY_TERM_ERRORS_H_
#define SCHEDKIT_LIB_PLUGINS_NODEAFFINITY_TERM_ERRORS_H_

#include <string>
#include <string_view>
#include <vector>

#include "schedkit/api/v1/pod.h"

namespace schedkit::plugins::nodeaffinity_internal {

// Upstream's isEmptyNodeSelectorTerm: no matchExpressions and no matchFields.
// Such a term selects nothing and is dropped before parsing.
bool IsEmptyTerm(const api::v1::NodeSelectorTerm& term);

// Appends the errors of one non-empty term; `path` is the term's field path
// ("" for none), as upstream's field.Path renders it.
void AppendTermErrors(const api::v1::NodeSelectorTerm& term, std::string_view path,
                      std::vector<std::string>& errors);

// errors.Flatten(errors.NewAggregate(errs)).Error(): a single distinct
// message as is, several as "[a, b]" with duplicates dropped. "" for none.
std::string AggregateMessage(const std::vector<std::string>& errors);

// Go's strconv.ParseInt(s, 10, 64) succeeds.
bool IsDecimalInt64(std::string_view s);

}  // namespace schedkit::plugins::nodeaffinity_internal

#endif  // SCHEDKIT_LIB_PLUGINS_NODEAFFINITY_TERM_ERRORS_H_
