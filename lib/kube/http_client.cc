// libcurl under HttpClient. Easy handles are pooled: a handle reset for the
// next request keeps its connections and TLS sessions, so requests after the
// first reuse them, and each thread in flight holds a handle of its own.
#include "schedkit/kube/http_client.h"

#include <curl/curl.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube {
namespace {

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// The parts of a server URL: scheme, host (brackets kept for IPv6), port
// and path prefix.
struct ServerUrl {
  std::string scheme, host, port, prefix;
};

absl::StatusOr<ServerUrl> ParseServer(const std::string& server) {
  ServerUrl u;
  std::string_view rest = server;
  const size_t sep = rest.find("://");
  if (sep == std::string_view::npos) {
    return absl::InvalidArgumentError(schedkit::StrCat(server, ": not a URL (want https://host:port)"));
  }
  u.scheme = std::string(rest.substr(0, sep));
  absl::AsciiStrToLower(&u.scheme);
  if (u.scheme != "https" && u.scheme != "http") {
    return absl::InvalidArgumentError(schedkit::StrCat(server, ": scheme must be https or http"));
  }
  rest.remove_prefix(sep + 3);
  const size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) u.prefix = std::string(rest.substr(slash));
  while (!u.prefix.empty() && u.prefix.back() == '/') u.prefix.pop_back();
  if (authority.find('@') != std::string_view::npos) {
    return absl::InvalidArgumentError(schedkit::StrCat(server, ": credentials do not belong in the URL"));
  }
  size_t colon = std::string_view::npos;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) {
      return absl::InvalidArgumentError(schedkit::StrCat(server, ": unterminated IPv6 address"));
    }
    if (close + 1 < authority.size() && authority[close + 1] == ':') colon = close + 1;
  } else {
    colon = authority.rfind(':');
  }
  u.host = std::string(authority.substr(0, colon));
  if (colon != std::string_view::npos) u.port = std::string(authority.substr(colon + 1));
  if (u.port.empty()) u.port = u.scheme == "https" ? "443" : "80";
  if (u.host.empty()) return absl::InvalidArgumentError(schedkit::StrCat(server, ": no host"));
  return u;
}

// Whether `pem` holds at least one certificate (or, for keys, a private key).
bool HasPemCertificate(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (bio == nullptr) return false;
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  const bool ok = cert != nullptr;
  X509_free(cert);
  BIO_free(bio);
  return ok;
}

bool HasPemPrivateKey(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (bio == nullptr) return false;
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  const bool ok = key != nullptr;
  EVP_PKEY_free(key);
  BIO_free(bio);
  return ok;
}

absl::StatusOr<std::string> ReadToken(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::UnauthenticatedError(schedkit::StrCat("token file ", path, ": cannot open file"));
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string token(absl::StripAsciiWhitespace(ss.str()));
  if (token.empty()) return absl::UnauthenticatedError(schedkit::StrCat("token file ", path, ": empty"));
  return token;
}

// What the write callback feeds: the collected body, or the caller's sink
// once a 2xx status has arrived.
struct Receiver {
  CURL* curl = nullptr;
  std::string* body = nullptr;
  absl::FunctionRef<bool(std::string_view)>* stream = nullptr;
  bool streaming_decided = false;
  bool streaming = false;
  bool stopped = false;  // the sink asked to stop
};

size_t OnData(char* data, size_t size, size_t count, void* user) {
  auto* r = static_cast<Receiver*>(user);
  const size_t len = size * count;
  if (r->stream != nullptr && !r->streaming_decided) {
    long status = 0;
    curl_easy_getinfo(r->curl, CURLINFO_RESPONSE_CODE, &status);
    r->streaming = status >= 200 && status < 300;
    r->streaming_decided = true;
  }
  if (r->streaming) {
    if (!(*r->stream)(std::string_view(data, len))) {
      r->stopped = true;
      return 0;  // libcurl ends the transfer with CURLE_WRITE_ERROR
    }
    return len;
  }
  r->body->append(data, len);
  return len;
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* cancel = static_cast<const std::atomic<bool>*>(user);
  return cancel->load(std::memory_order_relaxed) ? 1 : 0;
}

}  // namespace

class HttpClient::Impl {
 public:
  Impl(std::string server, ServerUrl url, TransportConfig transport, std::string user_agent)
      : server_(std::move(server)), transport_(std::move(transport)), user_agent_(std::move(user_agent)) {
    // With tls-server-name the URL names the server by that name, so libcurl
    // sends it as SNI and verifies it, and CONNECT_TO dials the real host.
    std::string host = url.host;
    if (!transport_.tls_server_name.empty()) {
      host = transport_.tls_server_name;
      connect_to_ = schedkit::StrCat(host, ":", url.port, ":", url.host, ":", url.port);
    }
    base_ = schedkit::StrCat(url.scheme, "://", host, ":", url.port, url.prefix);
  }

