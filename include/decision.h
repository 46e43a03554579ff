/*
 * Deciding (SPEC 5): the one path by which an approval or a rejection is
 * recorded, used by batch mode and the TUI alike.
 */
#ifndef COUNTERSIGN_DECISION_H
#define COUNTERSIGN_DECISION_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "error.h"
#include "store.h"

/*
 * DECISION_JUDGE (SPEC 2.3 v3): the product owner's judgment of NEEDS-PO
 * criteria, recorded as a po_judgment event; it decides nothing.
 */
enum decision_kind { DECISION_APPROVE, DECISION_REJECT, DECISION_JUDGE };

/* Decisions taken together (the review screens' A and R): one id for all. */
struct decision_bulk {
	char id[37];			/* a UUID */
	long count;			/* how many decisions it set out to record */
};

struct decision_request {
	const char *action_id;
	enum decision_kind decision;
	const char *reason;		/* NULL or "" when none */
	bool ack_high_stakes;
	bool ack_divergence;
	const char *reassign_to;	/* reject only; NULL when none */
	bool escalate;			/* reject only */
	/* reject only: "missing_standard" (SPEC 5 blocked_on), or NULL */
	const char *blocked_on;
	const char *escalate_expertise;	/* with escalate: who is needed, or NULL */
	/*
	 * {"AC-3": "met"} or NULL: an approval's own, counted with those
	 * recorded; a judgment's, to record.
	 */
	const cJSON *po_judgments;
	/*
	 * SHA-256 of the packet the officer was shown (SPEC 5 `changed`), or
	 * NULL when the request names none.
	 */
	const char *expect_sha256;
	const struct decision_bulk *bulk;	/* NULL: decided on its own */
};

/* Who is deciding: the real uid's login, whatever the environment says. */
struct operator_identity {
	char login[257];
	long long uid;
};

void operator_current(struct operator_identity *);
/*
 * Service mode (SPEC 10): the operator is the socket's peer, found by the
 * service; called in the process serving one request, never in local mode.
 */
void operator_serve_as(const struct operator_identity *);
/*
 * Whether the operator is the service's peer: an identity the kernel
 * vouches for, which the gate may compare with a stored importer (SPEC 5).
 */
bool operator_served(void);
/*
 * (v3) Service mode (SPEC 10): asked before every decision whether the
 * operator may still decide; false, with why filled in, refuses it as
 * `forbidden` and records nothing.  Set by the service in the process
 * serving one request, so that an officer removed from the group cannot
 * decide from a session already open; local mode has none.
 */
typedef bool operator_role_check_fn(const struct operator_identity *,
    char *why, size_t why_size);
void operator_check_role_with(operator_role_check_fn *);
/* The check above, asked by the decision path: true when none is set. */
bool operator_may_decide(const struct operator_identity *, char *why,
    size_t why_size);

/*
 * (v3) SPEC 5 self_approval: through the service, the operator imported
 * the action through the service.  Always false in local mode.
 */
bool decision_imported_by(const struct check_data *,
    const struct operator_identity *);

struct decision_outcome {
	bool recorded;
	char decision_id[37];
	/*
	 * SPEC 14: recorded as an approval that does not yet meet the
	 * quorum; the action stays pending and decision_id is empty.
	 */
	bool partial;
	char approval_id[37];
	int quorum_needed;		/* 1 when no quorum applies */
	int quorum_have;		/* approvals counting this one */
	/* SPEC 2.3 (v3): a judgment recorded; decision_id is empty. */
	bool judged;
	char judgment_id[37];
	const char *code;		/* refusal code; NULL when recorded */
	char message[1024];		/* why, for a refusal */
	struct audit_head head;		/* the audit head after recording */
	bool head_unsunk;		/* no outside sink took that head */
};

/*
 * Re-checks the action inside one write transaction, applies every refusal
 * of SPEC 5, and either records the decision (audit record, decision row,
 * action status, commit) or records nothing.  With in_transaction the
 * caller holds the transaction (batch --atomic): the work is done in a
 * savepoint and neither committed nor announced here.  now_ms is the time
 * of the decision; DECISION_NOW reads the clock once the write lock is
 * held, which waiting for it (up to the busy timeout) would otherwise
 * leave stale: an expiry that passed while this process waited must
 * count, and decided_at must be when the decision was made.  Returns 0
 * for a decision recorded or refused (see outcome), an exit_code on an
 * error.
 */
#define DECISION_NOW (-1LL)

struct recheck;
/*
 * SPEC 5 blocked_on: a rejection may hold only a change whose no_block
 * rule fails (else bad_routing).
 */
bool decision_may_block(const struct recheck *);
/*
 * Whether a decision record was routed blocked_on; if so, *gaps is a new
 * array of the reviewer's missing_standard gap texts (NULL when out of
 * memory).
 */
bool decision_blocked(const cJSON *record, cJSON **gaps);
int decision_record(struct store *, const struct decision_request *,
    const struct operator_identity *, long long now_ms, bool in_transaction,
    struct decision_outcome *, struct error *);

#endif
