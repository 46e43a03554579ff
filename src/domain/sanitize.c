/*
 * The one gate between untrusted text and a human's terminal (SPEC section
 * 9).  Packets are written by a language model, and whoever steers that model
 * can put any bytes into them.  A terminal obeys a surprising number of those
 * bytes: CSI moves the cursor or clears the screen, OSC sets the window title
 * or (OSC 52) writes the clipboard, CR and BS let "REJECT" be overwritten by
 * "APPROVE", and bidirectional overrides make the officer read text in an
 * order other than the one they approve.  Everything such a byte could do
 * is therefore shown as a visible escape instead.
 *
 * UTF-8 is decoded here rather than with mbrtowc() because the answer must
 * not depend on the locale the officer happens to run in: under a non-UTF-8
 * locale mbrtowc() would call C2 9B two harmless bytes, yet a UTF-8 terminal
 * still reads it as CSI.
 *
 * Each function walks its input twice, once to measure and once to write,
 * so the buffer is allocated exactly once at exactly the right size.
 */

#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "unicode_text.h"
#include "utf8.h"

/* Returned by decode_utf8() for a maximal subpart of an invalid sequence. */
#define INVALID_CODE_POINT	UINT32_MAX

/*
 * Most output bytes one input byte can become.  sanitize(): a lone invalid
 * byte becomes U+FFFD (3 bytes) and two-byte U+0080 becomes "<U+0080>" (8
 * bytes, 4 per input byte).  json_escape_controls(): a lone DEL or invalid
 * byte becomes "\u007f" or "\ufffd" (6 bytes).  Only used to refuse inputs
 * whose output size would not fit in a size_t.
 */
#define SANITIZE_MAX_GROWTH	4
#define JSON_MAX_GROWTH		6

/* U+FFFD REPLACEMENT CHARACTER in UTF-8. */
#define REPLACEMENT		"\xef\xbf\xbd"
#define REPLACEMENT_LENGTH	3

/* Where output goes; buffer is NULL during the measuring pass. */
struct output {
	char	*buffer;
	size_t	 length;
};

static size_t	decode_utf8(const unsigned char *, size_t, uint32_t *);
static int	is_c1_control(uint32_t);
static int	is_format_character(uint32_t);
static int	code_point_width(uint32_t);
static void	output_bytes(struct output *, const void *, size_t);
static void	output_hex(struct output *, uint32_t, const char *);
static void	output_json_escape(struct output *, uint32_t);
static void	sanitize_into(struct output *, const unsigned char *, size_t);
static void	json_escape_into(struct output *, const unsigned char *,
		    size_t);

/*
 * Decodes one sequence with the shared strict decoder.  An invalid one
 * spans its "maximal subpart" (Unicode 3.9), so replacing it with one
 * U+FFFD never swallows a following valid character: a broken sequence
 * cannot hide the ESC or newline after it.
 */
static size_t
decode_utf8(const unsigned char *text, size_t len, uint32_t *code_point)
{
	int n = utf8_next(text, len, code_point);

	if (n < 0) {
		*code_point = INVALID_CODE_POINT;
		return ((size_t)-n);
	}
	return ((size_t)n);
}

/*
 * U+0080-U+009F.  A UTF-8 terminal treats U+009B as CSI and U+009D as OSC
 * exactly as it treats ESC [ and ESC ].
 */
static int
is_c1_control(uint32_t code_point)
{
	return (code_point >= 0x80 && code_point <= 0x9f);
}

/*
 * Characters that reorder the text around them or are invisible, so that
 * what the officer reads differs from the bytes they approve ("Trojan
 * Source"), or that look like nothing yet carry text (the tag characters
 * can spell a whole hidden sentence after a visible one; a variation
 * selector or U+034F makes "root" another name): every default-ignorable
 * code point, every format character (Cf) and line or paragraph separator
 * (Zl, Zp), every bidi control.  The classes are ICU's (unicode_text.c):
 * a hand list of them had missed 304 such code points.
 */
static int
is_format_character(uint32_t code_point)
{
	/* Printable ASCII never is: spare it the table look-ups. */
	if (code_point >= 0x20 && code_point < 0x7f)
		return (0);
	return (unicode_invisible(code_point));
}

/*
 * Columns a code point occupies, from the Unicode properties rather than
 * wcwidth(), whose answer depends on the locale and the C library:
 * combining marks take none, East Asian Wide and Fullwidth characters two.
 */
static int
code_point_width(uint32_t code_point)
{
	if (code_point < 0x7f)
		return (1);
	return (unicode_columns(code_point));
}

static void
output_bytes(struct output *output, const void *bytes, size_t count)
{
	if (output->buffer != NULL)
		memcpy(output->buffer + output->length, bytes, count);
	output->length += count;
}

/* Four hex digits, or five for the tag characters (U+E0000-U+E007F). */
static void
output_hex(struct output *output, uint32_t code_point, const char *digits)
{
	char	hex[5];
	int	i, count = code_point > 0xffff ? 5 : 4;

	for (i = count - 1; i >= 0; i--) {
		hex[i] = digits[code_point & 0xf];
		code_point >>= 4;
	}
	output_bytes(output, hex, (size_t)count);
}

/* \uXXXX, as a surrogate pair past the BMP, which is how JSON spells it. */
static void
output_json_escape(struct output *output, uint32_t code_point)
{
	if (code_point > 0xffff) {
		code_point -= 0x10000;
		output_json_escape(output, 0xd800 + (code_point >> 10));
		code_point = 0xdc00 + (code_point & 0x3ff);
	}
	output_bytes(output, "\\u", 2);
	output_hex(output, code_point, "0123456789abcdef");
}

