/*
 * Author lockout after a rejection (SPEC 2.4): the people (author and
 * contributors) of every rejected version of an artifact may not be a
 * person of any later version of it, in any role; a rejection that
 * reassigned the revision names the only acceptable next author; one
 * rejected version has at most one approved next version.  The artifact
 * (every other version of it) is check_input.revision_chain.
 */
#ifndef COUNTERSIGN_LOCKOUT_H
#define COUNTERSIGN_LOCKOUT_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "rule_pack.h"
#include "verdict.h"

/*
 * Adds the author_lockout rule when the packet has revision_of, or an
 * artifact_id (or, for a change, a pr_url) shared by a rejected version.
 */
int lockout_rule(const struct check_input *, struct verdict *);

/*
 * The people locked out of the artifact, sorted, one spelling per name
 * as read: the people of its rejected versions (those held blocked_on
 * excepted), and, when this action is itself rejected (or about to be),
 * its own.  NULL when out of memory.
 */
cJSON *lockout_authors(const struct check_input *, bool this_rejected);

/* reassign_to is acceptable: not locked out, and on the roster if one exists. */
bool lockout_may_reassign(const struct check_input *, const char *author,
    const char **why);

/*
 * Every roster author is locked out of the next version (SPEC 2.4): only
 * escalation remains.  With this_rejected, as it will be once this action
 * is rejected, which is what a rejection's routing must know; without, as
 * the chain stands, which is what the queue shows.  False without a roster.
 */
bool lockout_deadlocked(const struct check_input *, bool this_rejected);

/*
 * The key two names that read the same share (SPEC 2.4), malloc'd; the
 * store keeps the locked-out people of an artifact by it.  NULL when out
 * of memory.
 */
char *lockout_name_key(const char *name);

/*
 * The pull request a packet is a version of (SPEC 2.4 v3): a change's
 * non-empty pr_url, or NULL.
 */
const char *lockout_pr_url(const cJSON *packet);

#endif
