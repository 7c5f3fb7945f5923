// Plugin args: what a plugin reads from its profile's pluginConfig[].args.
// A plugin declares its args once — fields, types, defaults, required
// fields, ranges, nested objects and lists — and decodes them with
// kube-scheduler's strict rules: an unknown field, a wrong type, a missing
// required field or a value out of range is an error naming the field.
//
//   struct SampleArgs {
//     std::string favorite_color;
//     int64_t favorite_number = 7;           // a default is the member's initializer
//     std::vector<std::string> thanks_to;
//   };
//   const framework::ArgsSpec<SampleArgs>& SampleArgsSpec() {
//     static const auto* spec = framework::ArgsSpec<SampleArgs>("Sample")
//         .Field("favoriteColor", &SampleArgs::favorite_color).Required()
//         .Field("favoriteNumber", &SampleArgs::favorite_number).Range(0, 100)
//         .Field("thanksTo", &SampleArgs::thanks_to)
//         .Leak();
//     return *spec;
//   }
//   // In the factory:
//   SCHEDKIT_ASSIGN_OR_RETURN(SampleArgs a, framework::DecodeArgs(args, SampleArgsSpec()));
//
// The effective configuration (--write-config-to, /configz) prints a
// plugin's args as it runs with them: DefaultedArgs decodes and writes them
// back (EncodeArgs), leaving out the fields marked OmitEmpty that are empty,
// as Go's `json:",omitempty"` does.
//
// Decoding follows upstream's order: the fields are read (the first type
// error or unknown field stops it), each object's Defaults run (upstream's
// SetDefaults_<Name>Args), then every Validate and range check runs and all
// of their problems are reported (apimachinery's aggregate, "[a, b]").
// A default or a check may depend on feature gates, as upstream's do (v1.37's
// DynamicResources filterTimeout exists only with DRASchedulerFilterTimeout):
// Defaults and Validate also take a function of the gates the scheduler runs
// with (PluginArgs::gates, FrameworkOptions::feature_gates):
//   .Defaults([](SampleArgs& a, const framework::FeatureGates& gates) {
//     if (gates.Enabled("SomeGate") && !a.timeout) a.timeout = absl::Seconds(10);
//   })
// Args written in a configuration file are reported where they were written,
// in one line naming the profile and the plugin:
//   sched.yaml: profiles[1].pluginConfig[0].args.favoriteNumber: Invalid value: 101: must be between 0 and 100, inclusive (plugin "Sample", profile "sample-scheduler")
// and args built in code as "<plugin> args: <field>: <problem>".
// JSON and YAML configurations decode alike: the configuration loader types
// YAML scalars as kube-scheduler does before the args reach a plugin.
//
// Field types: bool, int32_t, int64_t, double, std::string, absl::Duration
// (Go's duration text, "10s"), RawJson (any value, kept as JSON text), a
// Kubernetes API message (api/v1/*.h; decoded strictly), a struct with its
// own ArgsSpec, and std::vector / std::optional of any of them (optional: set
// when the field is present and not null).
//
// Threading: an ArgsSpec is built once and then only read (decoding is
// const and may run on any thread); DecodeArgs runs when a profile is built,
// never in a scheduling cycle.
#ifndef SCHEDKIT_FRAMEWORK_PLUGIN_ARGS_H_
#define SCHEDKIT_FRAMEWORK_PLUGIN_ARGS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/framework/feature_gates.h"

namespace google::protobuf {
class Message;
}  // namespace google::protobuf

namespace schedkit::framework {

// A plugin's arguments as the profile gave them: the JSON text of
// pluginConfig[].args and where it was written.
class PluginArgs {
 public:
  PluginArgs() = default;
  // Implicit, so that a profile built in code reads
  //   profile.plugin_args["NodeResourcesFit"] = R"({"scoringStrategy": {...}})";
  PluginArgs(std::string json) : json_(std::move(json)) {}  // NOLINT(google-explicit-constructor)
  PluginArgs(const char* json) : json_(json) {}             // NOLINT(google-explicit-constructor)

