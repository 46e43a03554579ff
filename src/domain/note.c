/*
 * C2SP signed-note, tlog-checkpoint and tlog-proof (SPEC 13), with
 * Ed25519 from OpenSSL's libcrypto (EVP_PKEY_ED25519) and nothing else:
 * the formats are matched byte for byte, so that Go's
 * golang.org/x/mod/sumdb/note reads what this writes.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "exit_codes.h"
#include "note.h"
#include "utf8.h"

#define ALG_ED25519 0x01
#define SIG_PREFIX "\xe2\x80\x94 "	/* U+2014 EM DASH, space */
#define PROOF_HEADER "c2sp.org/tlog-proof@v1"

static const char b64_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *
base64_encode(const void *data, size_t len)
{
	const unsigned char *in = data;
	char *out, *o;
	size_t i;

	if ((out = malloc((len + 2) / 3 * 4 + 1)) == NULL)
		return NULL;
	o = out;
	for (i = 0; i + 2 < len; i += 3) {
		*o++ = b64_digits[in[i] >> 2];
		*o++ = b64_digits[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
		*o++ = b64_digits[((in[i + 1] & 15) << 2) | (in[i + 2] >> 6)];
		*o++ = b64_digits[in[i + 2] & 63];
	}
	if (len - i == 1) {
		*o++ = b64_digits[in[i] >> 2];
		*o++ = b64_digits[(in[i] & 3) << 4];
		*o++ = '=';
		*o++ = '=';
	} else if (len - i == 2) {
		*o++ = b64_digits[in[i] >> 2];
		*o++ = b64_digits[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
		*o++ = b64_digits[(in[i + 1] & 15) << 2];
		*o++ = '=';
	}
	*o = '\0';
	return out;
}

static int
b64_value(char c)
{
	const char *p = c != '\0' ? strchr(b64_digits, c) : NULL;

	return p != NULL ? (int)(p - b64_digits) : -1;
}

int
base64_decode(const char *text, size_t len, unsigned char **out,
    size_t *outlen)
{
	unsigned char *buf;
	size_t i, n = 0, pad = 0;
	int v[4], j;

	*out = NULL;
	*outlen = 0;
	if (len % 4 != 0)
		return -1;
	if (len > 0 && text[len - 1] == '=')
		pad = len > 1 && text[len - 2] == '=' ? 2 : 1;
	if ((buf = malloc(len / 4 * 3 + 1)) == NULL)
		return -1;
	for (i = 0; i < len; i += 4) {
		bool last = i + 4 == len;

		for (j = 0; j < 4; j++) {
			bool padded = last && j >= 4 - (int)pad;

			v[j] = padded ? 0 : b64_value(text[i + j]);
			if (v[j] < 0 || (padded && text[i + j] != '='))
				goto bad;
		}
		buf[n++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		if (!last || pad < 2)
			buf[n++] = (unsigned char)((v[1] & 15) << 4 | v[2] >> 2);
		if (!last || pad < 1)
			buf[n++] = (unsigned char)((v[2] & 3) << 6 | v[3]);
		/* The bits padding leaves over must be zero: one spelling. */
		if (last && ((pad == 2 && (v[1] & 15) != 0) ||
		    (pad == 1 && (v[2] & 3) != 0)))
			goto bad;
	}
	*out = buf;
	*outlen = n;
	return 0;
bad:
	free(buf);
	return -1;
}

/* White space as Go's unicode.IsSpace sees it, which key names exclude. */
static bool
is_unicode_space(uint32_t cp)
{
	return cp == ' ' || (cp >= 0x09 && cp <= 0x0d) || cp == 0x85 ||
	    cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
	    cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f ||
	    cp == 0x3000;
}

static bool
name_valid(const char *name, size_t len)
{
	size_t i = 0;
	uint32_t cp;
	int n;

	if (len == 0 || len >= NOTE_NAME_MAX)
		return false;
	while (i < len) {
		if ((n = utf8_next((const unsigned char *)name + i, len - i,
		    &cp)) < 0)
			return false;
		if (is_unicode_space(cp) || cp == '+' || cp < 0x20 ||
		    cp == 0x7f)
			return false;
		i += (size_t)n;
	}
	return true;
}

bool
note_name_valid(const char *name)
{
	return name_valid(name, strlen(name));
}

/* SHA-256(name || 0x0A || 0x01 || public key)[:4], big-endian. */
static int
key_id(const char *name, const unsigned char pub[32], uint32_t *id)
{
	unsigned char digest[EVP_MAX_MD_SIZE], sep[2] = { '\n', ALG_ED25519 };
	unsigned int len = 0;
	EVP_MD_CTX *ctx;
	int ok;

	if ((ctx = EVP_MD_CTX_new()) == NULL)
		return -1;
	ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) &&
	    EVP_DigestUpdate(ctx, name, strlen(name)) &&
	    EVP_DigestUpdate(ctx, sep, 2) &&
	    EVP_DigestUpdate(ctx, pub, 32) &&
	    EVP_DigestFinal_ex(ctx, digest, &len);
	EVP_MD_CTX_free(ctx);
	if (!ok || len != 32)
		return -1;
	*id = (uint32_t)digest[0] << 24 | (uint32_t)digest[1] << 16 |
	    (uint32_t)digest[2] << 8 | digest[3];
	return 0;
}

/* "PREFIX" NAME "+" KEYID "+" base64(0x01 || key), malloc'd. */
static char *
key_text(const char *prefix, const char *name, uint32_t id,
    const unsigned char key[32])
{
	unsigned char raw[33];
	char *b64, *out = NULL;
	size_t len;

	raw[0] = ALG_ED25519;
	memcpy(raw + 1, key, 32);
	if ((b64 = base64_encode(raw, sizeof raw)) == NULL)
		return NULL;
	len = strlen(prefix) + strlen(name) + strlen(b64) + 12;
	if ((out = malloc(len)) != NULL)
		snprintf(out, len, "%s%s+%08" PRIx32 "+%s", prefix, name, id,
		    b64);
	free(b64);
	return out;
}

static int
public_from_seed(const unsigned char seed[32], unsigned char pub[32])
{
	EVP_PKEY *pkey;
	size_t len = 32;
	int ok;

	pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
	ok = pkey != NULL && EVP_PKEY_get_raw_public_key(pkey, pub, &len) &&
	    len == 32;
	EVP_PKEY_free(pkey);
	return ok ? 0 : -1;
}

int
note_keygen(const char *name, char **skey, char **vkey, struct error *err)
{
	struct note_signer signer;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;
	size_t len = 32;
	int rc = 0;

	*skey = *vkey = NULL;
	memset(&signer, 0, sizeof signer);
	if (!note_name_valid(name))
		return error_set(err, EXIT_USAGE, "NAME", "a key name must be "
		    "non-empty and hold no white space and no '+'");
	snprintf(signer.name, sizeof signer.name, "%s", name);
	if ((ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL)) == NULL ||
	    EVP_PKEY_keygen_init(ctx) <= 0 || EVP_PKEY_keygen(ctx, &pkey) <= 0 ||
	    !EVP_PKEY_get_raw_private_key(pkey, signer.seed, &len) ||
	    len != 32 || public_from_seed(signer.seed, signer.pub) != 0 ||
	    key_id(name, signer.pub, &signer.id) != 0) {
		rc = error_set(err, EXIT_STORAGE, NULL,
		    "cannot generate an Ed25519 key");
		goto cleanup;
	}
	*skey = key_text("PRIVATE+KEY+", name, signer.id, signer.seed);
	*vkey = key_text("", name, signer.id, signer.pub);
	if (*skey == NULL || *vkey == NULL) {
		free(*skey);
		free(*vkey);
		*skey = *vkey = NULL;
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
	}
cleanup:
	OPENSSL_cleanse(&signer, sizeof signer);
	EVP_PKEY_free(pkey);
	EVP_PKEY_CTX_free(ctx);
	return rc;
}

/*
 * Splits NAME+KEYID+BASE64 (surrounding white space dropped) and decodes
 * the key: 0x01 and 32 bytes.
 */
static int
parse_key(const char *text, const char *what, char name[NOTE_NAME_MAX],
    uint32_t *id, unsigned char key[32], struct error *err)
{
	const char *start = text, *end, *plus1, *plus2;
	unsigned char *raw = NULL;
	size_t raw_len = 0, i;
	char *stop;
	unsigned long parsed;
	int rc = 0;

	while (*start == ' ' || *start == '\t' || *start == '\n' ||
	    *start == '\r')
		start++;
	end = start + strlen(start);
	while (end > start && (end[-1] == ' ' || end[-1] == '\t' ||
	    end[-1] == '\n' || end[-1] == '\r'))
		end--;
	/* Names hold no '+', base64 may: split from the left, as Go does. */
	plus1 = memchr(start, '+', (size_t)(end - start));
	plus2 = plus1 != NULL ? memchr(plus1 + 1, '+', (size_t)(end - plus1 -
	    1)) : NULL;
	if (plus2 == NULL) {
		rc = error_set(err, EXIT_DATA, what, "not NAME+KEYID+KEY");
		goto cleanup;
	}
	if (!name_valid(start, (size_t)(plus1 - start))) {
		rc = error_set(err, EXIT_DATA, what, "the key name is not valid");
		goto cleanup;
	}
	memcpy(name, start, (size_t)(plus1 - start));
	name[plus1 - start] = '\0';
	for (i = 1; i <= 8; i++)
		if (plus1 + i >= plus2 || !((plus1[i] >= '0' &&
		    plus1[i] <= '9') || (plus1[i] >= 'a' && plus1[i] <= 'f')))
			break;
	if (i != 9 || plus1 + 9 != plus2) {
		rc = error_set(err, EXIT_DATA, what,
		    "the key ID is not 8 lowercase hex digits");
		goto cleanup;
	}
	parsed = strtoul(plus1 + 1, &stop, 16);
	*id = (uint32_t)parsed;
	if (base64_decode(plus2 + 1, (size_t)(end - plus2 - 1), &raw,
	    &raw_len) != 0 || raw_len != 33 || raw[0] != ALG_ED25519) {
		rc = error_set(err, EXIT_DATA, what,
		    "the key is not base64 of 0x01 and an Ed25519 key");
		goto cleanup;
	}
	memcpy(key, raw + 1, 32);
cleanup:
	if (raw != NULL)
		OPENSSL_cleanse(raw, raw_len);
	free(raw);
	return rc;
}

int
note_signer_parse(const char *text, struct note_signer *s, struct error *err)
{
	uint32_t id;
	int rc;

	memset(s, 0, sizeof *s);
	while (*text == ' ' || *text == '\t' || *text == '\n')
		text++;
	if (strncmp(text, "PRIVATE+KEY+", 12) != 0)
		return error_set(err, EXIT_DATA, "signing key",
		    "not a PRIVATE+KEY+NAME+KEYID+KEY signing key");
	if ((rc = parse_key(text + 12, "signing key", s->name, &s->id, s->seed,
	    err)) != 0)
		goto cleanup;
	if (public_from_seed(s->seed, s->pub) != 0 ||
	    key_id(s->name, s->pub, &id) != 0 || id != s->id) {
		rc = error_set(err, EXIT_DATA, "signing key",
		    "the key ID does not match the key");
		goto cleanup;
	}
cleanup:
	if (rc != 0)
		OPENSSL_cleanse(s, sizeof *s);
	return rc;
}

int
note_verifier_parse(const char *text, struct note_verifier *v,
    struct error *err)
{
	uint32_t id;
	int rc;

	memset(v, 0, sizeof *v);
	if ((rc = parse_key(text, "public key", v->name, &v->id, v->pub,
	    err)) != 0)
		return rc;
	if (key_id(v->name, v->pub, &id) != 0 || id != v->id)
		return error_set(err, EXIT_DATA, "public key",
		    "the key ID does not match the key");
	return 0;
}

char *
note_verifier_text(const struct note_signer *s)
{
	return key_text("", s->name, s->id, s->pub);
}

int
note_sign(const struct note_signer *s, const char *text, char **note,
    struct error *err)
{
	unsigned char sig[4 + 64];
	size_t sig_len = 64, len = strlen(text), total;
	EVP_PKEY *pkey = NULL;
	EVP_MD_CTX *ctx = NULL;
	char *b64 = NULL;
	int rc = 0;

	*note = NULL;
	if (len == 0 || text[len - 1] != '\n')
		return error_set(err, EXIT_DATA, NULL,
		    "a note's text ends with a newline");
	sig[0] = (unsigned char)(s->id >> 24);
	sig[1] = (unsigned char)(s->id >> 16);
	sig[2] = (unsigned char)(s->id >> 8);
	sig[3] = (unsigned char)s->id;
	if ((pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL,
	    s->seed, 32)) == NULL || (ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestSignInit(ctx, NULL, NULL, NULL, pkey) != 1 ||
	    EVP_DigestSign(ctx, sig + 4, &sig_len, (const unsigned char *)text,
	    len) != 1 || sig_len != 64) {
		rc = error_set(err, EXIT_STORAGE, NULL,
		    "cannot sign with Ed25519");
		goto cleanup;
	}
	if ((b64 = base64_encode(sig, sizeof sig)) == NULL) {
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
		goto cleanup;
	}
	total = len + 1 + strlen(SIG_PREFIX) + strlen(s->name) + 1 +
	    strlen(b64) + 2;
	if ((*note = malloc(total)) == NULL) {
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
		goto cleanup;
	}
	snprintf(*note, total, "%s\n%s%s %s\n", text, SIG_PREFIX, s->name, b64);
cleanup:
	free(b64);
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return rc;
}

static bool
ed25519_verify(const unsigned char pub[32], const char *text, size_t len,
    const unsigned char *sig, size_t sig_len)
{
	EVP_PKEY *pkey;
	EVP_MD_CTX *ctx = NULL;
	bool ok;

	pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub, 32);
	ok = pkey != NULL && (ctx = EVP_MD_CTX_new()) != NULL &&
	    EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, pkey) == 1 &&
	    EVP_DigestVerify(ctx, sig, sig_len, (const unsigned char *)text,
	    len) == 1;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return ok;
}

