/*
 * The floor for check (issue 34): what a check cannot avoid.  Each JSON
 * line is read, parsed with cJSON and hashed (SHA-256, as the packet's
 * packet_sha256), and a verdict line of LINE_BYTES bytes is built as a
 * cJSON object (the action's id and kind, the hash, and text to the size
 * check prints) and printed.  No rules, no store.
 *
 *   bare_check LINE_BYTES FILE... >OUT
 *
 * LINE_BYTES: the mean length of check's own lines, newline included
 * (bench/run measures it on the same queue).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <openssl/evp.h>

static const char *
text_of(const cJSON *object, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);

	return cJSON_IsString(item) ? item->valuestring : "";
}

int
main(int argc, char **argv)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char digest[EVP_MAX_MD_SIZE];
	char sha[2 * EVP_MAX_MD_SIZE + 1], *line = NULL, *filler = NULL;
	size_t size = 0, bytes, frame;
	unsigned int dlen, k;
	ssize_t len;
	long count = 0;
	int i, rc = 1;
	FILE *in;

	if (argc < 3 || (bytes = strtoul(argv[1], NULL, 10)) == 0) {
		fprintf(stderr, "usage: bare_check LINE_BYTES FILE...\n");
		return 2;
	}
	/* The object's own bytes: braces, names, quotes, the newline. */
	frame = strlen("{\"action_id\":\"\",\"kind\":\"\",\"packet_sha256\":\"\","
	    "\"verdict\":\"\"}\n");
	if ((filler = malloc(bytes + 1)) == NULL)
		return 1;
	memset(filler, 'x', bytes);
	for (i = 2; i < argc; i++) {
		if ((in = fopen(argv[i], "r")) == NULL)
			goto cleanup;
		while ((len = getline(&line, &size, in)) > 0) {
			cJSON *json, *verdict;
			const cJSON *action;
			const char *id, *kind;
			char *printed;
			size_t used, pad;

			if (line[len - 1] == '\n')
				line[--len] = '\0';
			if ((json = cJSON_ParseWithLength(line, (size_t)len)) == NULL)
				continue;
			if (!EVP_Digest(line, (size_t)len, digest, &dlen,
			    EVP_sha256(), NULL)) {
				cJSON_Delete(json);
				fclose(in);
				goto cleanup;
			}
			for (k = 0; k < dlen; k++) {
				sha[2 * k] = hex[digest[k] >> 4];
				sha[2 * k + 1] = hex[digest[k] & 15];
			}
			sha[2 * dlen] = '\0';
			action = cJSON_GetObjectItemCaseSensitive(json,
			    "proposed_action");
			id = text_of(action, "action_id");
			kind = text_of(json, "kind");
			used = frame + strlen(id) + strlen(kind) + 2 * dlen;
			pad = bytes > used ? bytes - used : 0;
			filler[pad] = '\0';
			verdict = cJSON_CreateObject();
			cJSON_AddStringToObject(verdict, "action_id", id);
			cJSON_AddStringToObject(verdict, "kind", kind);
			cJSON_AddStringToObject(verdict, "packet_sha256", sha);
			cJSON_AddStringToObject(verdict, "verdict", filler);
			filler[pad] = 'x';
			printed = cJSON_PrintUnformatted(verdict);
			if (printed == NULL) {
				cJSON_Delete(verdict);
				cJSON_Delete(json);
				fclose(in);
				goto cleanup;
			}
			fputs(printed, stdout);
			putchar('\n');
			cJSON_free(printed);
			cJSON_Delete(verdict);
			cJSON_Delete(json);
			count++;
		}
		fclose(in);
	}
	fprintf(stderr, "bare_check: %ld lines\n", count);
	rc = 0;
cleanup:
	free(line);
	free(filler);
	return rc;
}
