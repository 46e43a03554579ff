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
	char **high_stakes_reasons;
	size_t reason_count;
	size_t reason_capacity;
	char reviewed_at[TIMESTAMP_SIZE];
};

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
int verdict_add_reason(struct verdict *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* overall_pass = AND of the rules. */
void verdict_finish(struct verdict *);
const struct rule_result *verdict_rule(const struct verdict *,
    const char *rule_id);
/* The names of the failing rules, comma separated; newly allocated. */
char *verdict_failing_rules(const struct verdict *);

struct json_writer;
/* The SPEC 3 local_verdict object, written as a value. */
void verdict_write(struct json_writer *, const struct verdict *);
/* The high_stakes_reasons array (SPEC 3 and 6), written as a value. */
void verdict_write_reasons(struct json_writer *, const struct verdict *);
/* The same as a tree. */
cJSON *verdict_to_json(const struct verdict *);

#endif
