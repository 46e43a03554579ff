/* SHA-256 in lowercase hex, from OpenSSL's libcrypto. */
#ifndef COUNTERSIGN_SHA256_H
#define COUNTERSIGN_SHA256_H

#include <stddef.h>

#define SHA256_HEX_SIZE 65	/* 64 hex digits and a NUL */

/* Hex digest of the concatenation of count byte ranges; -1 on failure. */
int sha256_hex_parts(const void *const *parts, const size_t *lengths,
    size_t count, char out[SHA256_HEX_SIZE]);
int sha256_hex(const void *data, size_t len, char out[SHA256_HEX_SIZE]);
/*
 * The chain of countersign-packets(5) AUDIT RECORDS: SHA-256 of
 * prev_hash + "\n" + record_json.
 */
int sha256_chain(const char *prev_hash, const char *record_json,
    size_t record_len, char out[SHA256_HEX_SIZE]);

#endif
