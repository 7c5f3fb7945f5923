// Function declarations of cel-go v0.29.2 extensions the Kubernetes base environment enables: ext.Strings v2,
// ext.Lists v3 and ext.Sets, as the DRA device
// selector environment declares them: function, overload id,
// call style, argument types (the member call's receiver first) and result type, in
// declaration order. Written from that environment's `celoracle functions` listing;
// tests/cel/checker_test.cc compares every table with it.
#include "cel/declarations.h"

namespace schedkit::cel {
namespace {

constexpr bool kMember = true;
constexpr bool kGlobal = false;

constexpr OverloadSpec kOverloads[] = {
    {"@sortByAssociatedKeys", "list_int_sortByAssociatedKeys", kMember, "list(<T>), list(int)", "list(<T>)"},
    {"@sortByAssociatedKeys", "list_uint_sortByAssociatedKeys",
     kMember, "list(<T>), list(uint)", "list(<T>)"},
    {"@sortByAssociatedKeys", "list_double_sortByAssociatedKeys",
     kMember, "list(<T>), list(double)", "list(<T>)"},
    {"@sortByAssociatedKeys", "list_bool_sortByAssociatedKeys",
     kMember, "list(<T>), list(bool)", "list(<T>)"},
    {"@sortByAssociatedKeys", "list_google.protobuf.Duration_sortByAssociatedKeys",
     kMember, "list(<T>), list(google.protobuf.Duration)", "list(<T>)"},
    {"@sortByAssociatedKeys", "list_google.protobuf.Timestamp_sortByAssociatedKeys",
     kMember, "list(<T>), list(google.protobuf.Timestamp)", "list(<T>)"},
    {"@sortByAssociatedKeys", "list_string_sortByAssociatedKeys",
     kMember, "list(<T>), list(string)", "list(<T>)"},
    {"@sortByAssociatedKeys", "list_bytes_sortByAssociatedKeys",
     kMember, "list(<T>), list(bytes)", "list(<T>)"},
    {"charAt", "string_char_at_int", kMember, "string, int", "string"},
    {"distinct", "list_distinct", kMember, "list(<T>)", "list(<T>)"},
    {"first", "list_first", kMember, "list(<V>)", "optional_type(<V>)"},
    {"flatten", "list_flatten", kMember, "list(list(<T>))", "list(<T>)"},
    {"flatten", "list_flatten_int", kMember, "list(dyn), int", "list(dyn)"},
    {"format", "string_format", kMember, "string, list(dyn)", "string"},
    {"indexOf", "string_index_of_string", kMember, "string, string", "int"},
    {"indexOf", "string_index_of_string_int", kMember, "string, string, int", "int"},
    {"join", "list_join", kMember, "list(string)", "string"},
    {"join", "list_join_string", kMember, "list(string), string", "string"},
    {"last", "list_last", kMember, "list(<V>)", "optional_type(<V>)"},
    {"lastIndexOf", "string_last_index_of_string", kMember, "string, string", "int"},
    {"lastIndexOf", "string_last_index_of_string_int", kMember, "string, string, int", "int"},
    {"lists.range", "lists_range", kGlobal, "int", "list(int)"},
    {"lowerAscii", "string_lower_ascii", kMember, "string", "string"},
    {"replace", "string_replace_string_string", kMember, "string, string, string", "string"},
    {"replace", "string_replace_string_string_int", kMember, "string, string, string, int", "string"},
    {"reverse", "list_reverse", kMember, "list(<T>)", "list(<T>)"},
    {"sets.contains", "list_sets_contains_list", kGlobal, "list(<T>), list(<T>)", "bool"},
    {"sets.equivalent", "list_sets_equivalent_list", kGlobal, "list(<T>), list(<T>)", "bool"},
    {"sets.intersects", "list_sets_intersects_list", kGlobal, "list(<T>), list(<T>)", "bool"},
    {"slice", "list_slice", kMember, "list(<T>), int, int", "list(<T>)"},
    {"sort", "list_int_sort", kMember, "list(int)", "list(int)"},
    {"sort", "list_uint_sort", kMember, "list(uint)", "list(uint)"},
    {"sort", "list_double_sort", kMember, "list(double)", "list(double)"},
    {"sort", "list_bool_sort", kMember, "list(bool)", "list(bool)"},
    {"sort", "list_google.protobuf.Duration_sort",
     kMember, "list(google.protobuf.Duration)", "list(google.protobuf.Duration)"},
    {"sort", "list_google.protobuf.Timestamp_sort",
     kMember, "list(google.protobuf.Timestamp)", "list(google.protobuf.Timestamp)"},
    {"sort", "list_string_sort", kMember, "list(string)", "list(string)"},
    {"sort", "list_bytes_sort", kMember, "list(bytes)", "list(bytes)"},
    {"split", "string_split_string", kMember, "string, string", "list(string)"},
    {"split", "string_split_string_int", kMember, "string, string, int", "list(string)"},
    {"strings.quote", "strings_quote", kGlobal, "string", "string"},
    {"substring", "string_substring_int", kMember, "string, int", "string"},
    {"substring", "string_substring_int_int", kMember, "string, int, int", "string"},
    {"trim", "string_trim", kMember, "string", "string"},
    {"upperAscii", "string_upper_ascii", kMember, "string", "string"},
};

}  // namespace

std::span<const OverloadSpec> ExtensionLibraryOverloads() { return kOverloads; }

}  // namespace schedkit::cel
