/*
 * What both sides of the protocol share: base64, whole writes, reading a
 * message, and text for error answers that stays UTF-8 whatever it quotes.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <cjson/cJSON.h>

#include "error.h"
#include "json_strict.h"
#include "service.h"
#include "utf8.h"

char *
rpc_base64(const void *data, size_t len)
{
	char *text = malloc((len + 2) / 3 * 4 + 1);

	if (text == NULL || len > RPC_MESSAGE_MAX)
		return free(text), NULL;
	EVP_EncodeBlock((unsigned char *)text, data, (int)len);
	return text;
}

int
rpc_unbase64(const char *text, unsigned char **data, size_t *len)
{
	size_t text_len = strlen(text), pad = 0;
	int n;

	*data = NULL;
	*len = 0;
	if (text_len % 4 != 0 || text_len > RPC_MESSAGE_MAX)
		return -1;
	if ((*data = malloc(text_len / 4 * 3 + 1)) == NULL)
		return -1;
	if (text_len == 0)
		return 0;
	/* EVP_DecodeBlock counts the padding as zero bytes: take them off. */
	n = EVP_DecodeBlock(*data, (const unsigned char *)text, (int)text_len);
	if (n < 0) {
		free(*data);
		*data = NULL;
		return -1;
	}
	pad = (text[text_len - 1] == '=') + (text[text_len - 2] == '=');
	*len = (size_t)n - pad;
	return 0;
}

/* Whole writes: send(2) with flags on a socket, else write(2). */
static int
write_whole(int fd, const void *buf, size_t len, bool socket_send)
{
	const char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = socket_send ? send(fd, p, len, MSG_NOSIGNAL) :
		    write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
rpc_write_all(int fd, const void *buf, size_t len)
{
	return write_whole(fd, buf, len, false);
}

int
rpc_send_all(int fd, const void *buf, size_t len)
{
	/* A service that closed on us is an error, not SIGPIPE. */
	return write_whole(fd, buf, len, true);
}

/*
 * cJSON alone takes invalid UTF-8 into a string and ends a name at a
 * \u0000, so "list\u0000x" would run list and a raw byte be quoted into
 * an answer that is then no JSON: the strict parser refuses both, in any
 * string or key of the message (countersign-protocol(7)).
 */
cJSON *
rpc_parse_request(const char *text, size_t len, int *code,
    const char **why)
{
	cJSON *msg, *lenient;
	const cJSON *id, *method, *version;
	struct error err;

	error_clear(&err);
	*code = 0;
	if ((msg = json_parse_strict(text, len, NULL, &err)) == NULL) {
		/* JSON to cJSON but not to RFC 8259: a request, malformed. */
		lenient = cJSON_ParseWithLength(text, len);
		*code = lenient != NULL ? RPC_INVALID_REQUEST : RPC_PARSE_ERROR;
		*why = lenient != NULL ? "the message holds invalid UTF-8, a "
		    "NUL or a repeated key" : "the message is not a JSON-RPC "
		    "2.0 object";
		cJSON_Delete(lenient);
		return NULL;
	}
	if (!cJSON_IsObject(msg)) {
		*code = RPC_INVALID_REQUEST;
		*why = "the message is not a JSON-RPC 2.0 object";
		cJSON_Delete(msg);
		return NULL;
	}
	id = cJSON_GetObjectItemCaseSensitive(msg, "id");
	version = cJSON_GetObjectItemCaseSensitive(msg, "jsonrpc");
	method = cJSON_GetObjectItemCaseSensitive(msg, "method");
	if (!cJSON_IsString(version) || strcmp(version->valuestring, "2.0") ||
	    !cJSON_IsString(method) || (id != NULL && !cJSON_IsNumber(id) &&
	    !cJSON_IsString(id))) {
		*code = RPC_INVALID_REQUEST;
		*why = "the message is not a JSON-RPC 2.0 request";
		cJSON_Delete(msg);
		return NULL;
	}
	/* Every answer repeats the id: a 1 MB one would make 1 MB each. */
	if (cJSON_IsString(id) && strlen(id->valuestring) > RPC_ID_MAX) {
		*code = RPC_INVALID_REQUEST;
		*why = "an id is a number or a string of at most 256 bytes";
		cJSON_Delete(msg);
		return NULL;
	}
	return msg;
}

/* Invalid bytes become '?', a character cut at the end is dropped. */
void
rpc_utf8_repair(char *text)
{
	unsigned char *s = (unsigned char *)text;
	size_t len = strlen(text), at = 0;
	uint32_t cp;
	int n;

	while (at < len) {
		n = utf8_next(s + at, len - at, &cp);
		if (n > 0) {
			at += (size_t)n;
			continue;
		}
		if (at + (size_t)-n == len) {
			/* A character cut at the end: dropped, never half. */
			s[at] = '\0';
			break;
		}
		memset(s + at, '?', (size_t)-n);
		at += (size_t)-n;
	}
}