  // JSON text of the args object; empty when the profile gave none.
  const std::string& json() const { return json_; }
  bool empty() const { return json_.empty(); }

  // Where the args were written ("sched.yaml: profiles[1].pluginConfig[0].args");
  // empty for args built in code. Set by the configuration loader.
  const std::string& source() const { return source_; }
  void set_source(std::string source) { source_ = std::move(source); }

  // The profile and plugin the args were given to, for messages. Set by the
  // Framework before it calls the plugin's factory; empty otherwise.
  const std::string& profile() const { return profile_; }
  const std::string& plugin() const { return plugin_; }
  void set_owner(std::string profile, std::string plugin) {
    profile_ = std::move(profile);
    plugin_ = std::move(plugin);
  }

  // The feature gates the scheduler runs with, for defaults and checks that
  // depend on them (ArgsSpec::Defaults and Validate with gates). Set by the
  // Framework before it calls the plugin's factory (not owned); the
  // reference release's defaults otherwise.
  const FeatureGates& gates() const { return gates_ != nullptr ? *gates_ : FeatureGates::Default(); }
  void set_gates(const FeatureGates* gates) { gates_ = gates; }

  // The same args, wherever they were written.
  friend bool operator==(const PluginArgs& a, const PluginArgs& b) { return a.json_ == b.json_; }

 private:
  std::string json_;
  std::string source_;
  std::string profile_;
  std::string plugin_;
  const FeatureGates* gates_ = nullptr;
};

// "parent.child", or "parent[i]"; paths are relative to the args object
// ("" is the object itself), as apimachinery's field paths.
std::string ArgsPath(std::string_view parent, std::string_view child);
std::string ArgsPath(std::string_view parent, size_t index);

// Problems found in args, as apimachinery's field.ErrorList: a path and a
// problem each, in the order found. Validate hooks add to it.
class ArgsErrors {
 public:
  struct Entry {
    std::string path;
    std::string problem;
  };

  void Add(std::string_view path, std::string_view problem);
  // "Required value[: detail]".
  void Required(std::string_view path, std::string_view detail = {});
  // "Invalid value: <value>: <detail>", the value as Go's %v prints it:
  // strings Go-quoted, numbers plain.
  void Invalid(std::string_view path, std::string_view value, std::string_view detail);
  void Invalid(std::string_view path, int64_t value, std::string_view detail);
  // "Unsupported value: \"x\": supported values: \"a\", \"b\"".
  void NotSupported(std::string_view path, std::string_view value, std::span<const std::string_view> supported);
  // "Duplicate value: \"x\"".
  void Duplicate(std::string_view path, std::string_view value);
  // "Forbidden: <detail>".
  void Forbidden(std::string_view path, std::string_view detail);

  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  const std::vector<Entry>& entries() const { return entries_; }

  // OK when empty; else the one-line InvalidArgument DecodeArgs gives, for
  // args of `plugin` written at `args.source()` (see the file comment).
  absl::Status ToStatus(std::string_view plugin, const PluginArgs& args = {}) const;

 private:
  std::vector<Entry> entries_;
};

// Any JSON value, kept as compact JSON text: for a field a plugin decodes
// itself, or only needs to echo.
struct RawJson {
  std::string text;
};

// One value of the args document while it is decoded: its path, and readers
// that record a problem and return false when the value has another type.
// Made by DecodeArgs; an ArgsSpec's readers use it, and so may a plugin's
// own reader. Valid only during the decoding call that made it.
class ArgsValue {
 public:
  const std::string& path() const { return path_; }
  bool is_null() const;

  bool Read(bool& out) const;
  bool Read(int32_t& out) const;
  bool Read(int64_t& out) const;
  bool Read(double& out) const;
  bool Read(std::string& out) const;
  bool Read(absl::Duration& out) const;
  bool Read(RawJson& out) const;
  // Strict: a field the message does not have is an unknown field.
  bool ReadMessage(google::protobuf::Message& out) const;

