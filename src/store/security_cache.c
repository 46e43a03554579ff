/*
 * The security map entries a cached pass has read (check, list, the
 * queue's refresh, the indexing of an import), found by upper-case ticker
 * in a tsearch(3) tree.  The pass used to gather them into one cJSON
 * object that every action's lookups walked from the start: a check of
 * 20,000 actions over 5,000 tickers took four times as long as one over a
 * single ticker (bench/README.md).  Each action now gets a map of its own
 * that refers to these entries, as a single re-check's map would hold
 * them.
 */
#include "config.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "store_internal.h"
#include "text.h"

static int
compare(const void *a, const void *b)
{
	return strcmp(((const struct security_cached *)a)->key,
	    ((const struct security_cached *)b)->key);
}

struct security_cached *
security_cache_find(const struct security_cache *c, const char *key)
{
	struct security_cached wanted = { .key = (char *)key };
	void *found = tfind(&wanted, &c->root, compare);

	return found != NULL ? *(struct security_cached **)found : NULL;
}

struct security_cached *
security_cache_add(struct security_cache *c, const char *key, cJSON *entry)
{
	struct security_cached *node;
	void *slot;

	if ((node = calloc(1, sizeof *node)) == NULL ||
	    (node->key = text_copy(key)) == NULL) {
		free(node);
		return NULL;
	}
	node->entry = entry;
	if ((slot = tsearch(node, &c->root, compare)) == NULL ||
	    *(struct security_cached **)slot != node) {
		/* Out of memory, or already there: the caller looked first. */
		free(node->key);
		free(node);
		return NULL;
	}
	return node;
}

void
security_cache_clear(struct security_cache *c)
{
	struct security_cached *node;

	while (c->root != NULL) {
		node = *(struct security_cached **)c->root;
		tdelete(node, &c->root, compare);
		cJSON_Delete(node->entry);
		free(node->key);
		free(node);
	}
}
