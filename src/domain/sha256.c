/* SHA-256 digests for the audit chain and the rule inputs. */
#include "config.h"

#include <string.h>
#include <openssl/evp.h>

#include "sha256.h"

int
sha256_hex_parts(const void *const *parts, const size_t *lengths,
    size_t count, char out[SHA256_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int digest_len = 0, i;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok;
	size_t part;

	if (ctx == NULL)
		return -1;
	ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	for (part = 0; ok && part < count; part++)
		ok = EVP_DigestUpdate(ctx, parts[part], lengths[part]);
	ok = ok && EVP_DigestFinal_ex(ctx, digest, &digest_len);
	EVP_MD_CTX_free(ctx);
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
    char out[SHA256_HEX_SIZE])
{
	const void *parts[3] = { prev_hash, "\n", record_json };
	size_t lengths[3] = { strlen(prev_hash), 1, strlen(record_json) };

	return sha256_hex_parts(parts, lengths, 3, out);
}
