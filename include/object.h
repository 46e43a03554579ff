/*
 * The input objects of SPEC section 1, loaded strictly.  A loaded object
 * keeps its parsed tree and the identity fields the store indexes it by.
 */
#ifndef COUNTERSIGN_OBJECT_H
#define COUNTERSIGN_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "error.h"

enum object_type {
	OBJECT_SECURITY_MAP,
	OBJECT_IPS,
	OBJECT_HOLDINGS,
	OBJECT_PACKET,
	OBJECT_STANDARDS_INDEX,
	OBJECT_ROSTER,
	OBJECT_APPROVAL_POLICY		/* SPEC 14 (v3) */
};

struct loaded_object {
	enum object_type type;
	cJSON *json;		/* owned; every pointer below points into it */

	const char *id;		/* ips_id, snapshot_id, action_id or policy_id */
	const char *user_id;	/* ips, holdings; trade packets */
	long long version;	/* ips, approval_policy */
	long long as_of_ms;	/* holdings */
	const char *as_of_beyond_ms;	/* its digits below the ms, not NUL-ended */
	size_t as_of_beyond_ms_length;

	const char *kind;	/* packets */
	const char *author;
	const char *revision_of;
	const char *requested_by;
	const cJSON *contributors;	/* array of names, or NULL */
	const char *artifact_id;
	bool has_expiry;
	long long expires_at_ms;
};

/*
 * Parses and validates one object from text[0..len).  On error returns
 * EXIT_DATA with err->field naming the field; *error_offset (may be NULL)
 * receives the byte offset of a JSON syntax error.
 */
int object_load(const char *text, size_t len, struct loaded_object *,
    size_t *error_offset, struct error *);
/* Validates an already parsed tree and takes ownership of it (even on error). */
int object_load_tree(cJSON *json, struct loaded_object *, struct error *);
/*
 * Refuses what is only wrong at the moment of import (SPEC 1 v2): a
 * holdings as_of more than 5 minutes after now_ms.  EXIT_DATA naming the
 * field, or 0.
 */
int object_check_clock(const struct loaded_object *, long long now_ms,
    struct error *);
void object_free(struct loaded_object *);
const char *object_type_name(enum object_type);

#endif
