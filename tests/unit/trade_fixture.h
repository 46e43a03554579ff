/*
 * Shared fixture (libtestsupport.a: trade_fixture.c) for the trade rule
 * pack tests: builds a struct check_input
 * from inline JSON (packet, IPS, holdings, security map; each optional),
 * lets a test tweak any field of the parsed trees, runs check_run() and
 * frees everything.  The defaults are the SPEC examples of example_json.h.
 *
 * Include after <cmocka.h> and the project headers' prerequisites.
 */
#ifndef COUNTERSIGN_TESTS_TRADE_FIXTURE_H
#define COUNTERSIGN_TESTS_TRADE_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "check.h"
#include "error.h"
#include "rule_pack.h"
#include "verdict.h"
#include "example_json.h"

#ifndef assert_true
#error "include <cmocka.h> before trade_fixture.h"
#endif

struct trade_fixture {
	cJSON *packet;
	cJSON *ips;
	cJSON *holdings;
	cJSON *map;			/* the security_map object, or a bare map */
	struct check_input input;
	struct check_outcome outcome;
	struct error err;
	bool ran;
};

/* Each argument is JSON text or NULL (that input is absent). */
void tf_setup(struct trade_fixture *tf, const char *packet, const char *ips,
    const char *holdings, const char *map);

/* The pass example with the example IPS, holdings and security map. */
void tf_setup_pass(struct trade_fixture *tf);

/* The divergent example with the example IPS, holdings and security map. */
void tf_setup_divergent(struct trade_fixture *tf);

cJSON *tf_action(struct trade_fixture *tf);

/* Shorthands for the common tweaks. */
void tf_set_action(struct trade_fixture *tf, const char *path, const char *json);

void tf_set_ips(struct trade_fixture *tf, const char *path, const char *json);

void tf_set_holdings(struct trade_fixture *tf, const char *path, const char *json);

void tf_set_advisory(struct trade_fixture *tf, const char *path, const char *json);

/* Sets a trade's ticker, side and estimated value in one go. */
void tf_trade(struct trade_fixture *tf, const char *ticker, const char *side,
    const char *value);

/* Replaces the holdings with {cash_usd: cash, positions: positions}. */
void tf_holdings(struct trade_fixture *tf, const char *cash, const char *positions);

void tf_drop_ips(struct trade_fixture *tf);

void tf_drop_holdings(struct trade_fixture *tf);

/* Runs the check; the run itself must succeed. */
void tf_run(struct trade_fixture *tf);

void tf_free(struct trade_fixture *tf);

const struct verdict *tf_verdict(const struct trade_fixture *tf);

/* The local result of rule_id; the test fails when it is missing. */
const struct rule_result *tf_rule(const struct trade_fixture *tf, const char *rule_id);

bool tf_passed(const struct trade_fixture *tf, const char *rule_id);

/* A failing rule with a non-empty detail. */
void tf_assert_fails(const struct trade_fixture *tf, const char *rule_id);

void tf_assert_passes(const struct trade_fixture *tf, const char *rule_id);

/* Does the detail of rule_id mention needle (case-sensitive)? */
bool tf_detail_has(const struct trade_fixture *tf, const char *rule_id,
    const char *needle);

const cJSON *tf_divergence(const struct trade_fixture *tf);

int tf_divergence_count(const struct trade_fixture *tf);

/* The `what` of divergence entry i. */
const char *tf_divergence_what(const struct trade_fixture *tf, int i);

/* The divergence entry about `what`, or NULL. */
const cJSON *tf_divergence_find(const struct trade_fixture *tf, const char *what);

/* The local_verdict JSON (SPEC 3); the caller deletes it. */
cJSON *tf_verdict_json(const struct trade_fixture *tf);

/* The whole SPEC 3 line; the caller deletes it. */
cJSON *tf_outcome_json(const struct trade_fixture *tf);

/* cmocka setups and teardown: a fresh fixture per test, freed even on failure. */
int setup_pass(void **state);

int setup_divergent(void **state);

int teardown(void **state);

#define TF(state) ((struct trade_fixture *)*(state))

#endif
