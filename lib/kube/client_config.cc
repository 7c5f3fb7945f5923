// Kubeconfig and in-cluster loading (client-go's clientcmd and
// rest.InClusterConfig, v0.35): merge the files, pick the context, resolve
// its cluster and user, and read the files they name.
#include "schedkit/kube/client_config.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "api/json_documents.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube {
namespace {

using nlohmann::json;

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(schedkit::StrCat(path, ": cannot open file"));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return absl::DataLossError(schedkit::StrCat(path, ": read error"));
  return ss.str();
}

// One kubeconfig file's named entries and current-context.
struct KubeconfigFile {
  std::string path;
  std::string dir;  // relative file names are taken from here
  std::map<std::string, json> clusters, users, contexts;
  std::string current_context;
};

// `field` of `obj` as a string ("" when absent); YAML booleans and numbers
// arrive as text, JSON ones as values.
absl::StatusOr<std::string> StringField(const json& obj, const char* field, std::string_view where) {
  auto it = obj.find(field);
  if (it == obj.end() || it->is_null()) return std::string();
  if (it->is_string()) return it->get<std::string>();
  return absl::InvalidArgumentError(
      schedkit::StrCat(where, ".", field, ": want a string, got ", api::internal::DescribeType(*it)));
}

absl::StatusOr<bool> BoolField(const json& obj, const char* field, std::string_view where) {
  auto it = obj.find(field);
  if (it == obj.end() || it->is_null()) return false;
  if (it->is_boolean()) return it->get<bool>();
  if (it->is_string()) {
    const std::string& s = it->get_ref<const std::string&>();
    if (s == "true") return true;
    if (s == "false") return false;
  }
  return absl::InvalidArgumentError(schedkit::StrCat(where, ".", field, ": want true or false"));
}

// The named entries of a top-level list (`clusters`, `users`, `contexts`):
// each item {name, <inner>}. A name listed twice keeps its first entry.
absl::Status ReadNamed(const json& doc, const char* list, const char* inner,
                       std::map<std::string, json>& out) {
  auto it = doc.find(list);
  if (it == doc.end() || it->is_null()) return absl::OkStatus();
  if (!it->is_array()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(list, ": want a list, got ", api::internal::DescribeType(*it)));
  }
  for (size_t i = 0; i < it->size(); ++i) {
    const json& item = (*it)[i];
    const std::string where = schedkit::StrCat(list, "[", i, "]");
    if (!item.is_object()) return absl::InvalidArgumentError(schedkit::StrCat(where, ": want an object"));
    SCHEDKIT_ASSIGN_OR_RETURN(std::string name, StringField(item, "name", where));
    if (name.empty()) return absl::InvalidArgumentError(schedkit::StrCat(where, ".name: required"));
    auto body = item.find(inner);
    json value = body == item.end() || body->is_null() ? json::object() : *body;
    if (!value.is_object()) {
      return absl::InvalidArgumentError(schedkit::StrCat(where, ".", inner, ": want an object"));
    }
    out.try_emplace(name, std::move(value));
  }
  return absl::OkStatus();
}

absl::StatusOr<KubeconfigFile> ParseKubeconfig(const std::string& path, std::string_view text) {
  KubeconfigFile f;
  f.path = path;
  f.dir = std::filesystem::path(path).parent_path().string();
  SCHEDKIT_ASSIGN_OR_RETURN(std::vector<json> docs, api::internal::ParseDocuments(text, path));
  if (docs.empty()) return f;  // an empty file defines nothing, as clientcmd reads it
  if (docs.size() > 1 || !docs[0].is_object()) {
    return absl::InvalidArgumentError(schedkit::StrCat(path, ": want one kubeconfig object"));
  }
  const json& doc = docs[0];
  auto prefixed = [&](absl::Status s) {
    return absl::Status(s.code(), schedkit::StrCat(path, ": ", s.message()));
  };
  if (absl::Status s = ReadNamed(doc, "clusters", "cluster", f.clusters); !s.ok()) return prefixed(s);
  if (absl::Status s = ReadNamed(doc, "users", "user", f.users); !s.ok()) return prefixed(s);
  if (absl::Status s = ReadNamed(doc, "contexts", "context", f.contexts); !s.ok()) return prefixed(s);
  auto current = StringField(doc, "current-context", "");
  if (!current.ok()) return prefixed(absl::InvalidArgumentError("current-context: want a string"));
  f.current_context = *current;
  return f;
}

