/*
 * Names and character classes from ICU (SPEC 2.4 and 9).  Which code
 * points are invisible, which look alike, which fill two columns: those
 * tables grow with every Unicode version, and a hand-made list of them
 * had already missed hundreds (U+034F, the variation selectors...).
 * ICU's skeleton alone is not enough: it neither folds case, nor applies
 * NFKC, nor drops default-ignorables, so names are normalized first.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

#include "unicode_text.h"

/* Opened on first use, kept for the life of the process. */
static USpoofChecker *spoof_checker;
static const UNormalizer2 *nfkc_casefold;
static const UNormalizer2 *nfd;

static bool
icu_ready(void)
{
	UErrorCode status = U_ZERO_ERROR;

	if (nfkc_casefold == NULL) {
		nfkc_casefold = unorm2_getNFKCCasefoldInstance(&status);
		if (U_FAILURE(status))
			nfkc_casefold = NULL;
	}
	status = U_ZERO_ERROR;
	if (nfd == NULL) {
		nfd = unorm2_getNFDInstance(&status);
		if (U_FAILURE(status))
			nfd = NULL;
	}
	status = U_ZERO_ERROR;
	if (spoof_checker == NULL) {
		spoof_checker = uspoof_open(&status);
		if (U_FAILURE(status)) {
			uspoof_close(spoof_checker);
			spoof_checker = NULL;
		}
	}
	return nfkc_casefold != NULL && nfd != NULL && spoof_checker != NULL;
}

/* Renders blank though it is neither white space nor default-ignorable. */
static bool
blank_glyph(UChar32 c)
{
	return c == 0x2800 || u_hasBinaryProperty(c, UCHAR_WHITE_SPACE);
}

/* text as UTF-16, NUL-terminated, newly allocated; NULL if not UTF-8. */
static UChar *
utf16_of(const char *text, int32_t *length)
{
	UErrorCode status = U_ZERO_ERROR;
	int32_t size = (int32_t)strlen(text) + 1;
	UChar *out;

	/* UTF-16 never needs more units than UTF-8 has bytes. */
	if ((out = malloc((size_t)size * sizeof *out)) == NULL)
		return NULL;
	u_strFromUTF8(out, size, length, text, -1, &status);
	if (U_FAILURE(status)) {
		free(out);
		return NULL;
	}
	return out;
}

/* in normalized by form, newly allocated; NULL on failure. */
static UChar *
normalized(const UNormalizer2 *form, const UChar *in, int32_t length,
    int32_t *out_length)
{
	UErrorCode status = U_ZERO_ERROR;
	int32_t need;
	UChar *out;

	need = unorm2_normalize(form, in, length, NULL, 0, &status);
	if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status))
		return NULL;
	if ((out = malloc(((size_t)need + 1) * sizeof *out)) == NULL)
		return NULL;
	status = U_ZERO_ERROR;
	*out_length = unorm2_normalize(form, in, length, out, need + 1,
	    &status);
	if (U_FAILURE(status)) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * Drops, in place, what renders blank, any ignorable left over, every
 * format character (Cf: U+13430 and its kind are not default-ignorable,
 * yet most terminals show nothing) and every combining mark (Mn, Me:
 * "alice" with U+0307 above reads as "alice").  The text is in NFD, so
 * a precomposed letter has given up its marks too (issue 35).
 */
static int32_t
without_blanks_or_marks(UChar *s, int32_t length)
{
	int32_t in = 0, out = 0, start;
	int8_t type;
	UChar32 c;

	while (in < length) {
		start = in;
		U16_NEXT(s, in, length, c);
		type = u_charType(c);
		if (blank_glyph(c) ||
		    u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
		    type == U_FORMAT_CHAR || type == U_NON_SPACING_MARK ||
		    type == U_ENCLOSING_MARK)
			continue;
		while (start < in)
			s[out++] = s[start++];
	}
	return out;
}

/* The UTS #39 skeleton of s as UTF-8, newly allocated. */
static char *
skeleton(const UChar *s, int32_t length)
{
	UErrorCode status = U_ZERO_ERROR;
	int32_t need, utf8_need;
	UChar *skel;
	char *out;

	need = uspoof_getSkeleton(spoof_checker, 0, s, length, NULL, 0,
	    &status);
	if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status))
		return NULL;
	if ((skel = malloc(((size_t)need + 1) * sizeof *skel)) == NULL)
		return NULL;
	status = U_ZERO_ERROR;
	need = uspoof_getSkeleton(spoof_checker, 0, s, length, skel, need + 1,
	    &status);
	if (U_FAILURE(status)) {
		free(skel);
		return NULL;
	}
	/* At most three UTF-8 bytes per UTF-16 unit. */
	if ((out = malloc((size_t)need * 3 + 1)) != NULL) {
		status = U_ZERO_ERROR;
		u_strToUTF8(out, need * 3 + 1, &utf8_need, skel, need, &status);
		if (U_FAILURE(status)) {
			free(out);
			out = NULL;
		}
	}
	free(skel);
	return out;
}

char *
unicode_name_key(const char *name)
{
	UChar *utf16 = NULL, *bare = NULL, *fold = NULL, *decomposed = NULL;
	int32_t length = 0, bare_length = 0, fold_length = 0;
	int32_t decomposed_length = 0;
	char *key = NULL;

	if (name == NULL || !icu_ready() ||
	    (utf16 = utf16_of(name, &length)) == NULL)
		goto done;
	/*
	 * Marks go before the case folding, which makes a letter of some
	 * (U+0345 becomes iota), and again after it, which decomposes some
	 * compatibility characters into a letter and a mark.
	 */
	if ((bare = normalized(nfd, utf16, length, &bare_length)) == NULL)
		goto done;
	bare_length = without_blanks_or_marks(bare, bare_length);
	if ((fold = normalized(nfkc_casefold, bare, bare_length,
	    &fold_length)) == NULL)
		goto done;
	if ((decomposed = normalized(nfd, fold, fold_length,
	    &decomposed_length)) == NULL)
		goto done;
	decomposed_length = without_blanks_or_marks(decomposed,
	    decomposed_length);
	key = skeleton(decomposed, decomposed_length);
done:
	free(utf16);
	free(bare);
	free(fold);
	free(decomposed);
	return key;
}

bool
unicode_blank(const char *text)
{
	int32_t i = 0, length;
	UChar32 c;

	if (text == NULL)
		return true;
	length = (int32_t)strlen(text);
	while (i < length) {
		U8_NEXT(text, i, length, c);
		if (c < 0)
			return false;
		if (!blank_glyph(c) && !unicode_invisible((uint32_t)c))
			return false;
	}
	return true;
}

bool
unicode_invisible(uint32_t code_point)
{
	UChar32 c = (UChar32)code_point;
	int8_t type = u_charType(c);

	return type == U_FORMAT_CHAR || type == U_LINE_SEPARATOR ||
	    type == U_PARAGRAPH_SEPARATOR ||
	    u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
	    u_hasBinaryProperty(c, UCHAR_BIDI_CONTROL);
}

int
unicode_columns(uint32_t code_point)
{
	UChar32 c = (UChar32)code_point;
	int8_t type = u_charType(c);
	int width;

	if (type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK)
		return 0;
	width = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
	return width == U_EA_WIDE || width == U_EA_FULLWIDTH ? 2 : 1;
}
