/* What both sides of the protocol share: base64 and whole writes. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "service.h"

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
