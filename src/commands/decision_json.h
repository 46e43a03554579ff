/*
 * The audit records of the decision path (decision_json.c), for decide.c.
 */
#ifndef COUNTERSIGN_DECISION_JSON_H
#define COUNTERSIGN_DECISION_JSON_H

#include <stddef.h>

#include "commands.h"
#include "decision.h"

/*
 * What a record says of its quorum (SPEC 14).  An approval event has its
 * own approval_id; a decision under a quorum, or after approvals, names
 * the earlier approvals.
 */
struct quorum_record {
	const struct quorum_view *view;
	const char *approval_id;	/* an approval event's; NULL: a decision */
	int have;			/* approvals counting this one */
};

/*
 * The reviewer's verdict as the record carries it (*advisory, not
 * NUL-terminated); an exit code when it cannot be read.
 */
int advisory_text(const struct check_data *, const char *action_id,
    const char **advisory, size_t *length, struct error *);
/* The record of a decision (decision_id) or of an approval (NULL). */
char *decision_record_json(const struct decision_request *,
    const struct operator_identity *, const struct recheck *,
    const char *decision_id, const struct quorum_record *,
    const char *decided_at, const char *advisory, size_t advisory_length);
/* The po_judgment record of a judge line. */
char *judgment_record_json(const struct decision_request *,
    const struct operator_identity *, const struct recheck *,
    const char *judgment_id, const char *judged_at);

#endif
