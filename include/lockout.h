/*
 * Author lockout after a rejection (SPEC 2.4): the author of a rejected
 * action may not write its next version, nor may the author of any
 * rejected version before it; a rejection that reassigned the revision
 * names the only acceptable next author.
 */
#ifndef COUNTERSIGN_LOCKOUT_H
#define COUNTERSIGN_LOCKOUT_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "rule_pack.h"
#include "verdict.h"

/* Adds the author_lockout rule when the packet has revision_of. */
int lockout_rule(const struct check_input *, struct verdict *);

/*
 * The authors locked out of the next version of this action, sorted and
 * without repeats: the authors of the rejected versions before it, and,
 * when it is itself rejected (or about to be), its own author.
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

#endif