  // A list: calls `element` for each item in order; false when this is not
  // a list or an element's reader returned false.
  bool ForEachElement(absl::FunctionRef<bool(const ArgsValue&)> element) const;
  // An object: calls `field(i, value)` for each key that is fields[i], in
  // the document's order, skipping null values; false when this is not an
  // object, a key is none of `fields` ("apiVersion" and "kind" are allowed
  // at the top), or a reader returned false. `seen[i]` is set for each
  // non-null field given.
  bool ForEachField(std::span<const std::string> fields, std::vector<bool>& seen,
                    absl::FunctionRef<bool(size_t, const ArgsValue&)> field) const;

  // Problems that are not about types (ranges, required fields, Validate):
  // all are reported, after decoding ends.
  ArgsErrors& validation_errors() const { return *validation_; }
  // The gates of the args being decoded (PluginArgs::gates).
  const FeatureGates& gates() const { return *gates_; }

 private:
  friend class ArgsDocument;
  ArgsValue(const void* node, std::string path, bool top, ArgsErrors* decode, ArgsErrors* validation,
            const FeatureGates* gates)
      : node_(node), path_(std::move(path)), top_(top), decode_(decode), validation_(validation), gates_(gates) {}
  bool Fail(std::string_view problem) const;

  const void* node_;
  std::string path_;
  bool top_;
  ArgsErrors* decode_;
  ArgsErrors* validation_;
  const FeatureGates* gates_;
};

// One value of an args document being written (EncodeArgs): the writing
// counterpart of ArgsValue, for the effective configuration that
// --write-config-to and /configz print. Made by EncodeArgs; valid only
// during the call that made it.
class ArgsOut {
 public:
  void Write(bool v);
  void Write(int32_t v);
  void Write(int64_t v);
  void Write(double v);
  void Write(const std::string& v);
  // Go's text for a duration ("10m0s"), as upstream's metav1.Duration.
  void Write(absl::Duration v);
  void Write(const RawJson& v);
  void WriteMessage(const google::protobuf::Message& v);
  void WriteNull();
  // Makes this value an empty list, or appends an element to it.
  void MakeList();
  ArgsOut Element();
  // Makes this value an empty object, or adds a member to it.
  void MakeObject();
  ArgsOut Member(std::string_view name);