int
note_open(const char *note, size_t len, const struct note_verifier *keys,
    size_t nkeys, size_t *text_len, const struct note_verifier **by,
    struct error *err)
{
	const char *sigs, *line, *end, *next;
	unsigned char *sig = NULL;
	size_t i, sig_len, nsig = 0, split = 0, k;
	bool found = false;
	uint32_t cp, id;
	int n, rc = 0;

	*text_len = 0;
	*by = NULL;
	/* Valid UTF-8 and no control character but the newline. */
	for (i = 0; i < len; i += (size_t)n) {
		if ((n = utf8_next((const unsigned char *)note + i, len - i,
		    &cp)) < 0 || (cp < 0x20 && cp != '\n'))
			return error_set(err, EXIT_DATA, "note", "not UTF-8 "
			    "text without control characters");
	}
	/* The text ends at the last blank line. */
	for (i = len; i >= 2; i--)
		if (note[i - 1] == '\n' && note[i - 2] == '\n') {
			found = true;
			split = i - 2;
			break;
		}
	if (!found || split + 2 >= len || note[len - 1] != '\n')
		return error_set(err, EXIT_DATA, "note",
		    "no signature lines after a blank line");
	sigs = note + split + 2;
	end = note + len;
	found = false;
	for (line = sigs; line < end; line = next) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		const char *name = line + strlen(SIG_PREFIX), *b64;

