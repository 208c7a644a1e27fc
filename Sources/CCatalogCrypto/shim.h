#ifndef CCATALOG_CRYPTO_SHIM_H
#define CCATALOG_CRYPTO_SHIM_H
// Linux only: libcrypto's one-shot digests, and the EVP public-key API the profile signature
// verifier uses (d2i_PUBKEY, EVP_DigestVerify). macOS uses CommonCrypto and Security instead.
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/err.h>
#endif
