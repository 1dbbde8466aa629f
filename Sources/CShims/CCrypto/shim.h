#ifndef VIEWFINDER_CCRYPTO_SHIM_H
#define VIEWFINDER_CCRYPTO_SHIM_H
// OpenSSL's digests: SHA-256 with the CPU's SHA extensions where it has them.
#include <openssl/evp.h>
#endif