		if (++nsig > NOTE_MAX_SIGNATURES) {
			rc = error_set(err, EXIT_DATA, "note",
			    "more than %d signatures", NOTE_MAX_SIGNATURES);
			goto cleanup;
		}
		if ((size_t)(eol - line) < strlen(SIG_PREFIX) ||
		    memcmp(line, SIG_PREFIX, strlen(SIG_PREFIX)) != 0 ||
		    (b64 = memchr(name, ' ', (size_t)(eol - name))) == NULL ||
		    !name_valid(name, (size_t)(b64 - name)) ||
		    base64_decode(b64 + 1, (size_t)(eol - b64 - 1), &sig,
		    &sig_len) != 0 || sig_len < 5) {
			rc = error_set(err, EXIT_DATA, "note",
			    "a signature line is not \"\xe2\x80\x94 NAME "
			    "BASE64\"");
			goto cleanup;
		}
		id = (uint32_t)sig[0] << 24 | (uint32_t)sig[1] << 16 |
		    (uint32_t)sig[2] << 8 | sig[3];
		for (k = 0; k < nkeys; k++) {
			if (keys[k].id != id ||
			    strlen(keys[k].name) != (size_t)(b64 - name) ||
			    memcmp(keys[k].name, name, (size_t)(b64 - name)) != 0)
				continue;
			/* A known key's signature must verify (C2SP). */
			if (sig_len != 4 + 64 || !ed25519_verify(keys[k].pub,
			    note, split + 1, sig + 4, sig_len - 4)) {
				rc = error_set(err, EXIT_REFUSED, "note",
				    "the signature of key %s+%08" PRIx32
				    " does not verify", keys[k].name, id);
				goto cleanup;
			}
			if (*by == NULL)
				*by = &keys[k];
		}
		free(sig);
		sig = NULL;
		next = eol + 1;
	}
	if (*by == NULL) {
		rc = error_set(err, EXIT_REFUSED, "note",
		    "no signature by a given key");
		goto cleanup;
	}
	*text_len = split + 1;
