/* SHA-256 digests for the audit chain and the rule inputs. */
#include "config.h"

#include <string.h>
#include <openssl/evp.h>

#include "sha256.h"

/*
 * OpenSSL 3 looks the algorithm up on every EVP_sha256() use and
 * allocates a context per digest; audit verify hashes a million records,
 * so both are fetched once.  countersign is single-threaded.
 */
static EVP_MD *sha256_md;
static EVP_MD_CTX *sha256_ctx;

int
sha256_hex_parts(const void *const *parts, const size_t *lengths,
    size_t count, char out[SHA256_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int digest_len = 0, i;
	int ok;
	size_t part;

	if (sha256_md == NULL &&
	    (sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL)) == NULL)
		return -1;
	if (sha256_ctx == NULL && (sha256_ctx = EVP_MD_CTX_new()) == NULL)
		return -1;
	ok = EVP_DigestInit_ex(sha256_ctx, sha256_md, NULL);
	for (part = 0; ok && part < count; part++)
		ok = EVP_DigestUpdate(sha256_ctx, parts[part], lengths[part]);
	ok = ok && EVP_DigestFinal_ex(sha256_ctx, digest, &digest_len);
	if (!ok || digest_len != 32)
		return -1;
	for (i = 0; i < digest_len; i++) {
		out[2 * i] = digits[digest[i] >> 4];
		out[2 * i + 1] = digits[digest[i] & 0x0f];
	}
	out[64] = '\0';
	return 0;
}

int
sha256_hex(const void *data, size_t len, char out[SHA256_HEX_SIZE])
{
	const void *parts[1] = { data };
	size_t lengths[1] = { len };

	return sha256_hex_parts(parts, lengths, 1, out);
}

int
sha256_chain(const char *prev_hash, const char *record_json,
    size_t record_len, char out[SHA256_HEX_SIZE])
{
	const void *parts[3] = { prev_hash, "\n", record_json };
	size_t lengths[3] = { strlen(prev_hash), 1, record_len };

	return sha256_hex_parts(parts, lengths, 3, out);
}
