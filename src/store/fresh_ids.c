/*
 * What an import knows of new action ids without asking (issue 20).
 *
 * Storing a new packet asks four questions of its id: is there an action
 * of that id, a queue row, a revision naming it, a version of its
 * artifact?  For nearly every packet every answer is no, and on
 * PostgreSQL each question was a trip to the server: an import of
 * 100,000 packets spent most of its time waiting.  One query per chunk of
 * lines (store_expect_actions) finds which of the chunk's ids some row
 * already has, as an action or as the revision_of of one; each of the
 * others is "fresh", and this map then answers for it, kept true by the
 * store's own writes while the transaction holds the write lock:
 *
 *   absent   no action row: put_packet need not look for one
 *   queued   a queue row may exist: until the first queue put, none does
 *            (a queue row is written only with its action: the
 *            store's rule, and on SQLite a foreign key too)
 *   named    some row's revision_of is the id (an insert naming it)
 *   links    its own row revises or names an artifact
 *
 * Knowledge only ever turns into "ask": a rolled-back savepoint can only
 * take rows away, which leaves every answer given here still true.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_writer.h"
#include "store_internal.h"

struct fresh_id {
	char *id;			/* NULL: an empty slot */
	bool absent, queued, named, links;
};

struct fresh_ids {
	struct fresh_id *slots;
	size_t size;			/* a power of two */
	size_t used;
};

static size_t
hash_of(const char *id)
{
	size_t h = 14695981039346656037u;

	for (; *id != '\0'; id++)
		h = (h ^ (unsigned char)*id) * 1099511628211u;
	return h;
}

static struct fresh_id *
lookup(const struct fresh_ids *f, const char *id)
{
	size_t i;

	if (f == NULL || f->size == 0 || id == NULL)
		return NULL;
	for (i = hash_of(id) & (f->size - 1); f->slots[i].id != NULL;
	    i = (i + 1) & (f->size - 1))
		if (strcmp(f->slots[i].id, id) == 0)
			return &f->slots[i];
	return NULL;
}

static bool
grow(struct fresh_ids *f)
{
	struct fresh_id *old = f->slots;
	size_t old_size = f->size, i, j;
	size_t size = old_size == 0 ? 1024 : old_size * 2;

	if ((f->slots = calloc(size, sizeof *f->slots)) == NULL) {
		f->slots = old;
		return false;
	}
	f->size = size;
	for (i = 0; i < old_size; i++) {
		if (old[i].id == NULL)
			continue;
		for (j = hash_of(old[i].id) & (size - 1); f->slots[j].id != NULL;
		    j = (j + 1) & (size - 1))
			;
		f->slots[j] = old[i];
	}
	free(old);
	return true;
}

/* Adds id as fresh; false (and nothing known of it) when out of memory. */
static bool
add(struct fresh_ids *f, const char *id)
{
	size_t i;

	if (lookup(f, id) != NULL)
		return true;
	if ((f->used + 1) * 2 > f->size && !grow(f))
		return false;
	for (i = hash_of(id) & (f->size - 1); f->slots[i].id != NULL;
	    i = (i + 1) & (f->size - 1))
		;
	if ((f->slots[i].id = strdup(id)) == NULL)
		return false;
	f->slots[i].absent = true;
	f->used++;
	return true;
}

void
store_fresh_forget(struct store *s)
{
	struct fresh_ids *f = s->fresh;
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->size; i++)
		free(f->slots[i].id);
	free(f->slots);
	free(f);
	s->fresh = NULL;
}

int
store_expect_actions(struct store *s, const char *const *ids, size_t n,
    struct error *err)
{
	struct json_writer w;
	db_stmt *stmt;
	char *list, *known = NULL;
	size_t i, known_len = 0;
	int rc;

	if (n == 0 || !s->in_transaction)
		return 0;
	if (s->fresh == NULL && (s->fresh = calloc(1, sizeof *s->fresh)) ==
	    NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	/* The ids as one JSON array: one bound value, whatever they hold. */
	json_writer_init(&w);
	json_writer_array(&w);
	for (i = 0; i < n; i++)
		json_writer_string(&w, ids[i]);
	json_writer_end(&w, ']');
	if ((list = json_writer_finish(&w)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if ((stmt = store_statement(s, SQL_IDS_KNOWN, err)) == NULL) {
		free(list);
		return err->status;
	}
	db_bind_text(stmt, 1, list, -1, DB_STATIC);
	/* The ids some row has, '\n'-separated (an id holds no control). */
	while ((rc = db_step(stmt)) == DB_ROW) {
		const char *id = (const char *)db_column_text(stmt, 0);
		size_t len = id != NULL ? strlen(id) : 0;
		char *grown = realloc(known, known_len + len + 2);

		if (grown == NULL) {
			rc = DB_NOMEM;
			break;
		}
		known = grown;
		memcpy(known + known_len, id != NULL ? id : "", len);
		known_len += len;
		known[known_len++] = '\n';
		known[known_len] = '\0';
	}
	db_reset(stmt);
	free(list);
	if (rc != DB_DONE) {
		free(known);
		return rc == DB_NOMEM ? error_set(err, EXIT_STORAGE, NULL,
		    "out of memory") : store_error(s, err, "reading action ids");
	}
	for (i = 0; i < n; i++) {
		bool seen = false;
		size_t len = strlen(ids[i]);
		const char *p;

		for (p = known; p != NULL && *p != '\0';) {
			const char *end = strchr(p, '\n');

			if ((size_t)(end - p) == len && memcmp(p, ids[i], len) == 0) {
				seen = true;
				break;
			}
			p = end + 1;
		}
		/* Out of memory here only costs the questions it would save. */
		if (!seen && lookup(s->fresh, ids[i]) == NULL)
			add(s->fresh, ids[i]);
	}
	free(known);
	return 0;
}

bool
store_fresh_absent(const struct store *s, const char *id)
{
	const struct fresh_id *e = lookup(s->fresh, id);

	return e != NULL && e->absent;
}

bool
store_fresh_unqueued(const struct store *s, const char *id)
{
	const struct fresh_id *e = lookup(s->fresh, id);

	return e != NULL && !e->queued;
}

bool
store_fresh_unnamed(const struct store *s, const char *id)
{
	const struct fresh_id *e = lookup(s->fresh, id);

	return e != NULL && !e->named;
}

bool
store_fresh_alone(const struct store *s, const char *id)
{
	const struct fresh_id *e = lookup(s->fresh, id);

	return e != NULL && !e->named && !e->links;
}

void
store_fresh_inserted(struct store *s, const char *id, const char *revision_of,
    const char *artifact_id)
{
	struct fresh_id *e = lookup(s->fresh, id), *named;

	if (e != NULL) {
		e->absent = false;
		e->links = revision_of != NULL || artifact_id != NULL;
	}
	if ((named = lookup(s->fresh, revision_of)) != NULL)
		named->named = true;
}

void
store_fresh_queued(struct store *s, const char *id)
{
	struct fresh_id *e = lookup(s->fresh, id);

	if (e != NULL)
		e->queued = true;
}
