#include "schedkit/api/decode.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "schedkit/base/str_cat.h"
#include "api/go_format.h"
#include "api/json_documents.h"
#include "api/object_json.h"
#include "api/proto_json.h"
#include "schedkit/base/status_macros.h"

namespace schedkit::api {
namespace {

using nlohmann::json;

// Where an object came from, for error messages.
struct Origin {
  std::string_view source;
  size_t document;              // 1-based
  std::optional<size_t> item;   // index in a List's items
};

std::string Describe(const Origin& o, std::string_view kind, const json& obj) {
  std::string out = schedkit::StrCat(o.source, ": document ", o.document);
  if (o.item) schedkit::StrAppend(&out, ", items[", *o.item, "]");
  if (!kind.empty()) {
    std::string name = "<unnamed>";
    std::string ns;
    if (auto m = obj.find("metadata"); m != obj.end() && m->is_object()) {
      if (auto n = m->find("name"); n != m->end() && n->is_string()) name = n->get<std::string>();
      if (auto n = m->find("namespace"); n != m->end() && n->is_string()) ns = n->get<std::string>();
    }
    schedkit::StrAppend(&out, " (", kind, " ", ns.empty() ? "" : ns + "/", name, ")");
  }
  return out;
}

// `item_kind` is the kind implied by a typed list ("NodeList" → "Node"),
// used when an item omits its own, as the API server's lists do.
absl::Status DecodeObject(const json& obj, const Origin& origin, std::string_view item_kind, const KindSet& kinds,
                          DecodedCluster& out) {
  if (!obj.is_object()) {
    return absl::InvalidArgumentError(schedkit::StrCat(
        Describe(origin, "", obj), ": expected an object, got ", internal::DescribeType(obj)));
  }
  std::string kind(item_kind);
  if (auto kind_it = obj.find("kind"); kind_it != obj.end() && !kind_it->is_null()) {
    if (!kind_it->is_string()) {
      return absl::InvalidArgumentError(schedkit::StrCat(Describe(origin, "", obj), ": kind: expected a string, got ",
                                                         internal::DescribeType(*kind_it)));
    }
    kind = kind_it->get<std::string>();
  }
  if (kind.empty()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(Describe(origin, "", obj), ": kind: required string field missing"));
  }
  std::string api_version;
  if (auto v = obj.find("apiVersion"); v != obj.end() && v->is_string()) api_version = v->get<std::string>();
  const Kind* found = kinds.Find(kind, api_version);
  if (found == nullptr) {
    ++out.skipped_kinds[kind];
    return absl::OkStatus();
  }
  absl::StatusOr<AnyObject> decoded = internal::DecodeObjectJson(*found, obj);
  absl::Status s = decoded.status();
  if (s.ok()) out.objects.Add(*found, *std::move(decoded));
  if (s.ok()) {
    // Where the object came from, for the whole-cluster checks' errors.
    std::string name, ns;
    if (auto m = obj.find("metadata"); m != obj.end() && m->is_object()) {
      if (auto n = m->find("name"); n != m->end() && n->is_string()) name = n->get<std::string>();
      if (auto n = m->find("namespace"); n != m->end() && n->is_string()) ns = n->get<std::string>();
    }
    std::string where = schedkit::StrCat(origin.source, ": document ", origin.document);
    if (origin.item) schedkit::StrAppend(&where, ", items[", *origin.item, "]");
    out.sources.try_emplace(schedkit::StrCat(kind, " ", ns.empty() ? "" : ns + "/", name), where);
    if (ns.empty()) out.sources.try_emplace(schedkit::StrCat(kind, " default/", name), where);
    return s;
  }
  return absl::InvalidArgumentError(schedkit::StrCat(Describe(origin, kind, obj), ": ", s.message()));
}

bool IsList(const json& doc) {
  if (!doc.is_object()) return false;
  auto items = doc.find("items");
  if (items == doc.end()) return false;
  auto kind = doc.find("kind");
  return kind == doc.end() ||
         (kind->is_string() && kind->get<std::string>().ends_with("List"));
}

absl::StatusOr<std::string> ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(schedkit::StrCat(path.string(), ": cannot open file"));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return absl::DataLossError(schedkit::StrCat(path.string(), ": read error"));
  return ss.str();
}

// The kind a per-kind folder names, for objects written without `kind` (the
// layout of must-gather and insights archives: nodes/x.json,
// config/pod/<namespace>/x.json): the nearest folder between `root` and
// `file` named as a kind's resource ("nodes") or its kind in lower case
// ("node"). Empty when none is.
std::string FolderKind(const std::filesystem::path& root, const std::filesystem::path& file, const KindSet& kinds) {
  std::vector<std::string> folders;
  const std::filesystem::path relative = file.parent_path().lexically_relative(root.parent_path());
  for (const std::filesystem::path& part : relative) folders.push_back(part.string());
  for (auto it = folders.rbegin(); it != folders.rend(); ++it) {
    for (const Kind* kind : kinds) {
      std::string lower(kind->kind());
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      if (*it == kind->resource() || *it == lower) return std::string(kind->kind());
    }
  }
  return "";
}

