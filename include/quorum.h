/*
 * Approval quorums (SPEC 14): the approval_policy object's shape, and how
 * many distinct officers an action needs under the active policies.
 * Domain: pure, on trees the store hands over.
 */
#ifndef COUNTERSIGN_QUORUM_H
#define COUNTERSIGN_QUORUM_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "error.h"

/* SPEC 14: a quorum entry asks for 2 to 5 approvals. */
#define QUORUM_APPROVALS_MIN 2
#define QUORUM_APPROVALS_MAX 5

/*
 * Checks the "quorum" array of an approval_policy: each entry's kind,
 * when and approvals.  EXIT_DATA naming the field ("quorum[1].when").
 */
int quorum_policy_validate(const cJSON *policy, struct error *);

/*
 * The approvals an action needs: the largest "approvals" of the entries
 * of policies (an array of active approval_policy trees, or NULL) that
 * match it, or 1 when none does.  high_stakes is the local verdict's
 * requires_human_approval at this moment.
 */
int quorum_needed(const cJSON *policies, const char *kind,
    const cJSON *action, bool high_stakes);

#endif
