#include "e2e/fault_proxy.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <utility>

#include "absl/time/clock.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::e2e {
namespace {

// One upstream reply, filled by the thread that reads it.
struct Upstream {
  std::mutex mu;
  std::condition_variable cv;
  int status = 0;
  std::string content_type;
  std::deque<std::string> chunks;
  bool done = false;
  std::atomic<bool> cancel{false};
};

httplib::Headers ForwardedHeaders(const httplib::Request& req, const std::string& token) {
  httplib::Headers out;
  for (const char* name : {"Authorization", "Accept", "Content-Type", "User-Agent"}) {
    if (req.has_header(name)) out.emplace(name, req.get_header_value(name));
  }
  if (!req.has_header("Authorization") && !token.empty()) out.emplace("Authorization", "Bearer " + token);
  return out;
}

// Reads the upstream reply on a thread of its own (a watch may stream for
// minutes); detached, it ends when the upstream reply ends or the client
// has gone.
std::shared_ptr<Upstream> StartUpstream(const std::string& host, int port, const std::string& ca_file,
                                        const std::string& token, const httplib::Request& req) {
  auto up = std::make_shared<Upstream>();
  httplib::Request forwarded;
  forwarded.method = req.method;
  forwarded.path = req.target;
  forwarded.headers = ForwardedHeaders(req, token);
  forwarded.body = req.body;
  std::thread([up, host, port, ca_file, forwarded = std::move(forwarded)]() mutable {
    httplib::SSLClient client(host, port);
    client.set_ca_cert_path(ca_file.c_str());
    client.enable_server_certificate_verification(true);
    client.set_read_timeout(std::chrono::seconds(700));
    forwarded.response_handler = [up](const httplib::Response& r) {
      std::lock_guard<std::mutex> lock(up->mu);
      up->status = r.status;
      up->content_type = r.get_header_value("Content-Type");
      up->cv.notify_all();
      return true;
    };
    forwarded.content_receiver = [up](const char* data, size_t n, uint64_t, uint64_t) {
      if (up->cancel.load()) return false;
      std::lock_guard<std::mutex> lock(up->mu);
      up->chunks.emplace_back(data, n);
      up->cv.notify_all();
      return true;
    };
    httplib::Response res;
    httplib::Error error = httplib::Error::Success;
    (void)client.send(forwarded, res, error);
    std::lock_guard<std::mutex> lock(up->mu);
    if (up->status == 0) up->status = 502;
    up->done = true;
    up->cv.notify_all();
  }).detach();
  return up;
}

}  // namespace

