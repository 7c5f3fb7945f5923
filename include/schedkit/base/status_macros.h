// SCHEDKIT_RETURN_IF_ERROR and SCHEDKIT_ASSIGN_OR_RETURN: early returns for
// absl::Status and absl::StatusOr, which Debian's Abseil 20220623 lacks.
//
//   SCHEDKIT_RETURN_IF_ERROR(Validate(x));
//   SCHEDKIT_ASSIGN_OR_RETURN(Quantity q, Quantity::Parse(text));
#ifndef SCHEDKIT_BASE_STATUS_MACROS_H_
#define SCHEDKIT_BASE_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define SCHEDKIT_RETURN_IF_ERROR(expr)               \
  do {                                               \
    if (absl::Status _sk_status = (expr); !_sk_status.ok()) { \
      return _sk_status;                             \
    }                                                \
  } while (0)

#define SCHEDKIT_STATUS_CONCAT_INNER_(a, b) a##b
#define SCHEDKIT_STATUS_CONCAT_(a, b) SCHEDKIT_STATUS_CONCAT_INNER_(a, b)

#define SCHEDKIT_ASSIGN_OR_RETURN(lhs, expr) \
  SCHEDKIT_ASSIGN_OR_RETURN_IMPL_(SCHEDKIT_STATUS_CONCAT_(_sk_statusor_, __LINE__), lhs, expr)

#define SCHEDKIT_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                    \
  if (!statusor.ok()) return std::move(statusor).status();   \
  lhs = *std::move(statusor)

#endif  // SCHEDKIT_BASE_STATUS_MACROS_H_
