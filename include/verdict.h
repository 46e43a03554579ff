/*
 * The local, deterministic verdict of SPEC section 3: rule results in the
 * order of the rule pack, their AND, and whether a human must approve.
 */
#ifndef COUNTERSIGN_VERDICT_H
#define COUNTERSIGN_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "timestamp.h"

struct rule_result {
	const char *rule_id;		/* static */
	const char *description;	/* static */
	bool passed;
	char *detail;			/* owned; required when !passed */
	char *shown;			/* owned: detail translated, or NULL */
};

/*
 * Why a human must approve (SPEC 3): a stable code scripts can select by,
 * and a detail for people.
 */
struct stakes_reason {
	const char *code;		/* static: failed_rules, above_usd, ... */
	char *detail;			/* owned */
	char *shown;			/* owned: detail translated, or NULL */
};

/* Something the rules do not enforce but an officer needs (SPEC 3 notes). */
struct verdict_note {
	const char *what;		/* static: class_share, cash, ... */
	char *detail;			/* owned */
	char *shown;			/* owned: detail translated, or NULL */
};

struct verdict {
	char verdict_id[37];
	char *action_id;
	cJSON *ips_checked;		/* {ips_id, version} or NULL */
	struct rule_result *rules;
	size_t rule_count;
	size_t rule_capacity;
	bool overall_pass;
	bool requires_human_approval;
	struct stakes_reason *high_stakes_reasons;
	size_t reason_count;
	size_t reason_capacity;
	struct verdict_note *notes;
	size_t note_count;
	size_t note_capacity;
	char reviewed_at[TIMESTAMP_SIZE];
};

/*
 * Details are the program's own words, in English in every record.  For
 * the screens, a process may set a translator of their printf formats
 * (gettext); each detail is then also formatted from its translated
 * format into shown.  The domain itself reads no catalogue.
 */
void verdict_translate_with(const char *(*translate)(const char *fmt));
/* What a screen shows of a detail: shown when translated, else detail. */
#define VERDICT_SHOWN(item) ((item)->shown != NULL ? (item)->shown : \
	(item)->detail)

/* A fresh verdict with a UUID v4 and reviewed_at = now_ms; -1 when out of memory. */
int verdict_init(struct verdict *, const char *action_id, long long now_ms);
void verdict_free(struct verdict *);

/*
 * Appends a rule result; detail is a printf format (NULL for none).  A
 * failing rule without a detail is a programming error and gets one.
 */
int verdict_add_rule(struct verdict *, const char *rule_id,
    const char *description, bool passed, const char *detail_fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Appends a high-stakes reason; code is static, detail a printf format. */
int verdict_add_reason(struct verdict *, const char *code,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Appends a note; what is static, detail a printf format. */
int verdict_add_note(struct verdict *, const char *what,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The first reason with this code, or NULL. */
const struct stakes_reason *verdict_reason(const struct verdict *,
    const char *code);
/* overall_pass = AND of the rules. */
void verdict_finish(struct verdict *);
const struct rule_result *verdict_rule(const struct verdict *,
    const char *rule_id);
/* The names of the failing rules, comma separated; newly allocated. */
char *verdict_failing_rules(const struct verdict *);
/* True when rule_id is the one and only rule that fails. */
bool verdict_fails_only(const struct verdict *, const char *rule_id);
/* The failed_rules reason (SPEC 3) when overall_pass is false; -1 on ENOMEM. */
int verdict_add_failed_rules(struct verdict *);

struct json_writer;
/* The SPEC 3 local_verdict object, written as a value. */
void verdict_write(struct json_writer *, const struct verdict *);
/* The high_stakes_reasons array of {code, detail} (SPEC 3 and 6). */
void verdict_write_reasons(struct json_writer *, const struct verdict *);
/* The notes array of {what, detail} (SPEC 3). */
void verdict_write_notes(struct json_writer *, const struct verdict *);
/* The same as a tree. */
cJSON *verdict_to_json(const struct verdict *);

#endif