cleanup:
	free(sig);
	if (rc != 0)
		*by = NULL;
	return rc;
}

char *
checkpoint_text(const char *origin, uint64_t size, const merkle_hash root)
{
	char *b64, *out;
	size_t len;

	if ((b64 = base64_encode(root, MERKLE_HASH_SIZE)) == NULL)
		return NULL;
	len = strlen(origin) + strlen(b64) + 32;
	if ((out = malloc(len)) != NULL)
		snprintf(out, len, "%s\n%" PRIu64 "\n%s\n", origin, size, b64);
	free(b64);
	return out;
}

/* A decimal with no leading zero (but "0"), fitting 63 bits. */
static bool
parse_decimal(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0 || len > 19 || (s[0] == '0' && len > 1))
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > (uint64_t)INT64_MAX)
		return false;
	*out = v;
	return true;
}

/* The hash of one line of base64: exactly 32 bytes. */
static bool
parse_hash(const char *s, size_t len, merkle_hash out)
{
	unsigned char *raw;
	size_t raw_len;
	bool ok;

	if (base64_decode(s, len, &raw, &raw_len) != 0)
		return false;
	ok = raw_len == MERKLE_HASH_SIZE;
	if (ok)
		memcpy(out, raw, MERKLE_HASH_SIZE);
	free(raw);
	return ok;
}

