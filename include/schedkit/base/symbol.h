// Symbol: a process-wide interned string (label keys and values, namespaces,
// resource names, plugin names, reason texts) compared as a 32-bit id.
//
//   Symbol zone = Symbol::Intern("topology.kubernetes.io/zone");
//   if (label.key == zone) ...            // integer compare on the hot path
//   std::string_view text = zone.str();   // stable for the process lifetime
//
// Why: filters and scores compare labels and names per node; comparing ids
// instead of strings keeps those loops free of string work. Interning happens
// where objects are parsed (once per pod or node), never per node in a cycle.
// The table only grows; a long-running host with ever-new label values pays a
// few dozen bytes per distinct string.
// Thread-safe: Intern takes a lock; str() is lock-free.
#ifndef SCHEDKIT_BASE_SYMBOL_H_
#define SCHEDKIT_BASE_SYMBOL_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string_view>

namespace schedkit {

class Symbol {
 public:
  // The empty string; also what a default-constructed Symbol holds.
  constexpr Symbol() = default;

  static Symbol Intern(std::string_view text);
  // The symbol for `text` if it was ever interned; lets lookups of unknown
  // text fail fast without growing the table.
  static std::optional<Symbol> Find(std::string_view text);

  std::string_view str() const;
  uint32_t id() const { return id_; }
  bool empty() const { return id_ == 0; }

  // If the text is a base-10 integer (as Kubernetes' Gt/Lt selectors parse
  // label values), its value; computed once at interning.
  std::optional<int64_t> AsInt() const;

  friend bool operator==(Symbol a, Symbol b) { return a.id_ == b.id_; }
  // Orders by id (interning order), not by text; use str() to sort by text.
  friend std::strong_ordering operator<=>(Symbol a, Symbol b) { return a.id_ <=> b.id_; }
  template <typename H>
  friend H AbslHashValue(H h, Symbol s) {
    return H::combine(std::move(h), s.id_);
  }

 private:
  explicit constexpr Symbol(uint32_t id) : id_(id) {}
  uint32_t id_ = 0;
};

}  // namespace schedkit

#endif  // SCHEDKIT_BASE_SYMBOL_H_
