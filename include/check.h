/*
 * One deterministic re-check of one packet: the local verdict (SPEC 3) and
 * its divergence from the advisory one (SPEC 4).  Pure: inputs in, outcome out.
 */
#ifndef COUNTERSIGN_CHECK_H
#define COUNTERSIGN_CHECK_H

#include <cjson/cJSON.h>

#include "error.h"
#include "rule_pack.h"
#include "verdict.h"

struct check_outcome {
	const struct rule_pack *pack;
	struct verdict verdict;
	struct advisory advisory;
	cJSON *divergence;		/* array of {what, advisory, local, note} */
	char packet_sha256[65];		/* the input's, or "" when unknown */
};

int check_run(const struct check_input *, struct check_outcome *,
    struct error *);
void check_outcome_free(struct check_outcome *);
/*
 * The SPEC 3 line, {action_id, kind, packet_sha256 (null when unknown),
 * local_verdict, divergence, high_stakes_reasons, notes}, as json_print() would print it; NULL when out of
 * memory, else the caller's to free.
 */
char *check_outcome_text(const struct check_outcome *);

/* SPEC 4, exposed for tests: the divergence list of an evaluated verdict. */
cJSON *divergence_compute(const struct rule_pack *, const struct advisory *,
    const struct verdict *);

/*
 * SHA-256 of everything the rules read (packet, IPS, holdings, securities,
 * standards, roster, judgments), so a replay can show it used the same.
 */
int check_inputs_sha256(const struct check_input *, char out[65]);
/*
 * The same in a given canonical form (JSON_FORMAT_*, json_writer.h):
 * check_inputs_sha256() is JSON_FORMAT_CURRENT; a replay asks for the
 * format its record names.
 */
int check_inputs_sha256_format(const struct check_input *, int format,
    char out[65]);

#endif
