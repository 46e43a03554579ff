/*
 * SPEC 2.4: names compared as a reader sees them.  Each row is a name as
 * a packet or the roster might spell it, the name it is compared with,
 * and whether a reader could tell them apart.  The expectations are
 * written out, not computed by a second list: ICU decides, the table
 * checks that it decides what a reader would.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include "text.h"
#include "unicode_text.h"

struct name_case {
	const char *a;
	const char *b;
	bool same;
	const char *what;
};

static const struct name_case cases[] = {
	{ "root", "root", true, "identical" },
	{ "Root", "root", true, "capital" },
	{ "ROOT", "root", true, "all capitals" },
	{ "rOoT", "RoOt", true, "mixed case" },
	{ " root ", "root", true, "ASCII spaces around" },
	{ "ro ot", "root", true, "ASCII space inside" },
	{ "root\t", "root", true, "tab" },
	{ "root\xc2\xa0", "root", true, "NBSP after" },
	{ "ro\xc2\xa0ot", "root", true, "NBSP inside" },
	{ "ro\xe2\x80\x8bot", "root", true, "zero-width space U+200B" },
	{ "ro\xe2\x80\x8cot", "root", true, "ZWNJ U+200C" },
	{ "ro\xe2\x80\x8dot", "root", true, "ZWJ U+200D" },
	{ "root\xe2\x80\x8e", "root", true, "LRM U+200E" },
	{ "\xe2\x80\xaeroot\xe2\x80\xac", "root", true, "RLO..PDF around" },
	{ "ro\xe2\x81\xa0ot", "root", true, "word joiner U+2060" },
	{ "\xef\xbb\xbfroot", "root", true, "BOM U+FEFF" },
	{ "ro\xc2\xadot", "root", true, "soft hyphen U+00AD" },
	{ "ro\xcd\x8fot", "root", true, "combining grapheme joiner U+034F" },
	{ "root\xef\xb8\x8f", "root", true, "variation selector 16 U+FE0F" },
	{ "ro\xef\xb8\x80ot", "root", true, "variation selector 1 U+FE00" },
	{ "root\xf3\xa0\x84\x80", "root", true, "variation selector 17 U+E0100" },
	{ "ro\xe1\xa0\x8bot", "root", true, "Mongolian FVS1 U+180B" },
	{ "root\xf3\xa0\x80\xa1", "root", true, "tag character U+E0021" },
	{ "root\xe3\x85\xa4", "root", true, "Hangul filler U+3164" },
	{ "\xe2\xa0\x80root\xe2\xa0\x80", "root", true,
	    "braille blank U+2800 padding" },
	{ "ro\xe2\x80\x83ot", "root", true, "em space U+2003" },
	{ "root\xe3\x80\x80", "root", true, "ideographic space U+3000" },
	{ "r\xd0\xbe\xd0\xbet", "root", true, "Cyrillic o, o" },
	{ "r\xd0\xbeot", "root", true, "one Cyrillic o" },
	{ "\xef\xbd\x92\xef\xbd\x8f\xef\xbd\x8f\xef\xbd\x94", "root", true,
	    "fullwidth" },
	{ "\xef\xbc\xb2\xef\xbc\xaf\xef\xbc\xaf\xef\xbc\xb4", "root", true,
	    "fullwidth capitals" },
	{ "r\xce\xbf\xce\xbft", "root", true, "Greek omicron" },
	{ "\xd0\xb0" "dmin", "admin", true, "Cyrillic a" },
	{ "pa\xd1\x83pal", "paypal", true, "Cyrillic u as y" },
	{ "a\xe2\x80\x8b\xd0\xb0\xef\xb8\x8f" "dmin", "aadmin", true,
	    "ZWSP, Cyrillic a and VS16 together" },
	{ "\xef\xbd\x92\xcd\x8f\xd0\xbeo\xe2\xa0\x80T", "root", true,
	    "fullwidth, CGJ, Cyrillic, braille blank and case" },
	{ "l", "1", true, "l and 1 look alike" },
	{ "modern", "rnodern", true, "m and rn share a skeleton" },
	{ "\xef\xac\x81le", "file", true, "fi ligature U+FB01" },
	{ "Stra\xc3\x9f" "e", "strasse", true, "sharp s folds to ss" },
	{ "root", "roots", false, "one more letter" },
	{ "root", "boot", false, "another letter" },
	/* Marks are dropped after NFD (issue 35): ö reads as o with a mark. */
	{ "r\xc3\xb6ot", "root", true, "o with umlaut, precomposed" },
	{ "ro\xcc\x88ot", "root", true, "o and a combining diaeresis" },
	{ "alice\xcc\x87", "alice", true, "combining dot above U+0307" },
	{ "alice\xf0\x93\x90\xb0", "alice", true,
	    "Egyptian format control U+13430" },
	{ "al\xd2\x88ice", "alice", true, "enclosing mark U+0488" },
	{ "alice\xf0\x91\x82\xbd", "alice", true,
	    "Kaithi number sign U+110BD (Cf)" },
	{ "alice", "bob", false, "different people" },
	{ "pm.lee", "pm.li", false, "different people, similar" },
	{ "drafter-1", "drafter-2", false, "different numbers" },
	{ "\xd0\xb8\xd0\xb2\xd0\xb0\xd0\xbd", "ivan", false,
	    "Cyrillic ivan is not Latin ivan" },
	{ "\xe7\x8e\x8b", "\xe6\x9d\x8e", false, "different CJK names" },
	{ "", "root", false, "empty against a name" },
	{ "\xe2\x80\x8b", "root", false, "only invisible against a name" },
	{ "root", "root.", false, "a visible full stop" },
};

