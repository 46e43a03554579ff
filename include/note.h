/*
 * The C2SP text formats of SPEC 13: signed-note (Ed25519 through
 * OpenSSL), its key encodings, tlog-checkpoint and tlog-proof.  Pure: text
 * in, text out; the commands read and write the files.
 */
#ifndef COUNTERSIGN_NOTE_H
#define COUNTERSIGN_NOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "merkle.h"

#define NOTE_NAME_MAX 256
#define NOTE_MAX_SIGNATURES 100	/* C2SP: at least 16 must be accepted */

/* Standard base64 (RFC 4648 section 4), padded; NULL when out of memory. */
char *base64_encode(const void *data, size_t len);
/*
 * Decodes exactly len characters of canonical base64: padding as
 * encoding gives it, zero unused bits.  Any other spelling of the same
 * bytes is refused, so a re-encoded receipt is not the receipt.
 */
int base64_decode(const char *text, size_t len, unsigned char **out,
    size_t *outlen);

struct note_signer {
	char name[NOTE_NAME_MAX];
	uint32_t id;
	unsigned char seed[32];
	unsigned char pub[32];
};

struct note_verifier {
	char name[NOTE_NAME_MAX];
	uint32_t id;
	unsigned char pub[32];
};

/* C2SP's key name: non-empty UTF-8, no Unicode space, no '+'. */
bool note_name_valid(const char *name);
/* A new Ed25519 key: the two encodings SPEC 13 gives, each malloc'd. */
int note_keygen(const char *name, char **skey, char **vkey, struct error *);
/* PRIVATE+KEY+NAME+KEYID+base64(0x01 || seed), white space around allowed. */
int note_signer_parse(const char *text, struct note_signer *, struct error *);
/* NAME+KEYID+base64(0x01 || public key). */
int note_verifier_parse(const char *text, struct note_verifier *,
    struct error *);
/* The verifier key of a signer, malloc'd. */
char *note_verifier_text(const struct note_signer *);

/* text (ending in a newline), a blank line, and one signature line. */
int note_sign(const struct note_signer *, const char *text, char **note,
    struct error *);
/*
 * Opens a signed note: EXIT_DATA when it is not the format, EXIT_REFUSED
 * when no signature of a given key verifies (or one of them fails).  On
 * success *text_len is the length of the signed text at the start of
 * note and *by the key that verified it.
 */
int note_open(const char *note, size_t len, const struct note_verifier *keys,
    size_t nkeys, size_t *text_len, const struct note_verifier **by,
    struct error *);

/* origin, size and root as the three lines of a tlog-checkpoint, malloc'd. */
char *checkpoint_text(const char *origin, uint64_t size,
    const merkle_hash root);
struct checkpoint {
	char origin[NOTE_NAME_MAX];
	uint64_t size;
	merkle_hash root;
};
/* The body of a checkpoint (extension lines are refused: SPEC 13 has none). */
int checkpoint_parse(const char *text, size_t len, struct checkpoint *,
    struct error *);

struct tlog_proof {
	unsigned char *extra;	/* decoded; NULL when there is no extra line */
	size_t extra_len;
	uint64_t index;
	merkle_hash proof[MERKLE_MAX_PROOF];
	size_t count;
	const char *note;	/* into the parsed text */
	size_t note_len;
};
/* A tlog-proof, malloc'd. */
char *tlog_proof_text(const void *extra, size_t extra_len, uint64_t index,
    const merkle_hash *proof, size_t count, const char *note);
/* EXIT_DATA naming the line that is not the format. */
int tlog_proof_parse(const char *text, size_t len, struct tlog_proof *,
    struct error *);
void tlog_proof_free(struct tlog_proof *);

#endif
