/*
 * Fuzz target: the signed log's text formats (include/note.h, SPEC 13),
 * which verify-receipt reads from anyone: tlog_proof_parse(), note_open(),
 * checkpoint_parse() and base64_decode().
 *
 * Invariants checked (abort() when broken):
 * - base64: what decodes re-encodes to the very same text (one spelling).
 * - a parsed receipt's note lies inside the input and its proof fits;
 *   its inclusion proof is checked without reading past the hashes.
 * - a note opened under the key has a text that ends in a newline inside
 *   the note, and it parses as a checkpoint or is refused, never more.
 */
#include "config.h"

#include <string.h>

#include "merkle.h"
#include "note.h"
#include "fuzz_common.h"

/* The verifier key of golang.org/x/mod/sumdb/note's documented example. */
#define VKEY "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"

static void
check_base64(const char *text, size_t len)
{
	unsigned char *raw;
	size_t raw_len;
	char *again;

	if (base64_decode(text, len, &raw, &raw_len) != 0)
		return;
	if ((again = base64_encode(raw, raw_len)) == NULL)
		abort();
	if (strlen(again) != len || memcmp(again, text, len) != 0)
		fuzz_fail("base64: decoded text does not re-encode to itself",
		    text, len, 0);
	free(again);
	free(raw);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct note_verifier key;
	static bool have_key;
	const struct note_verifier *by;
	struct tlog_proof p;
	struct checkpoint c;
	struct error err;
	merkle_hash leaf;
	char *text = fuzz_copy(data, size);
	size_t text_len;

	if (!have_key) {
		if (note_verifier_parse(VKEY, &key, &err) != 0)
			abort();
		have_key = true;
	}
	check_base64(text, size);
	if (tlog_proof_parse(text, size, &p, &err) == 0) {
		if (p.note < text || p.note + p.note_len != text + size ||
		    p.count > MERKLE_MAX_PROOF)
			fuzz_fail("tlog_proof_parse: note or proof out of bounds",
			    text, size, 0);
		if (merkle_leaf_hash(p.extra, p.extra_len, leaf) != 0)
			abort();
		(void)merkle_verify_inclusion(p.index, p.index + 1 + p.count,
		    leaf, (const merkle_hash *)p.proof, p.count, leaf);
		tlog_proof_free(&p);
	}
	if (note_open(text, size, &key, 1, &text_len, &by, &err) == 0) {
		if (text_len == 0 || text_len > size || text[text_len - 1] != '\n')
			fuzz_fail("note_open: the text is not a line-ended prefix",
			    text, size, text_len);
		(void)checkpoint_parse(text, text_len, &c, &err);
	}
	(void)checkpoint_parse(text, size, &c, &err);
	free(text);
	return 0;
}
