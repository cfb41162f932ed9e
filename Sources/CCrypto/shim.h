// OpenSSL's libcrypto (Debian's libssl-dev): SHA-256 now, signatures later.
#include <openssl/evp.h>