// A file name from a kubeconfig, taken from the file's directory when relative.
std::string Resolve(const KubeconfigFile& f, const std::string& name) {
  if (name.empty() || std::filesystem::path(name).is_absolute() || f.dir.empty()) return name;
  return (std::filesystem::path(f.dir) / name).string();
}

// PEM from `<field>-data` (base64) or from the file `<field>`.
absl::StatusOr<std::string> PemField(const KubeconfigFile& f, const json& obj, const std::string& field,
                                     std::string_view where) {
  SCHEDKIT_ASSIGN_OR_RETURN(std::string data, StringField(obj, (field + "-data").c_str(), where));
  SCHEDKIT_ASSIGN_OR_RETURN(std::string file, StringField(obj, field.c_str(), where));
  if (!data.empty()) {
    std::string pem;
    if (!absl::Base64Unescape(data, &pem)) {
      return absl::InvalidArgumentError(schedkit::StrCat(where, ".", field, "-data: not valid base64"));
    }
    return pem;
  }
  if (file.empty()) return std::string();
  auto pem = ReadWholeFile(Resolve(f, file));
  if (!pem.ok()) {
    return absl::InvalidArgumentError(schedkit::StrCat(where, ".", field, ": ", pem.status().message()));
  }
  return pem;
}

// The cluster's server and TLS trust.
absl::Status ApplyCluster(const KubeconfigFile& f, const json& cluster, std::string_view where,
                          ClientConfig& out) {
  SCHEDKIT_ASSIGN_OR_RETURN(out.server, StringField(cluster, "server", where));
  SCHEDKIT_ASSIGN_OR_RETURN(out.transport.ca_pem, PemField(f, cluster, "certificate-authority", where));
  SCHEDKIT_ASSIGN_OR_RETURN(out.transport.tls_server_name, StringField(cluster, "tls-server-name", where));
  SCHEDKIT_ASSIGN_OR_RETURN(out.transport.insecure_skip_tls_verify,
                            BoolField(cluster, "insecure-skip-tls-verify", where));
  SCHEDKIT_ASSIGN_OR_RETURN(out.transport.proxy_url, StringField(cluster, "proxy-url", where));
  if (out.transport.insecure_skip_tls_verify && !out.transport.ca_pem.empty()) {
    return absl::InvalidArgumentError(schedkit::StrCat(
        where, ".insecure-skip-tls-verify: cannot be set with certificate-authority (verify or do not)"));
  }
  return absl::OkStatus();
}

// The user's credentials; only the methods a program needs no helper for.
absl::Status ApplyUser(const KubeconfigFile& f, const json& user, std::string_view where, ClientConfig& out) {
  for (const char* needs_helper : {"exec", "auth-provider"}) {
    if (user.contains(needs_helper) && !user[needs_helper].is_null()) {
      return absl::UnimplementedError(schedkit::StrCat(
          where, ".", needs_helper,
          ": credential plugins are not supported; use a token, a token file or a client certificate"));
    }
  }
  for (const char* impersonation : {"as", "as-uid", "as-groups", "as-user-extra"}) {
    if (user.contains(impersonation) && !user[impersonation].is_null()) {
      return absl::UnimplementedError(
          schedkit::StrCat(where, ".", impersonation, ": impersonation is not supported"));
    }
  }
  TransportConfig& t = out.transport;
  SCHEDKIT_ASSIGN_OR_RETURN(t.bearer_token, StringField(user, "token", where));
  SCHEDKIT_ASSIGN_OR_RETURN(std::string token_file, StringField(user, "tokenFile", where));
  t.bearer_token_file = Resolve(f, token_file);
  SCHEDKIT_ASSIGN_OR_RETURN(t.client_cert_pem, PemField(f, user, "client-certificate", where));
  SCHEDKIT_ASSIGN_OR_RETURN(t.client_key_pem, PemField(f, user, "client-key", where));
  SCHEDKIT_ASSIGN_OR_RETURN(t.username, StringField(user, "username", where));
  SCHEDKIT_ASSIGN_OR_RETURN(t.password, StringField(user, "password", where));
  if (t.client_cert_pem.empty() != t.client_key_pem.empty()) {
    return absl::InvalidArgumentError(schedkit::StrCat(
        where, t.client_cert_pem.empty() ? ".client-certificate" : ".client-key",
        ": required with ", t.client_cert_pem.empty() ? "client-key" : "client-certificate"));
  }
  const bool token = !t.bearer_token.empty() || !t.bearer_token_file.empty();
  const bool basic = !t.username.empty() || !t.password.empty();
  if (token && basic) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(where, ": more than one authentication method (token and username/password)"));
  }
  if (!t.bearer_token_file.empty()) {
    // Read now so a missing file fails at start, not at the first request.
    if (auto read = ReadWholeFile(t.bearer_token_file); !read.ok()) {
      return absl::InvalidArgumentError(schedkit::StrCat(where, ".tokenFile: ", read.status().message()));
    }
  }
  return absl::OkStatus();
}

