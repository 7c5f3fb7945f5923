#include "kube/health_server.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "httplib.h"
#include "kube/log.h"
#include "kube/self_signed.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube::internal {
namespace {

// What upstream's healthz handler writes for `path` ("livez", ...).
void ServeChecks(const std::vector<HealthCheck>& checks, std::string_view path, const httplib::Request& req,
                 httplib::Response& res) {
  std::vector<std::string> excluded;
  for (const auto& [key, value] : req.params) {
    if (key == "exclude") excluded.push_back(value);
  }
  const bool verbose = req.has_param("verbose");
  std::string lines;
  bool failed = false;
  for (const HealthCheck& c : checks) {
    if (std::find(excluded.begin(), excluded.end(), c.name) != excluded.end()) {
      schedkit::StrAppend(&lines, "[+]", c.name, " excluded: ok\n");
      continue;
    }
    const absl::Status s = c.check();
    if (s.ok()) {
      schedkit::StrAppend(&lines, "[+]", c.name, " ok\n");
    } else {
      failed = true;
      schedkit::StrAppend(&lines, "[-]", c.name, " failed: reason withheld\n");
      LogInfo(2, "healthz", schedkit::StrCat(path, " check ", c.name, " failed: ", s.message()));
    }
  }
  res.set_header("X-Content-Type-Options", "nosniff");
  if (failed) {
    res.status = 500;
    res.set_content(schedkit::StrCat(lines, path, " check failed\n"), "text/plain; charset=utf-8");
    return;
  }
  res.status = 200;
  res.set_content(verbose ? schedkit::StrCat(lines, path, " check passed\n") : std::string("ok"),
                  "text/plain; charset=utf-8");
}

void ServeOne(const std::vector<HealthCheck>& checks, const std::string& name, httplib::Response& res) {
  for (const HealthCheck& c : checks) {
    if (c.name != name) continue;
    const absl::Status s = c.check();
    res.status = s.ok() ? 200 : 500;
    res.set_content(
        s.ok() ? std::string("ok") : schedkit::StrCat("internal server error: ", name, " failed\n"),
        "text/plain; charset=utf-8");
    return;
  }
  res.status = 404;
  res.set_content("404 page not found\n", "text/plain; charset=utf-8");
}

}  // namespace

HealthServer::HealthServer(HealthServerOptions options) : options_(std::move(options)) {}

HealthServer::~HealthServer() { Stop(); }

absl::StatusOr<std::unique_ptr<HealthServer>> HealthServer::Start(HealthServerOptions options) {
  std::unique_ptr<HealthServer> hs(new HealthServer(std::move(options)));
  const HealthServerOptions& o = hs->options_;
  if (o.secure_port != 0) {
    std::unique_ptr<httplib::SSLServer> https;
    if (!o.tls_cert_file.empty() || !o.tls_private_key_file.empty()) {
      if (o.tls_cert_file.empty() || o.tls_private_key_file.empty()) {
        return absl::InvalidArgumentError("--tls-cert-file and --tls-private-key-file go together");
      }
      https = std::make_unique<httplib::SSLServer>(o.tls_cert_file.c_str(), o.tls_private_key_file.c_str());
      if (!https->is_valid()) {
        return absl::InvalidArgumentError(schedkit::StrCat("cannot load the certificate ", o.tls_cert_file,
                                                           " and key ", o.tls_private_key_file));
      }
    } else {
      auto self_signed = SelfSignedCertificate::Create();
      if (!self_signed.ok()) return self_signed.status();
      // The server keeps its own references to both.
      https = std::make_unique<httplib::SSLServer>((*self_signed)->cert(), (*self_signed)->key());
      if (!https->is_valid()) {
        return absl::InternalError("cannot set up HTTPS with a self-signed certificate");
      }
    }
    hs->servers_.push_back(std::move(https));
    if (absl::Status s = hs->Listen(*hs->servers_.back(), o.secure_port, "https"); !s.ok()) return s;
  }
  if (o.http_port != 0) {
    hs->servers_.push_back(std::make_unique<httplib::Server>());
    if (absl::Status s = hs->Listen(*hs->servers_.back(), o.http_port, "http"); !s.ok()) return s;
  }
  return hs;
}

absl::Status HealthServer::Listen(httplib::Server& server, int port, std::string_view scheme) {
  Route(server);
  // httplib's default adds SO_REUSEPORT, which would let a second scheduler
  // share the port silently; a port in use must be an error.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  const int bound = port < 0 ? server.bind_to_any_port(options_.bind_address)
                             : (server.bind_to_port(options_.bind_address, port) ? port : -1);
  if (bound <= 0) {
    return absl::UnavailableError(
        schedkit::StrCat("failed to listen on ", scheme, "://", options_.bind_address, ":", port));
  }
  (scheme == "https" ? secure_port_ : http_port_) = bound;
  threads_.emplace_back([&server] { server.listen_after_bind(); });
  // Stop only reaches a server that runs: wait for it (bounded).
  for (int i = 0; i < 5000 && !server.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return absl::OkStatus();
}

void HealthServer::Route(httplib::Server& server) {
  const HealthServerOptions& o = options_;
  using httplib::Request;
  using httplib::Response;
  server.Get("/livez", [&o](const Request& q, Response& r) { ServeChecks(o.livez, "livez", q, r); });
  server.Get("/readyz", [&o](const Request& q, Response& r) { ServeChecks(o.readyz, "readyz", q, r); });
  server.Get("/healthz", [&o](const Request& q, Response& r) { ServeChecks(o.healthz, "healthz", q, r); });
  server.Get(R"(/(livez|readyz|healthz)/([A-Za-z0-9_.-]+))", [&o](const Request& q, Response& r) {
    const std::string path = q.matches[1];
    ServeOne(path == "livez" ? o.livez : path == "readyz" ? o.readyz : o.healthz, q.matches[2], r);
  });
  server.Get("/configz", [&o](const httplib::Request&, httplib::Response& r) {
    r.set_content(o.configz ? o.configz() : std::string("{}"), "application/json");
  });
  server.Get("/metrics", [&o](const httplib::Request&, httplib::Response& r) {
    r.set_content(o.metrics ? o.metrics() : std::string(), "text/plain; version=0.0.4; charset=utf-8");
  });
}

void HealthServer::Stop() {
  for (auto& s : servers_) s->stop();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

}  // namespace schedkit::kube::internal
