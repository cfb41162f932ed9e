// OpenSSL's libcrypto (Debian's libssl-dev): SHA-256, P-256 keys, X.509 certificates, ECDSA, RFC 3161
// time-stamps and the HTTP client that asks a time-stamp authority for them.
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/ts.h>
#include <openssl/pkcs7.h>
#include <openssl/http.h>

// BIO_get_mem_data is a macro Swift cannot call.
static inline long stampcam_bio_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

// XN_FLAG_RFC2253 is a macro of macros: "CN=…,O=…" as RFC 2253 writes a name.
static inline unsigned long stampcam_rfc2253(void) { return XN_FLAG_RFC2253; }
