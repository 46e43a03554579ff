/*
 * Fuzz target: batch_parse_request() (include/commands.h), one request line
 * of `countersign batch` (SPEC 8).  The line is parsed as given (no NUL
 * terminator), then again with a tiny message buffer and with none.
 *
 * Invariants checked (abort() when broken): the result is 0 or -1 and the
 * same whatever the message buffer; a refusal has a non-empty message that
 * fits its buffer.
 */
#include "config.h"

#include "commands.h"
#include "fuzz_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char message[2048], tiny[8];
	int rc, rc_tiny, rc_none;

	memset(message, 0x55, sizeof message);
	memset(tiny, 0x55, sizeof tiny);
	rc = batch_parse_request(text, size, message, sizeof message);
	if (rc != 0 && rc != -1)
		fuzz_fail("batch_parse_request: returned neither 0 nor -1", text,
		    size, 0);
	if (rc == -1 && (memchr(message, '\0', sizeof message) == NULL ||
	    message[0] == '\0'))
		fuzz_fail("batch_parse_request: refusal without a message", text,
		    size, 0);

	rc_tiny = batch_parse_request(text, size, tiny, sizeof tiny);
	if (rc_tiny == -1 && memchr(tiny, '\0', sizeof tiny) == NULL)
		fuzz_fail("batch_parse_request: message overran its buffer",
		    text, size, 0);
	rc_none = batch_parse_request(text, size, NULL, 0);
	if (rc_tiny != rc || rc_none != rc)
		fuzz_fail("batch_parse_request: the result depends on the "
		    "message buffer", text, size, 0);
	return 0;
}
