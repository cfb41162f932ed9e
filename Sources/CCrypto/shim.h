// OpenSSL's libcrypto (Debian's libssl-dev), for SHA-256: it uses the CPU's SHA instructions,
// six times as fast as GLib's here. Headers only: CLazyLibraries opens libcrypto on first use.
#include <openssl/evp.h>
