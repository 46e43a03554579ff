/*
 * One rule pack per packet kind (SPEC 2), behind this interface: a new kind
 * is a new rules_<kind>.c and one line in rule_pack.c's table.
 */
#ifndef COUNTERSIGN_RULE_PACK_H
#define COUNTERSIGN_RULE_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "detail.h"
#include "error.h"
#include "verdict.h"

/* What a pack needs the store to load before evaluating (bit flags). */
enum pack_needs {
	NEEDS_IPS = 1 << 0,		/* active IPS of action.user_id */
	NEEDS_HOLDINGS = 1 << 1,	/* current holdings of action.user_id */
	NEEDS_SECURITIES = 1 << 2,	/* security map entries it names */
	NEEDS_STANDARDS = 1 << 3	/* the standards index */
};

/* Everything one evaluation may look at; the store fills it. */
struct check_input {
	const cJSON *packet;		/* the whole packet object */
	const cJSON *action;		/* packet.proposed_action */
	const cJSON *ips;		/* or NULL */
	const cJSON *holdings;		/* or NULL */
	/* ticker -> {sector, asset_class}; looked up ignoring case; or NULL */
	const cJSON *securities;
	const cJSON *standards;		/* standards_index object, or NULL */
	const cJSON *roster;		/* roster object, or NULL; always loaded */
	const cJSON *po_judgments;	/* {"AC-3": "met"} at decision time, or NULL */
	/*
	 * The artifact of SPEC 2.4: every other version of it in the store
	 * (revision_of followed both ways, siblings, shared artifact_id),
	 * oldest import first, each {action_id, author, contributors,
	 * status, revision_of, artifact_id, reassign_to, escalate,
	 * blocked_on, decided_by, expertise}; NULL when it has no other
	 * version.
	 */
	const cJSON *revision_chain;
	long long now_ms;
	/*
	 * Optional: ips, holdings, standards and roster in the canonical
	 * form of format 2 (json_canonical()), when the loader has them;
	 * check_inputs_sha256() then need not print them again.
	 */
	const char *ips_printed;
	const char *holdings_printed;
	const char *standards_printed;
	const char *roster_printed;
	/*
	 * SHA-256 of the packet's stored JSON, when the loader read it from
	 * the store (SPEC 5 `changed`): what the officer was shown; or NULL.
	 */
	const char *packet_sha256;
};

/*
 * What a pack's evaluate() leaves for its assess_stakes(), so that what
 * both need is read from the packet once: room for a small struct of the
 * pack's own, copied in and out with memcpy().
 */
union rule_pack_state {
	max_align_t align;
	unsigned char bytes[256];
};

/* The advisory verdict as the gate sees it (SPEC 1 and 4). */
enum advisory_state {
	ADVISORY_AVAILABLE,
	ADVISORY_MISSING,		/* absent or null */
	ADVISORY_UNPARSEABLE,		/* not of the kind's shape */
	ADVISORY_OTHER_ACTION		/* about another action_id */
};

/* One of the advisory's rule_results, as read_advisory() read it. */
struct advisory_rule {
	const char *rule_id;
	bool passed;
};

struct advisory {
	enum advisory_state state;
	const cJSON *verdict;		/* the verdict object when available */
	cJSON *owned;			/* a verdict the pack had to extract */
	bool overall_pass;		/* meaningful when available */
	const char *other_action_id;	/* when ADVISORY_OTHER_ACTION */
	/*
	 * rule_results in their order, when available: a pack that compares
	 * rules must fill them, since divergence_compute() reads these and
	 * not the verdict's own.
	 */
	struct advisory_rule *rules;
	size_t rule_count;
};

struct rule_pack {
	const char *kind;
	unsigned needs;			/* enum pack_needs */
	/* SPEC 4: compare per rule, requires_human_approval and IPS too */
	bool compares_rules;

	/* Refuses a proposed_action that breaks SPEC 1 (path is its JSON path). */
	int (*validate)(const cJSON *action, const char *path, struct error *);
	/* Keys of the security map the evaluation will look up (NEEDS_SECURITIES). */
	void (*securities_wanted)(const struct check_input *,
	    void (*want)(void *ctx, const char *ticker), void *ctx);
	/*
	 * Appends the kind's rules to the verdict, in SPEC order; may leave
	 * state for assess_stakes().
	 */
	int (*evaluate)(const struct check_input *, const struct advisory *,
	    struct verdict *, union rule_pack_state *);
	/*
	 * Sets requires_human_approval and high_stakes_reasons once every rule
	 * is in and overall_pass is known, from what evaluate() left in the
	 * state; NULL means "not overall_pass".
	 */
	int (*assess_stakes)(struct verdict *, const union rule_pack_state *);
	/* Reads packet.reviewer_verdict (may be NULL) into *advisory. */
	int (*read_advisory)(const cJSON *reviewer_verdict, const char *action_id,
	    struct advisory *);
	/*
	 * change: how many NEEDS-PO criteria the deciding human has not
	 * judged (SPEC 5 po_judgment_required).  NULL for other kinds.
	 */
	int (*unjudged_criteria)(const struct check_input *,
	    const struct advisory *);
	/*
	 * change: the criteria awaiting the deciding human's judgment (the
	 * NEEDS-PO ones without one in po_judgments), as an array of
	 * {id, text} (newly allocated), for the approve and judge dialogs.
	 * NULL for other kinds.
	 */
	cJSON *(*judgment_criteria)(const struct check_input *,
	    const struct advisory *);
	/*
	 * legal_draft: the SHA-256 of the text an approval approves (SPEC
	 * 2.2).  Returns false when the kind approves no artifact.  NULL for
	 * other kinds.
	 */
	bool (*approved_artifact)(const struct check_input *,
	    const struct advisory *, char sha256[65]);
	/*
	 * change: the commit an approval approves (head_sha), or NULL.
	 * NULL for other kinds.
	 */
	const char *(*approved_commit)(const struct check_input *);
	/* The user or author column of the queue. */
	const char *(*who)(const cJSON *action);
	/* A one-line summary of the action for the queue (untrusted text inside). */
	void (*summarize)(const cJSON *action, char *buf, size_t size);
	/*
	 * The proposal as the detail view shows it, before the generic rule
	 * table, divergence and stakes: the kind's own fields, in its terms.
	 */
	int (*describe)(const struct check_input *, const struct advisory *,
	    struct detail *);
	/*
	 * SPEC 5 not_pending: the action's status when it was decided,
	 * executed or failed elsewhere, else NULL.  NULL for kinds without
	 * a status.
	 */
	const char *(*not_pending)(const cJSON *action);
	/*
	 * What the detail view shows after the rules, stakes, divergence
	 * and notes, for judging them (a trade's holdings); may be NULL.
	 */
	int (*describe_context)(const struct check_input *,
	    const struct advisory *, struct detail *);
};

const struct rule_pack *rule_pack_find(const char *kind);
void advisory_free(struct advisory *);

#endif