// Checks the server URL: http or https, with a host.
absl::Status CheckServer(const std::string& server, std::string_view where) {
  std::string_view rest = server;
  if (rest.starts_with("https://")) {
    rest.remove_prefix(8);
  } else if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else {
    return absl::InvalidArgumentError(
        schedkit::StrCat(where, ": server \"", server, "\" is not an http:// or https:// URL"));
  }
  if (rest.empty() || rest.front() == '/') {
    return absl::InvalidArgumentError(schedkit::StrCat(where, ": server \"", server, "\" has no host"));
  }
  return absl::OkStatus();
}

std::string TrimTrailingSlashes(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

}  // namespace

EnvLookup ProcessEnv() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

absl::StatusOr<ClientConfig> LoadKubeconfig(const std::vector<std::string>& paths, std::string_view context,
                                            std::string_view master) {
  std::vector<KubeconfigFile> files;
  for (const std::string& path : paths) {
    if (path.empty()) continue;
    auto text = ReadWholeFile(path);
    if (!text.ok()) {
      // clientcmd skips the absent files of a KUBECONFIG list, not a lone one.
      if (paths.size() > 1 && !std::filesystem::exists(path)) continue;
      return absl::Status(text.status().code(), schedkit::StrCat("kubeconfig ", text.status().message()));
    }
    auto file = ParseKubeconfig(path, *text);
    if (!file.ok()) {
      return absl::InvalidArgumentError(schedkit::StrCat("kubeconfig ", file.status().message()));
    }
    files.push_back(std::move(*file));
  }
  const std::string names = absl::StrJoin(paths, ":");
  if (files.empty()) {
    return absl::NotFoundError(schedkit::StrCat("kubeconfig ", names, ": no such file"));
  }
  // Lookups over the merged files: the first file to define a name wins.
  auto find = [&](auto member, const std::string& name) -> std::pair<const KubeconfigFile*, const json*> {
    for (const KubeconfigFile& f : files) {
      auto it = (f.*member).find(name);
      if (it != (f.*member).end()) return {&f, &it->second};
    }
    return {nullptr, nullptr};
  };
  std::string context_name(context);
  if (context_name.empty()) {
    for (const KubeconfigFile& f : files) {
      if (!f.current_context.empty()) {
        context_name = f.current_context;
        break;
      }
    }
  }
  ClientConfig out;
  out.origin = schedkit::StrCat("kubeconfig ", names);
  if (context_name.empty()) {
    if (master.empty()) {
      return absl::InvalidArgumentError(
          schedkit::StrCat("kubeconfig ", names, ": no current-context set and no --context given"));
    }
  } else {
    out.origin = schedkit::StrCat("kubeconfig ", names, " (context ", context_name, ")");
    auto [ctx_file, ctx] = find(&KubeconfigFile::contexts, context_name);
    if (ctx == nullptr) {
      return absl::NotFoundError(
          schedkit::StrCat("kubeconfig ", names, ": context \"", context_name, "\" not found"));
    }
    const std::string ctx_where =
        schedkit::StrCat(ctx_file->path, ": contexts[name=", context_name, "].context");
    SCHEDKIT_ASSIGN_OR_RETURN(std::string cluster_name, StringField(*ctx, "cluster", ctx_where));
    SCHEDKIT_ASSIGN_OR_RETURN(std::string user_name, StringField(*ctx, "user", ctx_where));
    auto [cluster_file, cluster] = find(&KubeconfigFile::clusters, cluster_name);
    if (cluster == nullptr) {
      return absl::NotFoundError(
          schedkit::StrCat("kubeconfig ", ctx_where, ".cluster: cluster \"", cluster_name, "\" not found"));
    }
    const std::string cluster_where =
        schedkit::StrCat(cluster_file->path, ": clusters[name=", cluster_name, "].cluster");
    if (absl::Status s = ApplyCluster(*cluster_file, *cluster, cluster_where, out); !s.ok()) {
      return absl::Status(s.code(), schedkit::StrCat("kubeconfig ", s.message()));
    }
    if (!user_name.empty()) {
      auto [user_file, user] = find(&KubeconfigFile::users, user_name);
      if (user == nullptr) {
        return absl::NotFoundError(
            schedkit::StrCat("kubeconfig ", ctx_where, ".user: user \"", user_name, "\" not found"));
      }
      const std::string user_where = schedkit::StrCat(user_file->path, ": users[name=", user_name, "].user");
      if (absl::Status s = ApplyUser(*user_file, *user, user_where, out); !s.ok()) {
        return absl::Status(s.code(), schedkit::StrCat("kubeconfig ", s.message()));
      }
    }
  }
  if (!master.empty()) out.server = std::string(master);
  if (out.server.empty()) {
    return absl::InvalidArgumentError(schedkit::StrCat(out.origin, ": the cluster has no server"));
  }
  out.server = TrimTrailingSlashes(out.server);
  if (absl::Status s = CheckServer(out.server, out.origin); !s.ok()) return s;
  return out;
}

