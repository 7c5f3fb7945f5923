#include "plugins/internal/args.h"

#include "api/json_documents.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins::internal {

absl::Status ArgsError(std::string_view plugin, std::string_view path, std::string_view problem) {
  if (path.empty()) return absl::InvalidArgumentError(schedkit::StrCat(plugin, " args: ", problem));
  return absl::InvalidArgumentError(schedkit::StrCat(plugin, " args: ", path, ": ", problem));
}

absl::StatusOr<nlohmann::json> ParseArgs(const framework::PluginArgs& args, std::string_view plugin) {
  if (args.empty()) return nlohmann::json::object();
  nlohmann::json j = nlohmann::json::parse(args.json(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return ArgsError(plugin, "", "malformed JSON");
  if (j.is_null()) return nlohmann::json::object();
  if (!j.is_object()) {
    return ArgsError(plugin, "", schedkit::StrCat("expected an object, got ", api::internal::DescribeType(j)));
  }
  return j;
}

absl::Status CheckKnownFields(const nlohmann::json& obj, std::string_view plugin, std::string_view path,
                              std::initializer_list<std::string_view> known) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& key = it.key();
    if (path.empty() && (key == "apiVersion" || key == "kind")) continue;
    bool ok = false;
    for (std::string_view k : known) ok = ok || key == k;
    if (!ok) {
      return ArgsError(plugin, path.empty() ? key : schedkit::StrCat(path, ".", key), "unknown field");
    }
  }
  return absl::OkStatus();
}

namespace {
std::string Join(std::string_view path, std::string_view key) {
  return path.empty() ? std::string(key) : schedkit::StrCat(path, ".", key);
}
}  // namespace

absl::Status ReadInt(const nlohmann::json& obj, std::string_view plugin, std::string_view path,
                     std::string_view key, int64_t& out) {
  auto it = obj.find(std::string(key));
  if (it == obj.end() || it->is_null()) return absl::OkStatus();
  if (!it->is_number_integer()) {
    return ArgsError(plugin, Join(path, key),
                     schedkit::StrCat("expected an integer, got ", api::internal::DescribeType(*it)));
  }
  out = it->get<int64_t>();
  return absl::OkStatus();
}

absl::Status ReadBool(const nlohmann::json& obj, std::string_view plugin, std::string_view path,
                      std::string_view key, bool& out) {
  auto it = obj.find(std::string(key));
  if (it == obj.end() || it->is_null()) return absl::OkStatus();
  if (!it->is_boolean()) {
    return ArgsError(plugin, Join(path, key),
                     schedkit::StrCat("expected a boolean, got ", api::internal::DescribeType(*it)));
  }
  out = it->get<bool>();
  return absl::OkStatus();
}

absl::Status ReadString(const nlohmann::json& obj, std::string_view plugin, std::string_view path,
                        std::string_view key, std::string& out) {
  auto it = obj.find(std::string(key));
  if (it == obj.end() || it->is_null()) return absl::OkStatus();
  if (!it->is_string()) {
    return ArgsError(plugin, Join(path, key),
                     schedkit::StrCat("expected a string, got ", api::internal::DescribeType(*it)));
  }
  out = it->get<std::string>();
  return absl::OkStatus();
}

}  // namespace schedkit::plugins::internal
