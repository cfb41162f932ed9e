// libcbor (Debian's libcbor-dev): the CBOR that C2PA claims, assertions and COSE signatures are made of.
#include <cbor.h>
