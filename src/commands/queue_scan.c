/*
 * The queue where its index alone cannot answer: narrowed by a SPEC 7
 * filter (the review screens' limit, `l`) or in order of value.  Both
 * need what only a trade's packet says (user, ticker, value), so every
 * row of the query is read and tested here, and the count and the order
 * are the whole queue's, never a screenful's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_fields.h"

/* Rows read from the index at a time. */
#define SCAN_CHUNK 256

/* A row kept for the value order, with what it is sorted by. */
struct valued_row {
	struct queue_row row;
	bool has_value;
	double value_usd;
	long order;			/* its place in the query's order */
};

/*
 * The subject the filter tests, and the value sorted by: from the
 * trade's packet when need, else from the row alone.
 */
static int
row_subject(struct store *s, const struct queue_row *row, bool need,
    char flags[FILTER_FLAGS_SIZE], struct filter_subject *subject,
    struct error *err)
{
	char *raw = NULL;
	cJSON *packet = NULL;
	int rc = 0;

	if (need && strcmp(row->kind, "trade") == 0) {
		if ((rc = store_action_packet(s, row->action_id, &raw,
		    err)) != 0)
			goto cleanup;
		packet = raw != NULL ? cJSON_Parse(raw) : NULL;
	}
	filter_subject_of(row, json_member(packet, "proposed_action"), flags,
	    subject);
	/* The subject points into the packet only for what it copies out. */
	if (subject->text[FILTER_USER] != NULL &&
	    (subject->text[FILTER_USER] = strdup(subject->text[FILTER_USER]))
	    == NULL)
		rc = error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	if (subject->text[FILTER_TICKER] != NULL &&
	    (subject->text[FILTER_TICKER] = strdup(
	    subject->text[FILTER_TICKER])) == NULL)
		rc = error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
cleanup:
	cJSON_Delete(packet);
	free(raw);
	return rc;
}

static void
subject_free(struct filter_subject *subject)
{
	free((char *)subject->text[FILTER_USER]);
	free((char *)subject->text[FILTER_TICKER]);
}

/* Largest value first; trades before kinds without one; else as queued. */
static int
by_value(const void *a, const void *b)
{
	const struct valued_row *x = a, *y = b;

	if (x->has_value != y->has_value)
		return x->has_value ? -1 : 1;
	if (x->has_value && x->value_usd != y->value_usd)
		return x->value_usd > y->value_usd ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int
queue_scan_page(struct store *s, const struct queue_query *q,
    const struct filter *filter, bool value_order, long offset, long limit,
    struct queue_row *rows, long *got, long *matched, struct error *err)
{
	struct queue_row *chunk = calloc(SCAN_CHUNK, sizeof *chunk);
	struct valued_row *kept = NULL, *grown;
	size_t kept_count = 0, kept_size = 0, k;
	bool need = value_order || (filter != NULL &&
	    filter_needs_action(filter));
	struct filter_subject subject;
	char flags[FILTER_FLAGS_SIZE];
	long at = 0, n = 0, i;
	bool match;
	int rc = 0;

	*got = *matched = 0;
	if (chunk == NULL) {
		rc = error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
		goto cleanup;
	}
	for (at = 0;; at += n) {
		if ((rc = store_queue_page(s, q, at, SCAN_CHUNK, chunk, &n,
		    err)) != 0 || n == 0)
			break;
		for (i = 0; i < n; i++) {
			if (rc == 0)
				rc = row_subject(s, &chunk[i], need, flags,
				    &subject, err);
			match = rc == 0 && (filter == NULL ||
			    filter_matches(filter, &subject, q->now_ms));
			if (match && value_order && kept_count == kept_size) {
				kept_size = kept_size ? kept_size * 2 : 256;
				if ((grown = realloc(kept, kept_size *
				    sizeof *kept)) == NULL) {
					rc = error_set(err, EXIT_STORAGE, NULL,
					    _("out of memory"));
					match = false;
				} else
					kept = grown;
			}
			if (match && value_order) {
				kept[kept_count].row = chunk[i];
				kept[kept_count].has_value = subject.has_value;
				kept[kept_count].value_usd = subject.value_usd;
				kept[kept_count].order = (long)kept_count;
				kept_count++;
			} else if (match && *matched >= offset &&
			    *got < limit)
				rows[(*got)++] = chunk[i];
			else
				queue_row_free(&chunk[i]);
			if (match)
				(*matched)++;
			if (rc == 0)
				subject_free(&subject);
		}
		if (rc != 0)
			break;
	}
	if (rc == 0 && value_order) {
		if (kept_count > 0)
			qsort(kept, kept_count, sizeof *kept, by_value);
		for (k = 0; k < kept_count; k++) {
			if ((long)k >= offset && *got < limit) {
				rows[(*got)++] = kept[k].row;
				kept[k].row.action_id[0] = '\0';
			}
		}
	}
cleanup:
	for (k = 0; k < kept_count; k++) {
		if (kept[k].row.action_id[0] != '\0')
			queue_row_free(&kept[k].row);
	}
	if (rc != 0) {
		for (i = 0; i < *got; i++)
			queue_row_free(&rows[i]);
		*got = *matched = 0;
	}
	free(kept);
	free(chunk);
	return rc;
}