absl::StatusOr<std::unique_ptr<FaultProxy>> FaultProxy::Start(const std::string& upstream,
                                                              const std::string& ca_file) {
  std::unique_ptr<FaultProxy> proxy(new FaultProxy());
  const std::string hostport = upstream.substr(upstream.find("://") + 3);
  proxy->upstream_host_ = hostport.substr(0, hostport.find(':'));
  proxy->upstream_port_ = std::stoi(hostport.substr(hostport.find(':') + 1));
  proxy->ca_file_ = ca_file;
  proxy->server_ = std::make_unique<httplib::Server>();
  httplib::Server& server = *proxy->server_;
  // Every reflector holds a watch open: more threads than httplib's default.
  server.new_task_queue = [] { return new httplib::ThreadPool(96); };
  FaultProxy* self = proxy.get();
  auto handle = [self](const httplib::Request& req, httplib::Response& res) {
    Request request{req.method, req.target, req.body, absl::Now()};
    std::optional<Fault> fault = self->Match(request);
    if (fault && fault->kind == Fault::Kind::kRespond) {
      res.status = fault->status;
      res.set_content(fault->body, "application/json");
      self->Log(std::move(request), fault->status);
      return;
    }
    if (fault && fault->kind == Fault::Kind::kWatchError) {
      // A 200 stream whose only event is an ERROR, as the watch cache
      // reports an expired resourceVersion.
      res.status = 200;
      res.set_content(schedkit::StrCat(R"({"type":"ERROR","object":)", fault->body, "}\n"), "application/json");
      self->Log(std::move(request), 200);
      return;
    }
    if (fault && fault->kind == Fault::Kind::kDelay) {
      std::this_thread::sleep_for(absl::ToChronoMilliseconds(fault->delay));
    }
    std::shared_ptr<Upstream> up = StartUpstream(self->upstream_host_, self->upstream_port_, self->ca_file_,
                                                         self->token(), req);
    std::unique_lock<std::mutex> lock(up->mu);
    up->cv.wait_for(lock, std::chrono::seconds(60), [&] { return up->status != 0; });
    const int status = up->status;
    self->Log(std::move(request), status);
    if (status != 200 || req.target.find("watch=true") == std::string::npos) {
      up->cv.wait_for(lock, std::chrono::seconds(60), [&] { return up->done; });
      std::string body;
      for (const std::string& c : up->chunks) body += c;
      res.status = status == 0 ? 502 : status;
      res.set_content(body, up->content_type.empty() ? "application/json" : up->content_type);
      return;
    }
    res.status = 200;
    res.set_chunked_content_provider(
        up->content_type,
        [up](size_t, httplib::DataSink& sink) {
          std::unique_lock<std::mutex> l(up->mu);
          up->cv.wait_for(l, std::chrono::seconds(1), [&] { return !up->chunks.empty() || up->done; });
          while (!up->chunks.empty()) {
            std::string chunk = std::move(up->chunks.front());
            up->chunks.pop_front();
            l.unlock();
            if (!sink.write(chunk.data(), chunk.size())) return false;
            l.lock();
          }
          if (up->done) sink.done();
          return true;
        },
        [up](bool) { up->cancel = true; });
  };
  server.Get(".*", handle);
  server.Post(".*", handle);
  server.Put(".*", handle);
  server.Patch(".*", handle);
  server.Delete(".*", handle);
  proxy->port_ = server.bind_to_any_port("127.0.0.1");
  if (proxy->port_ <= 0) return absl::InternalError("the fault proxy cannot listen");
  proxy->thread_ = std::thread([&server] { server.listen_after_bind(); });
  for (int i = 0; i < 500 && !server.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return proxy;
}

FaultProxy::~FaultProxy() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string FaultProxy::url() const { return schedkit::StrCat("http://127.0.0.1:", port_); }

void FaultProxy::AddRule(Rule rule) {
  std::lock_guard<std::mutex> lock(mu_);
  rules_.push_back(std::move(rule));
}

std::optional<FaultProxy::Fault> FaultProxy::Match(const Request& request) {
  std::lock_guard<std::mutex> lock(mu_);
  for (Rule& rule : rules_) {
    if (auto fault = rule(request)) return fault;
  }
  return std::nullopt;
}

void FaultProxy::SetToken(std::string token) {
  std::lock_guard<std::mutex> lock(mu_);
  token_ = std::move(token);
}

std::string FaultProxy::token() const {
  std::lock_guard<std::mutex> lock(mu_);
  return token_;
}

void FaultProxy::Log(Request request, int status) {
  std::lock_guard<std::mutex> lock(mu_);
  records_.push_back({std::move(request), status});
}

std::vector<FaultProxy::Record> FaultProxy::records() const {
  std::lock_guard<std::mutex> lock(mu_);
  return records_;
}

std::map<std::string, int> FaultProxy::AcceptedBindings() const {
  std::map<std::string, int> out;
  for (const Record& r : records()) {
    if (r.request.method != "POST" || r.status != 201 || !r.request.target.ends_with("/binding")) continue;
    // /api/v1/namespaces/NS/pods/NAME/binding
    const std::string& t = r.request.target;
    const size_t ns_start = t.find("/namespaces/") + 12;
    const size_t ns_end = t.find('/', ns_start);
    const size_t name_start = t.find("/pods/", ns_end) + 6;
    const size_t name_end = t.find('/', name_start);
    ++out[schedkit::StrCat(t.substr(ns_start, ns_end - ns_start), "/",
                           t.substr(name_start, name_end - name_start))];
  }
  return out;
}

namespace {

// A rule that fires on requests matching `method` (empty: any) and
// containing `needle`, `times` times.
FaultProxy::Rule Counted(std::string method, std::string needle, int times, FaultProxy::Fault fault) {
  auto left = std::make_shared<int>(times);
  return [=](const FaultProxy::Request& r) -> std::optional<FaultProxy::Fault> {
    if ((!method.empty() && r.method != method) || r.target.find(needle) == std::string::npos) return std::nullopt;
    if (*left <= 0) return std::nullopt;
    --*left;
    return fault;
  };
}

}  // namespace

FaultProxy::Rule RespondOnce(std::string method, std::string target_contains, int status, std::string body,
                             int times) {
  FaultProxy::Fault f;
  f.kind = FaultProxy::Fault::Kind::kRespond;
  f.status = status;
  f.body = std::move(body);
  return Counted(std::move(method), std::move(target_contains), times, std::move(f));
}

FaultProxy::Rule WatchErrorOnce(std::string target_contains, int code, std::string reason, int times) {
  FaultProxy::Fault f;
  f.kind = FaultProxy::Fault::Kind::kWatchError;
  f.body = nlohmann::json{{"kind", "Status"},
                          {"apiVersion", "v1"},
                          {"status", "Failure"},
                          {"message", "too old resource version: 1 (2)"},
                          {"reason", reason},
                          {"code", code}}
               .dump();
  return Counted("GET", std::move(target_contains), times, std::move(f));
}

FaultProxy::Rule DelayOnce(std::string method, std::string target_contains, absl::Duration delay, int times) {
  FaultProxy::Fault f;
  f.kind = FaultProxy::Fault::Kind::kDelay;
  f.delay = delay;
  return Counted(std::move(method), std::move(target_contains), times, std::move(f));
}

}  // namespace schedkit::e2e