int
checkpoint_parse(const char *text, size_t len, struct checkpoint *c,
    struct error *err)
{
	const char *end = text + len, *l2, *l3, *l4, *p;

	memset(c, 0, sizeof *c);
	if ((l2 = memchr(text, '\n', len)) == NULL ||
	    !name_valid(text, (size_t)(l2 - text)))
		return error_set(err, EXIT_DATA, "checkpoint",
		    "the first line is not the log's name");
	memcpy(c->origin, text, (size_t)(l2 - text));
	l2++;
	if ((l3 = memchr(l2, '\n', (size_t)(end - l2))) == NULL ||
	    !parse_decimal(l2, (size_t)(l3 - l2), &c->size))
		return error_set(err, EXIT_DATA, "checkpoint",
		    "the second line is not a tree size");
	l3++;
	if ((l4 = memchr(l3, '\n', (size_t)(end - l3))) == NULL ||
	    !parse_hash(l3, (size_t)(l4 - l3), c->root))
		return error_set(err, EXIT_DATA, "checkpoint",
		    "the third line is not a base64 SHA-256 root hash");
	/* Extension lines are opaque, but each is non-empty (C2SP). */
	for (p = l4 + 1; p < end; p++)
		if (*p == '\n' && p[-1] == '\n')
			return error_set(err, EXIT_DATA, "checkpoint",
			    "an empty extension line");
	if (end[-1] != '\n')
		return error_set(err, EXIT_DATA, "checkpoint",
		    "the text does not end with a newline");
	return 0;
}

