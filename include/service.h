/*
 * Service mode (SPEC 10, issue 19): `countersign serve` and the client
 * side of --connect, speaking JSON-RPC 2.0 one message a line over a Unix
 * stream socket (countersign-protocol(7)).  The service runs the same
 * command functions as local mode, in a child process per request, with
 * the operator taken from the socket's peer credentials.
 */
#ifndef COUNTERSIGN_SERVICE_H
#define COUNTERSIGN_SERVICE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "commands.h"

/* The longest message either side accepts, its newline excluded. */
#define RPC_MESSAGE_MAX (1UL << 20)
/* The longest string id a request may have (an answer repeats it). */
#define RPC_ID_MAX 256
/* Raw bytes carried by one upload or output message (base64 grows it). */
#define RPC_CHUNK (48UL * 1024)

/* JSON-RPC error codes: the standard ones, then the service's own. */
enum rpc_error {
	RPC_PARSE_ERROR = -32700,
	RPC_INVALID_REQUEST = -32600,
	RPC_METHOD_NOT_FOUND = -32601,
	RPC_INVALID_PARAMS = -32602,
	RPC_INTERNAL = -32603,
	RPC_FORBIDDEN = -32001,
	RPC_BUSY = -32002,
	RPC_TOO_LARGE = -32003,
	RPC_STOPPING = -32004,
	RPC_REFUSED = -32005	/* (v3) a gate code in data.code (SPEC 12) */
};

/* countersign serve: runs until SIGTERM or SIGINT. */
int cmd_serve(const struct invocation *);
/* Any other command, sent to the service at inv->connect. */
struct command_entry;
int client_run(const struct command_entry *, const struct invocation *);

/* Base64 (RFC 4648) of len bytes, NUL-terminated; NULL without memory. */
char *rpc_base64(const void *data, size_t len);
/* Decodes text; 0 with a malloc'd *data, -1 when it is not base64. */
int rpc_unbase64(const char *text, unsigned char **data, size_t *len);
/* Writes all of buf, through EINTR and short writes: 0, or -1 (errno). */
int rpc_write_all(int fd, const void *buf, size_t len);
/* The same on a socket whose peer may have closed: EPIPE, no signal. */
int rpc_send_all(int fd, const void *buf, size_t len);
/*
 * One message (a line, its newline excluded) as a JSON-RPC 2.0 request
 * or notification; NULL with *code RPC_PARSE_ERROR or RPC_INVALID_REQUEST
 * and *why a fixed sentence (never the message's own bytes) otherwise.
 * Any string or key with invalid UTF-8 or a NUL makes it invalid.
 */
cJSON *rpc_parse_request(const char *text, size_t len, int *code,
    const char **why);
/*
 * Text for an answer, made UTF-8 in place: each invalid byte becomes '?'
 * and a character cut at the end (by a bounded printf) is dropped.
 */
void rpc_utf8_repair(char *text);

#endif