 private:
  friend class ArgsDocument;
  explicit ArgsOut(void* node) : node_(node) {}
  void* node_;
};

template <typename T>
class ArgsSpec;

namespace args_internal {

template <typename M>
struct IsVector : std::false_type {};
template <typename E>
struct IsVector<std::vector<E>> : std::true_type {};
template <typename M>
struct IsOptional : std::false_type {};
template <typename E>
struct IsOptional<std::optional<E>> : std::true_type {};

// Reads a value of a leaf type, or a list or optional of one.
template <typename M>
bool ReadInto(const ArgsValue& v, M& out) {
  if constexpr (IsVector<M>::value) {
    out.clear();
    return v.ForEachElement([&](const ArgsValue& e) { return ReadInto(e, out.emplace_back()); });
  } else if constexpr (IsOptional<M>::value) {
    return ReadInto(v, out.emplace());
  } else if constexpr (std::is_base_of_v<google::protobuf::Message, M>) {
    return v.ReadMessage(out);
  } else {
    return v.Read(out);
  }
}

// Reads an object of a type with its own spec, or a list or optional of one.
template <typename M, typename N>
bool ReadWith(const ArgsValue& v, M& out, const ArgsSpec<N>& spec) {
  if constexpr (IsVector<M>::value) {
    out.clear();
    return v.ForEachElement([&](const ArgsValue& e) { return ReadWith(e, out.emplace_back(), spec); });
  } else if constexpr (IsOptional<M>::value) {
    return ReadWith(v, out.emplace(), spec);
  } else {
    static_assert(std::is_same_v<M, N>, "the nested spec must describe the member's type");
    return spec.DecodeObject(v, out);
  }
}

// The integer inside an int32_t/int64_t member or an optional one.
template <typename M>
std::optional<int64_t> IntegerOf(const M& m) {
  if constexpr (IsOptional<M>::value) {
    if (m.has_value()) return IntegerOf(*m);
    return std::nullopt;
  } else {
    return static_cast<int64_t>(m);
  }
}

// Writes a value of a leaf type, or a list or optional of one (an unset
// optional is null).
template <typename M>
void WriteFrom(ArgsOut out, const M& m) {
  if constexpr (IsVector<M>::value) {
    out.MakeList();
    for (const auto& e : m) WriteFrom(out.Element(), e);
  } else if constexpr (IsOptional<M>::value) {
    if (m.has_value()) {
      WriteFrom(out, *m);
    } else {
      out.WriteNull();
    }
  } else if constexpr (std::is_base_of_v<google::protobuf::Message, M>) {
    out.WriteMessage(m);
  } else {
    out.Write(m);
  }
}

// Writes an object of a type with its own spec, or a list or optional of one.
template <typename M, typename N>
void WriteWith(ArgsOut out, const M& m, const ArgsSpec<N>& spec) {
  if constexpr (IsVector<M>::value) {
    out.MakeList();
    for (const auto& e : m) WriteWith(out.Element(), e, spec);
  } else if constexpr (IsOptional<M>::value) {
    if (m.has_value()) {
      WriteWith(out, *m, spec);
    } else {
      out.WriteNull();
    }
  } else {
    spec.EncodeObject(m, out);
  }
}

// Go's encoding/json "empty" for omitempty: false, 0, "", an empty list, an
// unset optional. Objects are never empty (as Go's structs).
template <typename M>
bool IsEmpty(const M& m) {
  if constexpr (IsVector<M>::value) {
    return m.empty();
  } else if constexpr (IsOptional<M>::value) {
    return !m.has_value();
  } else if constexpr (std::is_same_v<M, std::string>) {
    return m.empty();
  } else if constexpr (std::is_same_v<M, bool> || std::is_arithmetic_v<M>) {
    return m == M{};
  } else if constexpr (std::is_same_v<M, absl::Duration>) {
    return m == absl::ZeroDuration();
  } else {
    return false;
  }
}

// Appends `nested`'s entries under `prefix`.
void AppendUnder(std::string_view prefix, const ArgsErrors& nested, ArgsErrors& out);
// Records "Invalid value: v: must be between lo and hi, inclusive"
// (apimachinery's InclusiveRangeError), or the one-sided "must be greater
// than or equal to lo" / "must be less than or equal to hi", when `value` is
// outside the bounds given.
void CheckRange(std::string_view path, int64_t value, std::optional<int64_t> lo, std::optional<int64_t> hi,
                ArgsErrors& out);

// Parses the document, runs `decode` on its top object and turns the
// problems into one InvalidArgument line.
absl::Status DecodeDocument(const PluginArgs& args, std::string_view fallback_plugin,
                            absl::FunctionRef<bool(const ArgsValue&)> decode);

// Runs `encode` on the top value of a new document and returns its compact
// JSON text.
std::string EncodeDocument(absl::FunctionRef<void(ArgsOut)> encode);

}  // namespace args_internal

// The declaration of an args type T: its fields by JSON name, with how to
// read each into a member of T.
template <typename T>
class ArgsSpec {
 public:
  // `name` stands for the plugin in messages when the args carry no owner
  // (a factory called directly, as in a unit test).
  explicit ArgsSpec(std::string name) : name_(std::move(name)) {}

