#ifndef CCATALOG_CRYPTO_SHIM_H
#define CCATALOG_CRYPTO_SHIM_H
// Linux only: libcrypto's one-shot digests. macOS uses CommonCrypto instead.
#include <openssl/sha.h>
#endif
