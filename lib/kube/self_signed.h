// Internal: a self-signed certificate for localhost and 127.0.0.1, made in
// memory as upstream's serving options do when no certificate is given
// (--tls-cert-file unset).
#ifndef SCHEDKIT_LIB_KUBE_SELF_SIGNED_H_
#define SCHEDKIT_LIB_KUBE_SELF_SIGNED_H_

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace schedkit::kube::internal {

class SelfSignedCertificate {
 public:
  // An EC P-256 key and a certificate valid for a year, CN
  // "localhost@<unix time>".
  static absl::StatusOr<std::unique_ptr<SelfSignedCertificate>> Create();
  ~SelfSignedCertificate();

  X509* cert() const { return cert_; }
  EVP_PKEY* key() const { return key_; }
  std::string CertificatePem() const;

 private:
  SelfSignedCertificate() = default;
  X509* cert_ = nullptr;
  EVP_PKEY* key_ = nullptr;
};

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_SELF_SIGNED_H_
