// Status: the outcome of a plugin call, with upstream's codes, reasons and the
// name of the plugin that produced it.
//
//   static const Symbol kReason = Symbol::Intern("node(s) were unschedulable");
//   return Status(Code::kUnschedulableAndUnresolvable, kReason);   // hot path: no allocation
//   return Status::Error("parsing args: ...");                         // rare, owns its text
//
// Success is the default and costs nothing. Reasons are interned Symbols so a
// Filter can reject a node without allocating; text that varies per call
// (errors, messages naming objects) is held as an owned string instead.
// Thread-safe as a value type.
#ifndef SCHEDKIT_FRAMEWORK_STATUS_H_
#define SCHEDKIT_FRAMEWORK_STATUS_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "schedkit/base/symbol.h"

namespace schedkit::framework {

// Numeric values follow upstream's declaration order.
enum class Code : uint8_t {
  kSuccess = 0,
  // Internal error: the attempt aborts and the pod is retried with backoff.
  kError = 1,
  // The node (or pod) does not fit now; preemption may help.
  kUnschedulable = 2,
  // The node does not fit and preemption cannot help.
  kUnschedulableAndUnresolvable = 3,
  // Permit only: the pod waits for an Allow or Reject.
  kWait = 4,
  // PreFilter/PreScore: skip this plugin's Filter/Score; Bind: not mine.
  kSkip = 5,
  // Rejected while waiting for something external; requeued without backoff.
  kPending = 6,
};

// "Success", "Error", "Unschedulable", ... as upstream's Code.String().
std::string_view CodeName(Code code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  // Inlined: a filter chain destroys one success Status per plugin and node,
  // and an out-of-line call costs more than the two checks it makes.
  [[gnu::always_inline]] ~Status() {}
  Status(const Status&) = default;
  Status(Status&&) = default;
  Status& operator=(const Status&) = default;
  Status& operator=(Status&&) = default;
  Status(Code code, Symbol reason) : code_(code) { reasons_.push_back(reason); }
  Status(Code code, std::initializer_list<Symbol> reasons) : code_(code), reasons_(reasons) {}
  // Interns each reason: for a fixed vocabulary of texts.
  static Status WithReasons(Code code, std::initializer_list<std::string_view> reasons);
  // A status whose one reason is free text (not interned).
  static Status WithText(Code code, std::string text);
  static Status Error(std::string text) { return WithText(Code::kError, std::move(text)); }
  static Status Skip() { return Status(Code::kSkip); }
  static Status Wait() { return Status(Code::kWait); }

  Code code() const { return code_; }
  bool IsSuccess() const { return code_ == Code::kSuccess; }
  bool IsSkip() const { return code_ == Code::kSkip; }
  bool IsWait() const { return code_ == Code::kWait; }
  bool IsError() const { return code_ == Code::kError; }
  // Unschedulable, UnschedulableAndUnresolvable or Pending.
  bool IsRejected() const {
    return code_ == Code::kUnschedulable || code_ == Code::kUnschedulableAndUnresolvable ||
           code_ == Code::kPending;
  }

  // The plugin that produced a rejection or error; empty when none was set.
  Symbol plugin() const { return plugin_; }
  Status& WithPlugin(Symbol plugin) {
    plugin_ = plugin;
    return *this;
  }

  // Reasons in the order added; owned text (if any) comes last.
  std::vector<std::string> Reasons() const;
  size_t num_reasons() const { return reasons_.size() + (text_ ? 1 : 0); }
  std::string_view reason(size_t i) const;
  void AppendReason(Symbol reason) { reasons_.push_back(reason); }
  // Reasons joined with ", " (upstream's Message()).
  std::string Message() const;
  // "<Code>: <message>" for logs and test failures.
  std::string ToString() const;

  friend bool operator==(const Status& a, const Status& b);

 private:
  explicit Status(Code code) : code_(code) {}

  Code code_ = Code::kSuccess;
  Symbol plugin_;
  absl::InlinedVector<Symbol, 2> reasons_;
  std::shared_ptr<const std::string> text_;
};

// Score range every Score plugin's normalized output must respect.
inline constexpr int64_t kMaxNodeScore = 100;
inline constexpr int64_t kMinNodeScore = 0;

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_STATUS_H_