  // A member of a leaf type (see the file comment), or a vector or optional
  // of one.
  template <typename M>
  ArgsSpec& Field(std::string name, M T::*member) {
    std::function<std::optional<int64_t>(const T&)> integer;
    if constexpr (IsInteger<M>()) integer = [member](const T& t) { return args_internal::IntegerOf(t.*member); };
    return AddField(std::move(name),
                    [member](const ArgsValue& v, T& out) { return args_internal::ReadInto(v, out.*member); },
                    std::move(integer), [member](const T& t, ArgsOut out) { args_internal::WriteFrom(out, t.*member); },
                    [member](const T& t) { return args_internal::IsEmpty(t.*member); });
  }
  // A member that is an object described by `nested` (or a vector or
  // optional of one). `nested` must outlive this spec.
  template <typename M, typename N>
  ArgsSpec& Field(std::string name, M T::*member, const ArgsSpec<N>& nested) {
    return AddField(std::move(name),
                    [member, &nested](const ArgsValue& v, T& out) {
                      return args_internal::ReadWith(v, out.*member, nested);
                    },
                    nullptr,
                    [member, &nested](const T& t, ArgsOut out) { args_internal::WriteWith(out, t.*member, nested); },
                    [member](const T& t) { return args_internal::IsEmpty(t.*member); });
  }
  // The field added last is left out of the written args when empty
  // (EncodeArgs), as Go's `json:",omitempty"`: false, 0, "", an empty list
  // or an unset optional. Without it an unset optional is written as null.
  ArgsSpec& OmitEmpty() {
    if (!fields_.empty()) fields_.back().omit_empty = true;
    return *this;
  }
  // The field added last must be given: absent or null is "Required value".
  ArgsSpec& Required() {
    if (!fields_.empty()) fields_.back().required = true;
    return *this;
  }
  // Inclusive bounds of the integer field added last (an optional one is
  // checked when set): outside is "Invalid value: v: must be between lo and
  // hi, inclusive" (or the one-sided "greater/less than or equal to").
  ArgsSpec& Min(int64_t lo) {
    if (!fields_.empty()) fields_.back().min = lo;
    return *this;
  }
  ArgsSpec& Max(int64_t hi) {
    if (!fields_.empty()) fields_.back().max = hi;
    return *this;
  }
  ArgsSpec& Range(int64_t lo, int64_t hi) { return Min(lo).Max(hi); }
  // Runs after an object of this type is read (upstream's SetDefaults).
  ArgsSpec& Defaults(std::function<void(T&)> defaults) {
    defaults_ = [d = std::move(defaults)](T& t, const FeatureGates&) { d(t); };
    return *this;
  }
  // The same, for defaults that depend on feature gates (as v1.37's
  // DynamicResources filterTimeout on DRASchedulerFilterTimeout).
  ArgsSpec& Defaults(std::function<void(T&, const FeatureGates&)> defaults) {
    defaults_ = std::move(defaults);
    return *this;
  }
  // Runs after decoding, with paths relative to the object (upstream's
  // Validate<Name>Args); all problems are reported.
  ArgsSpec& Validate(std::function<void(const T&, ArgsErrors&)> validate) {
    validate_ = [v = std::move(validate)](const T& t, const FeatureGates&, ArgsErrors& errs) { v(t, errs); };
    return *this;
  }
  // The same, for checks that depend on feature gates.
  ArgsSpec& Validate(std::function<void(const T&, const FeatureGates&, ArgsErrors&)> validate) {
    validate_ = std::move(validate);
    return *this;
  }
  // For a spec built in a function-local static: moves it to the heap, so
  // that it is never destroyed while another static refers to it.
  ArgsSpec* Leak() { return new ArgsSpec(std::move(*this)); }

  const std::string& name() const { return name_; }

  // Reads an object into `out`, then runs Defaults; range, required and
  // Validate problems go to v.validation_errors(). False on a decoding error.
  bool DecodeObject(const ArgsValue& v, T& out) const {
    std::vector<bool> seen(names_.size(), false);
    const bool ok = v.ForEachField(names_, seen, [&](size_t i, const ArgsValue& fv) {
      return fields_[i].read(fv, out);
    });
    if (!ok) return false;
    if (defaults_) defaults_(out, v.gates());
    ArgsErrors errs;
    for (size_t i = 0; i < fields_.size(); ++i) {
      const FieldEntry& f = fields_[i];
      if (f.required && !seen[i]) errs.Required(names_[i]);
      if (f.integer && (f.min || f.max)) {
        if (std::optional<int64_t> n = f.integer(out)) args_internal::CheckRange(names_[i], *n, f.min, f.max, errs);
      }
    }
    if (validate_) validate_(out, v.gates(), errs);
    args_internal::AppendUnder(v.path(), errs, v.validation_errors());
    return true;
  }

