/*
 * Fuzz target: sanitize() and json_escape_controls() (include/sanitize.h),
 * the one gate between untrusted text and a terminal (SPEC 9).
 *
 * Invariants checked (abort() when broken):
 * - sanitize() output is well-formed UTF-8 with no C0 control, DEL, C1
 *   control (U+0080-U+009F, 0xC2 0x80-0x9F) or bidi/invisible format
 *   character; text that holds none of those comes back unchanged.
 * - sanitized_prefix()/sanitized_width() agree with each other.
 * - json_escape_controls() output: the same, except that raw tab and
 *   newline are allowed (cJSON indents with them; the header says so).
 * - A cJSON string holding the input (when it is valid UTF-8), printed and
 *   escaped, parses back to the very same string.
 */
#include "config.h"

#include <cjson/cJSON.h>

#include "sanitize.h"
#include "fuzz_common.h"

/* True when text[0..len) is valid UTF-8 free of terminal controls. */
static bool
harmless(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t at = 0, n;
	uint32_t cp;

	while (at < len) {
		if ((n = fuzz_utf8_decode(s + at, len - at, &cp)) == 0 ||
		    fuzz_is_terminal_control(cp))
			return false;
		at += n;
	}
	return true;
}

static bool
valid_utf8(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t at = 0, n;
	uint32_t cp;

	while (at < len) {
		if ((n = fuzz_utf8_decode(s + at, len - at, &cp)) == 0)
			return false;
		at += n;
	}
	return true;
}

static void
check_sanitize(const char *text, size_t len)
{
	static const size_t columns[] = { 0, 1, 2, 7, 80, (size_t)-1 };
	size_t out_len, width, prefix_width, prefix, i;
	char *out = sanitize(text, len);

	if (out == NULL)
		abort();	/* only when out of memory, never at 64 KiB */
	out_len = strlen(out);
	fuzz_assert_terminal_safe("sanitize", out, out_len, false);
	if (harmless(text, len) && (out_len != len ||
	    memcmp(out, text, len) != 0))
		fuzz_fail("sanitize: harmless text was changed", text, len, 0);

	width = sanitized_width(out);
	if (width > out_len)
		fuzz_fail("sanitized_width: wider than the byte count", out,
		    out_len, 0);
	for (i = 0; i < sizeof columns / sizeof columns[0]; i++) {
		prefix = sanitized_prefix(out, columns[i], &prefix_width);
		if (prefix > out_len || prefix_width > columns[i] ||
		    prefix_width > width)
			fuzz_fail("sanitized_prefix: out of bounds", out,
			    out_len, prefix);
		if (prefix < out_len && !valid_utf8(out, prefix))
			fuzz_fail("sanitized_prefix: cuts a character", out,
			    out_len, prefix);
	}
	prefix = sanitized_prefix(out, width, &prefix_width);
	if (prefix != out_len || prefix_width != width)
		fuzz_fail("sanitized_prefix(width) is not the whole text", out,
		    out_len, prefix);
	free(out);
}

static void
check_json_escape(const char *cstring)
{
	size_t len = strlen(cstring);
	char *out = json_escape_controls(cstring), *printed, *escaped;
	cJSON *string, *back;

	if (out == NULL)
		abort();
	fuzz_assert_terminal_safe("json_escape_controls", out, strlen(out),
	    true);
	free(out);

	/* As the commands use it: on JSON that cJSON printed. */
	if (!valid_utf8(cstring, len))
		return;
	if ((string = cJSON_CreateString(cstring)) == NULL ||
	    (printed = cJSON_PrintUnformatted(string)) == NULL)
		abort();
	if ((escaped = json_escape_controls(printed)) == NULL)
		abort();
	fuzz_assert_terminal_safe("json_escape_controls(cJSON output)", escaped,
	    strlen(escaped), false);
	back = cJSON_Parse(escaped);
	if (!cJSON_IsString(back) || strcmp(back->valuestring, cstring) != 0)
		fuzz_fail("json_escape_controls: the escaped JSON string does "
		    "not parse back to the same text", escaped,
		    strlen(escaped), 0);
	cJSON_Delete(back);
	cJSON_free(printed);
	free(escaped);
	cJSON_Delete(string);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	char *out;

	check_sanitize(text, size);
	/* sanitize_str() stops at the first NUL. */
	out = sanitize_str(text);
	if (out == NULL)
		abort();
	fuzz_assert_terminal_safe("sanitize_str", out, strlen(out), false);
	free(out);
	check_json_escape(text);
	free(text);
	return 0;
}