  ~Impl() {
    for (CURL* c : pool_) curl_easy_cleanup(c);
  }

  const std::string& server() const { return server_; }

  absl::StatusOr<HttpResponse> Perform(const HttpRequest& request,
                                       absl::FunctionRef<bool(std::string_view)>* stream) const {
    if (request.timeout < absl::Milliseconds(1)) {
      return absl::DeadlineExceededError(
          schedkit::StrCat(server_, ": ", request.method, " ", request.path, ": no time left for the request"));
    }
    std::string token;
    if (!transport_.bearer_token_file.empty()) {
      auto t = Token();
      if (!t.ok()) return absl::UnauthenticatedError(schedkit::StrCat(server_, ": ", t.status().message()));
      token = std::move(*t);
    } else {
      token = transport_.bearer_token;
    }
    CURL* curl = Take();
    if (curl == nullptr) {
      return absl::ResourceExhaustedError(schedkit::StrCat(server_, ": curl_easy_init failed"));
    }
    HttpResponse response;
    Receiver receiver;
    receiver.curl = curl;
    receiver.body = &response.body;
    receiver.stream = stream;
    char error[CURL_ERROR_SIZE] = {0};
    struct curl_slist* headers = nullptr;
    const std::string url = base_ + request.path;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
    curl_easy_setopt(curl, CURLOPT_USERAGENT, user_agent_.c_str());
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(absl::ToInt64Milliseconds(request.timeout)));
    const int64_t connect_ms = absl::ToInt64Milliseconds(std::min(request.timeout, absl::Seconds(10)));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connect_ms));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnData);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &receiver);
    if (request.cancel != nullptr) {
      curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
      curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, OnProgress);
      curl_easy_setopt(curl, CURLOPT_XFERINFODATA, const_cast<std::atomic<bool>*>(request.cancel));
    }
    struct curl_slist* connect_to = nullptr;
    if (!connect_to_.empty()) {
      connect_to = curl_slist_append(nullptr, connect_to_.c_str());
      curl_easy_setopt(curl, CURLOPT_CONNECT_TO, connect_to);
    }
    ApplyTls(curl);
    if (!transport_.proxy_url.empty()) curl_easy_setopt(curl, CURLOPT_PROXY, transport_.proxy_url.c_str());
    if (!transport_.username.empty() || !transport_.password.empty()) {
      curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
      curl_easy_setopt(curl, CURLOPT_USERNAME, transport_.username.c_str());
      curl_easy_setopt(curl, CURLOPT_PASSWORD, transport_.password.c_str());
    }
    // The token is a header built here and nowhere else: it is never logged.
    std::string authorization;
    if (!token.empty()) {
      authorization = schedkit::StrCat("Authorization: Bearer ", token);
      headers = curl_slist_append(headers, authorization.c_str());
    }
    headers = curl_slist_append(headers, "Accept: application/json");
    // No "Expect: 100-continue" round trip before a body.
    headers = curl_slist_append(headers, "Expect:");
    std::string content_type;
    if (!request.content_type.empty()) {
      content_type = schedkit::StrCat("Content-Type: ", request.content_type);
      headers = curl_slist_append(headers, content_type.c_str());
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (request.method == "GET") {
      curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    } else {
      if (!request.body.empty() || request.method != "DELETE") {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
      }
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    }

    const CURLcode code = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    curl_slist_free_all(connect_to);
    // Wipe the copy of the token from the header list's source.
    std::fill(authorization.begin(), authorization.end(), '\0');
    Give(curl);

    response.status = static_cast<int>(status);
    if (code == CURLE_OK) return response;
    // A watch the caller stopped, or one cut at its timeout after it began,
    // ended normally.
    if (receiver.stopped) return response;
    if (code == CURLE_OPERATION_TIMEDOUT && receiver.streaming) return response;
    return TransportError(code, error);
  }

 private:
  void ApplyTls(CURL* curl) const {
    if (transport_.insecure_skip_tls_verify) {
      curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    } else {
      curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
      curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    }
    if (!transport_.ca_pem.empty()) {
      struct curl_blob blob;
      blob.data = const_cast<char*>(transport_.ca_pem.data());
      blob.len = transport_.ca_pem.size();
      blob.flags = CURL_BLOB_NOCOPY;
      curl_easy_setopt(curl, CURLOPT_CAINFO_BLOB, &blob);
    }
    if (!transport_.client_cert_pem.empty()) {
      struct curl_blob cert;
      cert.data = const_cast<char*>(transport_.client_cert_pem.data());
      cert.len = transport_.client_cert_pem.size();
      cert.flags = CURL_BLOB_NOCOPY;
      curl_easy_setopt(curl, CURLOPT_SSLCERT_BLOB, &cert);
      curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
      struct curl_blob key;
      key.data = const_cast<char*>(transport_.client_key_pem.data());
      key.len = transport_.client_key_pem.size();
      key.flags = CURL_BLOB_NOCOPY;
      curl_easy_setopt(curl, CURLOPT_SSLKEY_BLOB, &key);
      curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
    }
  }

  absl::Status TransportError(CURLcode code, const char* error) const {
    const std::string detail = error[0] != '\0' ? std::string(error) : std::string(curl_easy_strerror(code));
    switch (code) {
      case CURLE_OPERATION_TIMEDOUT:
        return absl::DeadlineExceededError(schedkit::StrCat(server_, ": ", detail));
      case CURLE_ABORTED_BY_CALLBACK:
        return absl::CancelledError(schedkit::StrCat(server_, ": request cancelled"));
      case CURLE_PEER_FAILED_VERIFICATION:
      case CURLE_SSL_CONNECT_ERROR:
      case CURLE_SSL_CERTPROBLEM:
      case CURLE_SSL_CIPHER:
      case CURLE_SSL_CACERT_BADFILE:
      case CURLE_SSL_ISSUER_ERROR:
        return absl::UnavailableError(schedkit::StrCat(server_, ": TLS: ", detail));
      default:
        return absl::UnavailableError(schedkit::StrCat(server_, ": ", detail));
    }
  }

  absl::StatusOr<std::string> Token() const {
    std::lock_guard<std::mutex> lock(token_mu_);
    const absl::Time now = absl::Now();
    if (!token_.empty() && now - token_read_ < transport_.token_file_refresh) return token_;
    auto fresh = ReadToken(transport_.bearer_token_file);
    if (!fresh.ok()) {
      // As client-go: a token read before stays in use when the file
      // cannot be read again.
      if (!token_.empty()) return token_;
      return fresh.status();
    }
    token_ = std::move(*fresh);
    token_read_ = now;
    return token_;
  }

  CURL* Take() const {
    {
      std::lock_guard<std::mutex> lock(pool_mu_);
      if (!pool_.empty()) {
        CURL* c = pool_.back();
        pool_.pop_back();
        curl_easy_reset(c);
        return c;
      }
    }
    return curl_easy_init();
  }

  void Give(CURL* c) const {
    std::lock_guard<std::mutex> lock(pool_mu_);
    pool_.push_back(c);
  }

  const std::string server_;
  const TransportConfig transport_;
  const std::string user_agent_;
  std::string base_;
  std::string connect_to_;
  mutable std::mutex pool_mu_;
  mutable std::vector<CURL*> pool_;
  mutable std::mutex token_mu_;
  mutable std::string token_;
  mutable absl::Time token_read_ = absl::InfinitePast();
};