  // Writes `t` as an object: every field but the OmitEmpty ones that are
  // empty.
  void EncodeObject(const T& t, ArgsOut out) const {
    out.MakeObject();
    for (size_t i = 0; i < fields_.size(); ++i) {
      const FieldEntry& f = fields_[i];
      if (f.omit_empty && f.is_empty(t)) continue;
      f.write(t, out.Member(names_[i]));
    }
  }

 private:
  struct FieldEntry {
    std::function<bool(const ArgsValue&, T&)> read;
    std::function<void(const T&, ArgsOut)> write;
    std::function<bool(const T&)> is_empty;
    bool omit_empty = false;
    // The value of an integer field (int32_t, int64_t or an optional one),
    // for the bounds; null for other fields, whose bounds are ignored.
    std::function<std::optional<int64_t>(const T&)> integer;
    bool required = false;
    std::optional<int64_t> min;
    std::optional<int64_t> max;
  };

  template <typename M>
  static constexpr bool IsInteger() {
    if constexpr (args_internal::IsOptional<M>::value) {
      return IsInteger<typename M::value_type>();
    } else {
      return std::is_same_v<M, int32_t> || std::is_same_v<M, int64_t>;
    }
  }

  ArgsSpec& AddField(std::string name, std::function<bool(const ArgsValue&, T&)> read,
                     std::function<std::optional<int64_t>(const T&)> integer,
                     std::function<void(const T&, ArgsOut)> write, std::function<bool(const T&)> is_empty) {
    names_.push_back(std::move(name));
    FieldEntry entry;
    entry.read = std::move(read);
    entry.integer = std::move(integer);
    entry.write = std::move(write);
    entry.is_empty = std::move(is_empty);
    fields_.push_back(std::move(entry));
    return *this;
  }

  std::string name_;
  std::vector<std::string> names_;
  std::vector<FieldEntry> fields_;
  std::function<void(T&, const FeatureGates&)> defaults_;
  std::function<void(const T&, const FeatureGates&, ArgsErrors&)> validate_;
};

// Decodes `args` (empty is {}) by `spec`. InvalidArgument, in one line, on
// malformed JSON, the first decoding error, or every validation problem.
template <typename T>
absl::StatusOr<T> DecodeArgs(const PluginArgs& args, const ArgsSpec<T>& spec) {
  T out{};
  absl::Status s = args_internal::DecodeDocument(
      args, spec.name(), [&](const ArgsValue& top) { return spec.DecodeObject(top, out); });
  if (!s.ok()) return s;
  return out;
}

// A plugin's args as it runs with them, as JSON text (DefaultedArgs by its
// spec): what the effective configuration (--write-config-to, /configz)
// prints for the plugin. Registry::Add takes one for the plugins whose args
// are a kind of their own.
using ArgsDefaulter = std::function<absl::StatusOr<std::string>(const PluginArgs&)>;

// `args` as compact JSON text: the object `spec` describes, every field
// but the empty OmitEmpty ones (see OmitEmpty), keys sorted as Go writes a
// configuration. No apiVersion or kind.
template <typename T>
std::string EncodeArgs(const T& args, const ArgsSpec<T>& spec) {
  return args_internal::EncodeDocument([&](ArgsOut top) { spec.EncodeObject(args, top); });
}

// The args as the plugin runs with them: `args` decoded by `spec`, defaults
// filled in, written back (EncodeArgs). The decoding errors of DecodeArgs.
template <typename T>
absl::StatusOr<std::string> DefaultedArgs(const PluginArgs& args, const ArgsSpec<T>& spec) {
  absl::StatusOr<T> decoded = DecodeArgs(args, spec);
  if (!decoded.ok()) return decoded.status();
  return EncodeArgs(*decoded, spec);
}

// The ArgsDefaulter of args declared by `spec` (which must outlive it).
template <typename T>
ArgsDefaulter DefaultsBy(const ArgsSpec<T>& spec) {
  return [&spec](const PluginArgs& args) { return DefaultedArgs(args, spec); };
}

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_PLUGIN_ARGS_H_