// DecodeInto, with `folder_kind` for objects that omit their kind.
absl::Status DecodeText(std::string_view text, std::string_view source, DecodedCluster& out, const KindSet& kinds,
                        std::string_view folder_kind) {
  // As kubectl's YAML reader, text that is not UTF-8 is malformed (the JSON
  // parser checks its strings itself; YAML scalars would pass raw bytes on).
  if (const size_t bad = FirstInvalidUtf8(text); bad != std::string_view::npos) {
    const std::string_view before = text.substr(0, bad);
    const size_t line = 1 + std::count(before.begin(), before.end(), '\n');
    const size_t line_start = before.rfind('\n');
    const size_t column = bad - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
    return absl::InvalidArgumentError(
        schedkit::StrCat(source, ": line ", line, " column ", column, ": invalid UTF-8"));
  }
  SCHEDKIT_ASSIGN_OR_RETURN(std::vector<json> docs, internal::ParseDocuments(text, source));
  for (size_t d = 0; d < docs.size(); ++d) {
    const json& doc = docs[d];
    if (doc.is_null()) continue;
    if (IsList(doc)) {
      const json& items = doc["items"];
      if (items.is_null()) continue;
      if (!items.is_array()) {
        return absl::InvalidArgumentError(schedkit::StrCat(source, ": document ", d + 1,
                                                       ": items: expected a list, got ",
                                                       internal::DescribeType(items)));
      }
      std::string item_kind(folder_kind);
      if (auto k = doc.find("kind"); k != doc.end() && k->is_string()) {
        const std::string& list_kind = k->get_ref<const std::string&>();
        if (list_kind != "List") item_kind = list_kind.substr(0, list_kind.size() - 4);
      }
      for (size_t i = 0; i < items.size(); ++i) {
        SCHEDKIT_RETURN_IF_ERROR(DecodeObject(items[i], Origin{source, d + 1, i}, item_kind, kinds, out));
      }
    } else {
      SCHEDKIT_RETURN_IF_ERROR(DecodeObject(doc, Origin{source, d + 1, std::nullopt}, folder_kind, kinds, out));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status DecodeInto(std::string_view text, std::string_view source, DecodedCluster& out,
                        const KindSet& kinds) {
  return DecodeText(text, source, out, kinds, "");
}

absl::StatusOr<DecodedCluster> Decode(std::string_view text, std::string_view source, const KindSet& kinds) {
  DecodedCluster out;
  SCHEDKIT_RETURN_IF_ERROR(DecodeInto(text, source, out, kinds));
  return out;
}

absl::StatusOr<DecodedCluster> LoadPaths(const std::vector<std::string>& paths, const KindSet& kinds) {
  namespace fs = std::filesystem;
  DecodedCluster out;
  for (const std::string& p : paths) {
    std::error_code ec;
    std::vector<fs::path> files;
    if (fs::is_directory(p, ec)) {
      // As `kubectl apply -R`: every file below, directory symlinks not followed.
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        std::string ext = it->path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
        if (it->is_regular_file() && (ext == ".json" || ext == ".yaml" || ext == ".yml")) {
          files.push_back(it->path());
        }
      }
      if (ec) return absl::NotFoundError(schedkit::StrCat(p, ": cannot list directory: ", ec.message()));
      // path's operator< compares name by name, the order of a directory walk.
      std::sort(files.begin(), files.end());
    } else if (fs::exists(p, ec)) {
      files.push_back(p);
    } else {
      return absl::NotFoundError(schedkit::StrCat(p, ": no such file or directory"));
    }
    for (const fs::path& f : files) {
      SCHEDKIT_ASSIGN_OR_RETURN(std::string text, ReadFile(f));
      SCHEDKIT_RETURN_IF_ERROR(DecodeText(text, f.string(), out, kinds, FolderKind(fs::path(p), f, kinds)));
    }
  }
  absl::Status checked = ValidateCluster(out.objects);
  if (!checked.ok()) {
    // "Kind ns/name: field: problem" gains the object's file and document.
    const std::string message(checked.message());
    const size_t colon = message.find(": ");
    if (colon != std::string::npos) {
      if (auto it = out.sources.find(message.substr(0, colon)); it != out.sources.end()) {
        return absl::Status(checked.code(), schedkit::StrCat(it->second, " (", message.substr(0, colon), ")",
                                                             message.substr(colon)));
      }
    }
    return checked;
  }
  return out;
}

namespace {

// The objects of one kind have distinct namespace/name keys.
absl::Status CheckUniqueNames(const Kind& kind, const AnyObjectList& objects) {
  absl::flat_hash_map<std::string, size_t> seen;
  for (size_t i = 0; i < objects.size(); ++i) {
    const v1::ObjectMeta& m = kind.Meta(*objects[i]);
    const std::string key = m.namespace_().empty() ? m.name() : schedkit::StrCat(m.namespace_(), "/", m.name());
    auto [it, inserted] = seen.emplace(key, i);
    if (!inserted) {
      return absl::InvalidArgumentError(schedkit::StrCat(kind.kind(), " ", key, ": duplicate name (",
                                                         kind.resource(), " #", it->second + 1, " and #", i + 1,
                                                         " in load order)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateCluster(const ObjectSet& objects) {
  for (const Kind* kind : objects.kinds()) SCHEDKIT_RETURN_IF_ERROR(CheckUniqueNames(*kind, objects.List(*kind)));
  return absl::OkStatus();
}

}  // namespace schedkit::api