absl::StatusOr<std::unique_ptr<HttpClient>> HttpClient::Create(const std::string& server,
                                                               const TransportConfig& transport,
                                                               std::string user_agent) {
  GlobalInitOnce();
  auto url = ParseServer(server);
  if (!url.ok()) return url.status();
  if (!transport.ca_pem.empty() && !HasPemCertificate(transport.ca_pem)) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(server, ": certificate-authority holds no PEM certificate"));
  }
  if (!transport.client_cert_pem.empty() && !HasPemCertificate(transport.client_cert_pem)) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(server, ": client-certificate holds no PEM certificate"));
  }
  if (!transport.client_key_pem.empty() && !HasPemPrivateKey(transport.client_key_pem)) {
    return absl::InvalidArgumentError(schedkit::StrCat(server, ": client-key holds no PEM private key"));
  }
  return std::unique_ptr<HttpClient>(
      new HttpClient(std::make_unique<Impl>(server, *std::move(url), transport, std::move(user_agent))));
}

HttpClient::HttpClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpClient::~HttpClient() = default;

absl::StatusOr<HttpResponse> HttpClient::Send(const HttpRequest& request) const {
  return impl_->Perform(request, nullptr);
}

absl::StatusOr<HttpResponse> HttpClient::Stream(const HttpRequest& request,
                                                absl::FunctionRef<bool(std::string_view)> on_data) const {
  return impl_->Perform(request, &on_data);
}

const std::string& HttpClient::server() const { return impl_->server(); }

}  // namespace schedkit::kube