char *
tlog_proof_text(const void *extra, size_t extra_len, uint64_t index,
    const merkle_hash *proof, size_t count, const char *note)
{
	char *b64 = NULL, *out = NULL, *o;
	size_t len, i;

	if (extra != NULL && (b64 = base64_encode(extra, extra_len)) == NULL)
		return NULL;
	len = strlen(PROOF_HEADER) + 1 + (b64 ? strlen(b64) + 7 : 0) + 28 +
	    count * 45 + 1 + strlen(note) + 1;
	if ((out = malloc(len)) == NULL)
		goto cleanup;
	o = out + snprintf(out, len, "%s\n", PROOF_HEADER);
	if (b64 != NULL)
		o += snprintf(o, len - (size_t)(o - out), "extra %s\n", b64);
	o += snprintf(o, len - (size_t)(o - out), "index %" PRIu64 "\n", index);
	for (i = 0; i < count; i++) {
		char *h = base64_encode(proof[i], MERKLE_HASH_SIZE);

		if (h == NULL) {
			free(out);
			out = NULL;
			goto cleanup;
		}
		o += snprintf(o, len - (size_t)(o - out), "%s\n", h);
		free(h);
	}
	snprintf(o, len - (size_t)(o - out), "\n%s", note);
cleanup:
	free(b64);
	return out;
}

int
tlog_proof_parse(const char *text, size_t len, struct tlog_proof *p,
    struct error *err)
{
	const char *end = text + len, *line = text, *eol;
	int rc = 0;

	memset(p, 0, sizeof *p);
#define NEXT_LINE() (eol = memchr(line, '\n', (size_t)(end - line)))
	if (NEXT_LINE() == NULL || (size_t)(eol - line) !=
	    strlen(PROOF_HEADER) || memcmp(line, PROOF_HEADER, (size_t)(eol -
	    line)) != 0) {
		rc = error_set(err, EXIT_DATA, "line 1",
		    "not \"" PROOF_HEADER "\"");
		goto cleanup;
	}
	line = eol + 1;
	if (NEXT_LINE() != NULL && eol - line >= 6 &&
	    memcmp(line, "extra ", 6) == 0) {
		if (base64_decode(line + 6, (size_t)(eol - line - 6),
		    &p->extra, &p->extra_len) != 0) {
			rc = error_set(err, EXIT_DATA, "extra",
			    "the extra line is not base64");
			goto cleanup;
		}
		line = eol + 1;
	}
	if (NEXT_LINE() == NULL || eol - line < 6 ||
	    memcmp(line, "index ", 6) != 0 ||
	    !parse_decimal(line + 6, (size_t)(eol - line - 6), &p->index)) {
		rc = error_set(err, EXIT_DATA, "index",
		    "no \"index N\" line after the header and extra line");
		goto cleanup;
	}
	line = eol + 1;
	while (NEXT_LINE() != NULL && eol > line) {
		if (p->count == MERKLE_MAX_PROOF ||
		    !parse_hash(line, (size_t)(eol - line),
		    p->proof[p->count])) {
			rc = error_set(err, EXIT_DATA, "proof",
			    "inclusion proof line %zu is not a base64 "
			    "SHA-256 hash", p->count + 1);
			goto cleanup;
		}
		p->count++;
		line = eol + 1;
	}
	if (eol == NULL || line + 1 >= end) {
		rc = error_set(err, EXIT_DATA, "checkpoint",
		    "no checkpoint after the inclusion proof and a blank line");
		goto cleanup;
	}
#undef NEXT_LINE
	p->note = line + 1;
	p->note_len = (size_t)(end - p->note);
cleanup:
	if (rc != 0)
		tlog_proof_free(p);
	return rc;
}

void
tlog_proof_free(struct tlog_proof *p)
{
	free(p->extra);
	p->extra = NULL;
	p->extra_len = 0;
}