absl::StatusOr<ClientConfig> InClusterConfig(const EnvLookup& env, std::string_view account_dir) {
  const std::optional<std::string> host = env("KUBERNETES_SERVICE_HOST");
  const std::optional<std::string> port = env("KUBERNETES_SERVICE_PORT");
  if (!host || host->empty() || !port || port->empty()) {
    return absl::FailedPreconditionError(
        "in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined");
  }
  ClientConfig out;
  out.origin = "in-cluster service account";
  // An IPv6 address goes in brackets, as net.JoinHostPort writes it.
  const bool v6 = host->find(':') != std::string::npos;
  out.server = schedkit::StrCat("https://", v6 ? "[" : "", *host, v6 ? "]" : "", ":", *port);
  const std::string dir(account_dir);
  out.transport.bearer_token_file = schedkit::StrCat(dir, "/token");
  if (auto token = ReadWholeFile(out.transport.bearer_token_file); !token.ok()) {
    return absl::FailedPreconditionError(
        schedkit::StrCat("in-cluster configuration: service account token ", token.status().message()));
  }
  // As client-go: without a readable CA the system roots are used.
  if (auto ca = ReadWholeFile(schedkit::StrCat(dir, "/ca.crt")); ca.ok()) out.transport.ca_pem = *ca;
  return out;
}

absl::StatusOr<ClientConfig> BuildClientConfig(std::string_view master, std::string_view kubeconfig,
                                               const EnvLookup& env, std::string_view account_dir) {
  if (!kubeconfig.empty()) return LoadKubeconfig({std::string(kubeconfig)}, "", master);
  if (!master.empty()) {
    ClientConfig out;
    out.origin = schedkit::StrCat("--master ", master);
    out.server = TrimTrailingSlashes(std::string(master));
    if (absl::Status s = CheckServer(out.server, "--master"); !s.ok()) return s;
    return out;
  }
  if (env("KUBERNETES_SERVICE_HOST").has_value()) return InClusterConfig(env, account_dir);
  if (std::optional<std::string> list = env("KUBECONFIG"); list && !list->empty()) {
    return LoadKubeconfig(absl::StrSplit(*list, ':', absl::SkipEmpty()));
  }
  return absl::InvalidArgumentError(
      "no API server configured: give --kubeconfig or --master, set KUBECONFIG, or run in a pod");
}

}  // namespace schedkit::kube
