/*
 * What a write transaction has read of the policy, held until it ends or
 * the store writes a policy object (issue 38).  Under the write lock no
 * other connection changes a row, so the IPS, holdings, roster, standards
 * index, security entries and approval policies a single re-check read
 * are still the rows when the next decision of the same transaction
 * asks: a batch of 500 decisions read one user's policy, five securities
 * and the approval policies 500 times, nine statements a decision and on
 * PostgreSQL two trips to the server.  Each decision still runs its
 * re-check in the transaction that records it, on what that transaction
 * holds; only the same read is not made twice.
 *
 * A generation names the transaction's state: it moves at every begin,
 * commit and rollback (a savepoint's too) and at every policy object
 * written, and a memo is held only while it names the current one.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "store_internal.h"
#include "text.h"

void
store_policy_unhold(struct store *s)
{
	s->policy_generation++;
	security_cache_clear(&s->held_securities);
	cJSON_Delete(s->held_approval_policies);
	s->held_approval_policies = NULL;
}

/* The same user, or the same document type. */
static bool
same_key(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

bool
store_memo_held(const struct store *s, const struct document_memo *m,
    const char *key)
{
	return s->in_transaction && m->held == s->policy_generation &&
	    same_key(m->key, key);
}

void
store_memo_hold(struct store *s, struct document_memo *m, const char *key)
{
	free(m->key);
	m->key = NULL;
	m->held = 0;
	if (!s->in_transaction)
		return;
	/* Out of memory: not held, so read again next time. */
	if (key != NULL && (m->key = text_copy(key)) == NULL)
		return;
	m->held = s->policy_generation;
}

struct security_cache *
store_held_securities(struct store *s)
{
	return s->in_transaction ? &s->held_securities : NULL;
}

const cJSON *
store_held_approval_policies(const struct store *s)
{
	return s->in_transaction ? s->held_approval_policies : NULL;
}

void
store_hold_approval_policies(struct store *s, const cJSON *policies)
{
	cJSON_Delete(s->held_approval_policies);
	/* Out of memory: NULL, read again next time. */
	s->held_approval_policies = s->in_transaction ?
	    cJSON_Duplicate(policies, true) : NULL;
}
