/*
 * Preloaded by tests/e2e/signed_log_faults.sh (LD_PRELOAD): Ed25519
 * signing fails while the file named by COUNTERSIGN_TEST_SIGN_FAIL
 * exists, as a key that can no longer be used would, at a commit the
 * test chooses by creating the file rather than by timing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include <openssl/evp.h>

typedef int (*digest_sign_fn)(EVP_MD_CTX *, unsigned char *, size_t *,
    const unsigned char *, size_t);

int
EVP_DigestSign(EVP_MD_CTX *ctx, unsigned char *sig, size_t *sig_len,
    const unsigned char *tbs, size_t tbs_len)
{
	static digest_sign_fn real;
	const char *flag = getenv("COUNTERSIGN_TEST_SIGN_FAIL");

	if (flag != NULL && access(flag, F_OK) == 0)
		return 0;
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "EVP_DigestSign");
	return real != NULL ? real(ctx, sig, sig_len, tbs, tbs_len) : 0;
}