static void
sanitize_into(struct output *output, const unsigned char *text, size_t len)
{
	uint32_t	code_point;
	size_t		offset, size;
	char		caret[2];

	for (offset = 0; offset < len; offset += size) {
		size = decode_utf8(text + offset, len - offset, &code_point);
		if (code_point == INVALID_CODE_POINT)
			output_bytes(output, REPLACEMENT, REPLACEMENT_LENGTH);
		else if (code_point == 0x1b)
			output_bytes(output, "\\e", 2);
		else if (code_point < 0x20 || code_point == 0x7f) {
			/* Flipping bit 6 maps 0x00-0x1f to @-_ and 0x7f to ?. */
			caret[0] = '^';
			caret[1] = (char)(code_point ^ 0x40);
			output_bytes(output, caret, sizeof caret);
		} else if (is_c1_control(code_point) ||
		    is_format_character(code_point)) {
			output_bytes(output, "<U+", 3);
			output_hex(output, code_point, "0123456789ABCDEF");
			output_bytes(output, ">", 1);
		} else
			output_bytes(output, text + offset, size);
	}
}

/*
 * Most text is printable ASCII, which both transformations copy as it is:
 * finding that out in one tight pass saves decoding it twice.
 */
bool
sanitize_keeps(const char *text, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c < 0x20 || c > 0x7e)
			return (false);
	}
	return (true);
}

static char *
copy_if_printable_ascii(const char *text, size_t len)
{
	char	*copy;

	if (!sanitize_keeps(text, len))
		return (NULL);
	if ((copy = malloc(len + 1)) == NULL)
		return (NULL);
	memcpy(copy, text, len);
	copy[len] = '\0';
	return (copy);
}

char *
sanitize(const char *text, size_t len)
{
	struct output	output = { NULL, 0 };

	if (text == NULL)
		len = 0;
	if (len > (SIZE_MAX - 1) / SANITIZE_MAX_GROWTH) {
		errno = ENOMEM;
		return (NULL);
	}

	if (text != NULL && (output.buffer = copy_if_printable_ascii(text,
	    len)) != NULL)
		return (output.buffer);
	sanitize_into(&output, (const unsigned char *)text, len);
	if ((output.buffer = malloc(output.length + 1)) == NULL)
		return (NULL);
	output.length = 0;
	sanitize_into(&output, (const unsigned char *)text, len);
	output.buffer[output.length] = '\0';
	return (output.buffer);
}

char *
sanitize_str(const char *text)
{
	if (text == NULL)
		return (sanitize("", 0));
	return (sanitize(text, strlen(text)));
}

size_t
sanitized_prefix(const char *sanitized, size_t columns, size_t *width_out)
{
	const unsigned char	*text = (const unsigned char *)sanitized;
	uint32_t		 code_point;
	size_t			 len, offset, size, width = 0, cell;

	if (width_out != NULL)
		*width_out = 0;
	if (sanitized == NULL)
		return (0);
	len = strlen(sanitized);
	for (offset = 0; offset < len; offset += size) {
		size = decode_utf8(text + offset, len - offset, &code_point);
		cell = code_point == INVALID_CODE_POINT ? 1 :
		    (size_t)code_point_width(code_point);
		if (width + cell > columns)
			break;
		width += cell;
	}
	if (width_out != NULL)
		*width_out = width;
	return (offset);
}

size_t
sanitized_width(const char *sanitized)
{
	const unsigned char	*text = (const unsigned char *)sanitized;
	uint32_t		 code_point;
	size_t			 len, offset, size, width = 0;

	if (sanitized == NULL)
		return (0);
	len = strlen(sanitized);
	for (offset = 0; offset < len; offset += size) {
		size = decode_utf8(text + offset, len - offset, &code_point);
		/* Not expected in sanitized text; a terminal shows U+FFFD. */
		if (code_point == INVALID_CODE_POINT)
			width++;
		else
			width += code_point_width(code_point);
	}
	return (width);
}

/*
 * cJSON escapes C0 controls inside strings but copies DEL and every byte
 * above 0x7f untouched, valid or not, so those are escaped here.  They can
 * only occur inside strings, where \uXXXX means the same character, so the
 * document still parses to the same values.  A raw C0 byte other than the
 * tab and newline cJSON indents with is never produced by cJSON; should some
 * other caller pass one, it is escaped too rather than reach the terminal.
 */
static void
json_escape_into(struct output *output, const unsigned char *json, size_t len)
{
	uint32_t	code_point;
	size_t		offset, size;

	for (offset = 0; offset < len; offset += size) {
		size = decode_utf8(json + offset, len - offset, &code_point);
		if (code_point == INVALID_CODE_POINT)
			output_bytes(output, "\\ufffd", 6);
		else if ((code_point < 0x20 && code_point != '\t' &&
		    code_point != '\n') || code_point == 0x7f ||
		    is_c1_control(code_point) ||
		    is_format_character(code_point)) {
			output_json_escape(output, code_point);
		} else
			output_bytes(output, json + offset, size);
	}
}

char *
json_escape_controls(const char *json)
{
	struct output	output = { NULL, 0 };
	size_t		len;

	if (json == NULL)
		json = "";
	len = strlen(json);
	if (len > (SIZE_MAX - 1) / JSON_MAX_GROWTH) {
		errno = ENOMEM;
		return (NULL);
	}

	/* JSON text from cJSON may also hold tabs and newlines: no matter. */
	if ((output.buffer = copy_if_printable_ascii(json, len)) != NULL)
		return (output.buffer);
	json_escape_into(&output, (const unsigned char *)json, len);
	if ((output.buffer = malloc(output.length + 1)) == NULL)
		return (NULL);
	output.length = 0;
	json_escape_into(&output, (const unsigned char *)json, len);
	output.buffer[output.length] = '\0';
	return (output.buffer);
}