static void
test_name_table(void **state)
{
	size_t i, wrong = 0;

	(void)state;
	assert_true(sizeof cases / sizeof cases[0] >= 40);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bool forward = text_same_name(cases[i].a, cases[i].b);
		bool backward = text_same_name(cases[i].b, cases[i].a);

		if (forward != cases[i].same || backward != cases[i].same) {
			print_error("row %zu (%s): expected %s\n", i,
			    cases[i].what, cases[i].same ? "same" : "different");
			wrong++;
		}
	}
	assert_int_equal(wrong, 0);
}

static void
test_null_names_differ(void **state)
{
	(void)state;
	assert_false(text_same_name(NULL, "root"));
	assert_false(text_same_name("root", NULL));
	assert_false(text_same_name(NULL, NULL));
	assert_null(unicode_name_key(NULL));
	assert_null(unicode_name_key("ro\xffot"));
}

/* The key of every look-alike is the key of the plain name. */
static void
test_key_is_plain(void **state)
{
	char *key;

	(void)state;
	key = unicode_name_key("\xef\xbc\xb2\xd0\xbe\xcd\x8fot\xe2\xa0\x80");
	assert_non_null(key);
	assert_string_equal(key, "root");
	free(key);
}

/* A reason of nothing visible is blank; anything visible is not. */
static void
test_blank_reasons(void **state)
{
	(void)state;
	assert_true(text_blank("\xcd\x8f\xef\xb8\x8f"));	/* CGJ, VS16 */
	assert_true(text_blank("\xe2\xa0\x80\xe2\xa0\x80"));	/* U+2800 */
	assert_true(text_blank("\xf3\xa0\x84\x80 \xe1\xa0\x8b"));
	assert_true(text_blank("\xe2\x80\xa8\xe2\x80\xa9"));	/* LS, PS */
	assert_false(text_blank("\xe2\xa0\x81"));	/* a braille dot */
	assert_false(text_blank("\xef\xbd\x8e\xef\xbd\x8f"));	/* fullwidth no */
}

/*
 * Name keys are kept in a memo of 16: comparing a name whose key is the
 * oldest there with 16 new names pushes it out while it is being read
 * (a use after free that ASan and the fuzzer caught).
 */
static void
test_memo_turns_over(void **state)
{
	char other[32];
	int round, i;

	(void)state;
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 40; i++) {
			snprintf(other, sizeof other, "author-%d-%d", round, i);
			assert_false(text_same_name("r\xd0\xbe\xd0\xbet", other));
			assert_true(text_same_name(other, other));
		}
		assert_true(text_same_name("r\xd0\xbe\xd0\xbet", "ROOT"));
	}
}

/*
 * Every format character (Cf) and combining mark (Mn, Me) that ICU
 * knows, generated from its tables rather than listed: put inside or
 * after a name, the name stays the same (issue 35).  The count guards
 * against a loop that tested nothing.
 */
static void
test_every_format_char_and_mark_is_dropped(void **state)
{
	char inside[32], after[32];
	size_t tested = 0, wrong = 0;
	UChar32 c;
	int8_t type;
	int32_t n;

	(void)state;
	for (c = 0; c <= 0x10FFFF; c++) {
		type = u_charType(c);
		if (type != U_FORMAT_CHAR && type != U_NON_SPACING_MARK &&
		    type != U_ENCLOSING_MARK)
			continue;
		n = 0;
		inside[n++] = 'a';
		inside[n++] = 'l';
		U8_APPEND_UNSAFE(inside, n, c);
		memcpy(inside + n, "ice", 4);
		n = 0;
		memcpy(after, "alice", 5);
		n = 5;
		U8_APPEND_UNSAFE(after, n, c);
		after[n] = '\0';
		if (!text_same_name(inside, "alice") ||
		    !text_same_name(after, "Alice")) {
			if (wrong++ < 10)
				print_error("U+%04X (type %d) makes another name\n",
				    (unsigned)c, type);
		}
		tested++;
	}
	assert_int_equal(wrong, 0);
	assert_true(tested > 2000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_table),
		cmocka_unit_test(test_null_names_differ),
		cmocka_unit_test(test_key_is_plain),
		cmocka_unit_test(test_blank_reasons),
		cmocka_unit_test(test_memo_turns_over),
		cmocka_unit_test(test_every_format_char_and_mark_is_dropped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
