/*
 * Unit tests for src/domain/note.c (SPEC 13): the key encodings and the
 * signed note match golang.org/x/mod/sumdb/note's documented example and
 * the C2SP signed-note example byte for byte; a generated key signs what
 * it verifies; checkpoints and tlog-proofs round-trip, and a truncated,
 * re-encoded or bit-flipped one is refused.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "exit_codes.h"
#include "note.h"

/* The example of golang.org/x/mod/sumdb/note's documentation. */
#define GO_SKEY "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
#define GO_VKEY "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
#define GO_TEXT "If you think cryptography is the answer to your problem,\n" \
	"then you don't know what your problem is.\n"
#define GO_NOTE GO_TEXT "\n\xe2\x80\x94 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
/* The example of C2SP signed-note, "Verifier keys". */
#define C2SP_VKEY "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
#define C2SP_NOTE "This is an example message.\n\n\xe2\x80\x94 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"

static int
open_note(const char *note, size_t len, const char *vkey)
{
	struct note_verifier v;
	const struct note_verifier *by;
	struct error err;
	size_t text_len;

	assert_int_equal(note_verifier_parse(vkey, &v, &err), 0);
	return note_open(note, len, &v, 1, &text_len, &by, &err);
}

static void
test_go_example(void **state)
{
	struct note_signer s;
	struct error err;
	char *note, *vkey;

	(void)state;
	assert_int_equal(note_signer_parse(GO_SKEY "\n", &s, &err), 0);
	assert_string_equal(s.name, "PeterNeumann");
	assert_int_equal(s.id, 0xc74f20a3);
	vkey = note_verifier_text(&s);
	assert_string_equal(vkey, GO_VKEY);
	/* Ed25519 is deterministic: the same key signs the same bytes. */
	assert_int_equal(note_sign(&s, GO_TEXT, &note, &err), 0);
	assert_string_equal(note, GO_NOTE);
	assert_int_equal(open_note(GO_NOTE, strlen(GO_NOTE), GO_VKEY), 0);
	free(note);
	free(vkey);
}

static void
test_c2sp_example(void **state)
{
	char flipped[] = C2SP_NOTE;
	struct note_verifier v;
	struct error err;

	(void)state;
	assert_int_equal(open_note(C2SP_NOTE, strlen(C2SP_NOTE), C2SP_VKEY), 0);
	flipped[3] ^= 1;	/* "This" becomes "Thhs": the text signed changed */
	assert_int_equal(open_note(flipped, strlen(flipped), C2SP_VKEY),
	    EXIT_REFUSED);
	/* Another key: its signature is unknown, so nothing verifies. */
	assert_int_equal(open_note(C2SP_NOTE, strlen(C2SP_NOTE), GO_VKEY),
	    EXIT_REFUSED);
	/* A key ID that does not match the key. */
	assert_int_equal(note_verifier_parse("example.com/foo+530d903b+"
	    "AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k", &v, &err),
	    EXIT_DATA);
	/* Truncated: no newline after the signature. */
	assert_int_equal(open_note(C2SP_NOTE, strlen(C2SP_NOTE) - 1,
	    C2SP_VKEY), EXIT_DATA);
	/* A control character in the text. */
	flipped[3] = '\t';
	assert_int_equal(open_note(flipped, strlen(flipped), C2SP_VKEY),
	    EXIT_DATA);
}

static void
test_keygen_signs(void **state)
{
	struct note_signer s;
	struct error err;
	char *skey, *vkey, *note, *verifier;

	(void)state;
	assert_int_equal(note_keygen("countersign.example/log", &skey, &vkey,
	    &err), 0);
	assert_true(strncmp(skey, "PRIVATE+KEY+countersign.example/log+", 36)
	    == 0);
	assert_int_equal(note_signer_parse(skey, &s, &err), 0);
	verifier = note_verifier_text(&s);
	assert_string_equal(verifier, vkey);
	assert_int_equal(note_sign(&s, "hello\n", &note, &err), 0);
	assert_int_equal(open_note(note, strlen(note), vkey), 0);
	free(note);
	free(verifier);
	free(skey);
	free(vkey);
	assert_int_equal(note_keygen("two words", &skey, &vkey, &err),
	    EXIT_USAGE);
	assert_int_equal(note_keygen("a+b", &skey, &vkey, &err), EXIT_USAGE);
}

static void
test_base64_canonical(void **state)
{
	unsigned char *out;
	size_t len;

	(void)state;
	assert_int_equal(base64_decode("YQ==", 4, &out, &len), 0);
	assert_int_equal(len, 1);
	assert_int_equal(out[0], 'a');
	free(out);
	/* The same byte with unused bits set: another spelling, refused. */
	assert_int_equal(base64_decode("YR==", 4, &out, &len), -1);
	assert_int_equal(base64_decode("YQ", 2, &out, &len), -1);
	assert_int_equal(base64_decode("Y===", 4, &out, &len), -1);
	assert_int_equal(base64_decode("YQ=a", 4, &out, &len), -1);
	assert_int_equal(base64_decode("", 0, &out, &len), 0);
	free(out);
}

static void
test_proof_round_trip(void **state)
{
	merkle_hash root, proof[3];
	struct checkpoint c;
	struct tlog_proof p;
	struct error err;
	char *body, *text;
	size_t i;

	(void)state;
	memset(root, 0xab, sizeof root);
	for (i = 0; i < 3; i++)
		memset(proof[i], (int)i, sizeof proof[i]);
	body = checkpoint_text("example.com/log", 20852163, root);
	assert_int_equal(checkpoint_parse(body, strlen(body), &c, &err), 0);
	assert_string_equal(c.origin, "example.com/log");
	assert_int_equal(c.size, 20852163);
	assert_memory_equal(c.root, root, sizeof root);
	text = tlog_proof_text("{}", 2, 73894, (const merkle_hash *)proof, 3,
	    body);
	assert_true(strncmp(text, "c2sp.org/tlog-proof@v1\nextra e30=\n"
	    "index 73894\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n", 79)
	    == 0);
	assert_int_equal(tlog_proof_parse(text, strlen(text), &p, &err), 0);
	assert_int_equal(p.index, 73894);
	assert_int_equal(p.count, 3);
	assert_int_equal(p.extra_len, 2);
	assert_memory_equal(p.proof[2], proof[2], sizeof proof[2]);
	assert_int_equal(p.note_len, strlen(body));
	assert_memory_equal(p.note, body, strlen(body));
	tlog_proof_free(&p);
	/* Cut before the checkpoint, a leading zero, a bad hash line. */
	assert_int_equal(tlog_proof_parse(text, 140, &p, &err), EXIT_DATA);
	text[strlen("c2sp.org/tlog-proof@v1\nextra e30=\nindex ")] = '0';
	assert_int_equal(tlog_proof_parse(text, strlen(text), &p, &err),
	    EXIT_DATA);
	assert_int_equal(checkpoint_parse("example.com/log\n01\nAA==\n", 24,
	    &c, &err), EXIT_DATA);
	free(text);
	free(body);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_go_example),
		cmocka_unit_test(test_c2sp_example),
		cmocka_unit_test(test_keygen_signs),
		cmocka_unit_test(test_base64_canonical),
		cmocka_unit_test(test_proof_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
