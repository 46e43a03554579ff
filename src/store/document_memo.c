/*
 * The document memos (struct document_memo, store_internal.h): the last
 * text of each kind of policy document a single re-check read, kept
 * parsed, printed and hashed, so that the same bytes read again are not
 * parsed or printed again; and, held by the write transaction
 * (policy_held.c), the row itself.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_writer.h"
#include "sha256.h"
#include "store_internal.h"
#include "text.h"

static void
memo_clear(struct document_memo *m)
{
	free(m->raw);
	cJSON_Delete(m->tree);
	free(m->printed);
	free(m->key);
	memset(m, 0, sizeof *m);
}

/*
 * Copies of the memo's tree and printed form for the caller: none when
 * the memo holds that there is no row.
 */
int
store_memo_give(struct document_memo *m, cJSON **out, char **printed,
    struct error *err)
{
	*out = NULL;
	*printed = NULL;
	if (m->raw == NULL && m->tree == NULL && m->printed == NULL)
		return 0;
	if (m->raw == NULL || m->printed == NULL ||
	    (*out = cJSON_Duplicate(m->tree, true)) == NULL ||
	    (*printed = text_copy(m->printed)) == NULL) {
		memo_clear(m);
		cJSON_Delete(*out);
		*out = NULL;
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	}
	return 0;
}

/*
 * The next row's first column held to the shape of want (key names the
 * row), through the memo of that kind of document: the same
 * bytes as last time are not parsed or printed again.  *out and *printed
 * are the caller's (a copy each: the memo may change while they live).
 */
int
store_row_json_memo(struct store *s, db_stmt *stmt, struct document_memo *m,
    enum object_type want, const char *key, cJSON **out, char **printed,
    struct error *err)
{
	struct loaded_object o;
	const char *text;
	size_t length;
	int rc = db_step(stmt);

	*out = NULL;
	*printed = NULL;
	if (rc == DB_DONE) {
		/* No such row: held as that (policy_held.c). */
		memo_clear(m);
		store_memo_hold(s, m, key);
		return 0;
	}
	if (rc != DB_ROW)
		return store_error(s, err, "reading");
	text = (const char *)db_column_text(stmt, 0);
	length = (size_t)db_column_bytes(stmt, 0);
	if (text != NULL && (m->raw == NULL || m->length != length ||
	    memcmp(m->raw, text, length) != 0)) {
		memo_clear(m);
		if ((m->tree = cJSON_Parse(text)) == NULL) {
			db_reset(stmt);
			return error_set(err, EXIT_STORAGE, NULL,
			    "%s: the stored %s (%s) is not valid JSON", s->path,
			    object_type_name(want), key != NULL ? key : "?");
		}
		if ((rc = store_object_valid(s, m->tree, want, key, &o, err)) != 0) {
			db_reset(stmt);
			memo_clear(m);
			return rc;
		}
		m->printed = json_canonical(m->tree, JSON_FORMAT_CURRENT);
		if ((m->raw = malloc(length + 1)) != NULL) {
			memcpy(m->raw, text, length + 1);
			m->length = length;
		}
		if (m->raw != NULL && sha256_hex(m->raw, length, m->sha256) != 0)
			m->sha256[0] = '\0';
	}
	db_reset(stmt);
	if (text == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	store_memo_hold(s, m, key);
	return store_memo_give(m, out, printed, err);
}

void
store_forget_documents(struct store *s)
{
	size_t i;

	for (i = 0; i < DOCUMENT_KINDS; i++)
		memo_clear(&s->memo[i]);
}

