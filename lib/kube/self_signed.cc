#include "kube/self_signed.h"

#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <ctime>

#include "schedkit/base/str_cat.h"

namespace schedkit::kube::internal {

SelfSignedCertificate::~SelfSignedCertificate() {
  X509_free(cert_);
  EVP_PKEY_free(key_);
}

absl::StatusOr<std::unique_ptr<SelfSignedCertificate>> SelfSignedCertificate::Create() {
  std::unique_ptr<SelfSignedCertificate> out(new SelfSignedCertificate());
  out->key_ = EVP_EC_gen("P-256");
  out->cert_ = X509_new();
  if (out->key_ == nullptr || out->cert_ == nullptr) {
    return absl::InternalError("cannot make a key for HTTPS");
  }
  X509* cert = out->cert_;
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), static_cast<long>(std::time(nullptr)));
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 365L * 24 * 3600);
  X509_set_pubkey(cert, out->key_);
  X509_NAME* name = X509_get_subject_name(cert);
  const std::string cn = schedkit::StrCat("localhost@", std::time(nullptr));
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn.c_str()), -1,
                             -1, 0);
  X509_set_issuer_name(cert, name);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* san =
      X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1");
  if (san == nullptr) return absl::InternalError("cannot make a certificate for HTTPS");
  X509_add_ext(cert, san, -1);
  X509_EXTENSION_free(san);
  if (X509_sign(cert, out->key_, EVP_sha256()) == 0) {
    return absl::InternalError("cannot sign the certificate");
  }
  return out;
}

std::string SelfSignedCertificate::CertificatePem() const {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert_);
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(n));
  BIO_free(bio);
  return pem;
}

}  // namespace schedkit::kube::internal
