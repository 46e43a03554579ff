/*
 * Fuzz target: a hostile packet through object_load() and, when it loads,
 * check_run() (include/check.h): every rule pack (trade, legal_draft,
 * change) and the author lockout on packets an attacker shaped, with the
 * policy side fixed and trusted.
 *
 * The packet is handled as the store hands it to the rules: the text that
 * loaded is read back with cJSON_Parse() (store_queries.c does so), the
 * security map is cut down to the tickers the pack asks for, upper-cased
 * (want_security()), and the revision chain is built for revision_of.
 * Each packet is checked in three contexts:
 *   0. the SPEC examples: IPS v3, holdings, security map, standards index,
 *      roster; a rejected chain; PO judgments;
 *   1. nothing in the store: no IPS, holdings, securities, standards or
 *      roster, an empty chain (every fail-closed path);
 *   2. edge policies: a zero portfolio, limits of 0, odd glob patterns, a
 *      roster every author is locked out of, a chain whose head was approved.
 * After each check: check_outcome_text() (the `check`
 * line), and what the queue, detail view and decision use on the outcome:
 * who, summarize, describe, unjudged_criteria, judgment_criteria,
 * approved_artifact, the lockout helpers and check_inputs_sha256().
 *
 * Invariants checked (abort() when broken): check_run() succeeds on every
 * loaded packet; SPEC 2/3 on the verdict (at least one rule, a detail on
 * each failing rule, overall_pass is the AND of the rules, a failing
 * verdict requires a human); the printed line and every detail line are
 * free of terminal controls and the line parses back strictly.
 */
#include "config.h"

#include <cjson/cJSON.h>

#include "check.h"
#include "detail.h"
#include "error.h"
#include "json_fields.h"
#include "json_strict.h"
#include "lockout.h"
#include "object.h"
#include "rule_pack.h"
#include "text.h"
#include "verdict.h"
#include "fuzz_common.h"

/* 2026-11-29T08:15:04.123Z, as in tests/unit/example_json.h */
#define NOW_MS 1795940104123LL

/* /work/shared/spec/examples/security_map.json */
static const char security_map_json[] =
    "{\"type\": \"security_map\", \"securities\": {"
    " \"VTI\": {\"sector\": \"Broad Market\", \"asset_class\": \"us_equity\"},"
    " \"VXUS\": {\"sector\": \"Broad Market\", \"asset_class\": \"intl_equity\"},"
    " \"BND\": {\"sector\": \"Government Bonds\", \"asset_class\": \"fixed_income\"},"
    " \"AAPL\": {\"sector\": \"Technology\", \"asset_class\": \"us_equity\"},"
    " \"MO\": {\"sector\": \"Tobacco\", \"asset_class\": \"us_equity\"},"
    " \"XOM\": {\"sector\": \"Energy\", \"asset_class\": \"us_equity\"},"
    " \"SGOV\": {\"sector\": \"Treasury Bills\", \"asset_class\": \"cash\"}}}";

/* examples/ips.json */
static const char ips_json[] =
    "{\"type\": \"ips\", \"ips_id\": \"ips-7f3a\", \"user_id\": \"u-1001\","
    " \"version\": 3,"
    " \"constraints\": {\"excluded_tickers\": [\"XOM\"],"
    "  \"excluded_sectors\": [\"Tobacco\"],"
    "  \"concentration_limit_percent\": 25},"
    " \"target_allocation\": {"
    "  \"us_equity\": {\"target_percent\": 50, \"min_percent\": 45, \"max_percent\": 55},"
    "  \"intl_equity\": {\"target_percent\": 20, \"min_percent\": 15, \"max_percent\": 25},"
    "  \"fixed_income\": {\"target_percent\": 25, \"min_percent\": 20, \"max_percent\": 30},"
    "  \"cash\": {\"target_percent\": 5, \"min_percent\": 0, \"max_percent\": 10}},"
    " \"approval_required_above_usd\": 25000,"
    " \"approval_required_above_percent\": 5}";

/* examples/holdings.json: total 600000 */
static const char holdings_json[] =
    "{\"type\": \"holdings\", \"user_id\": \"u-1001\","
    " \"snapshot_id\": \"h-u-1001-2026-11-28\","
    " \"as_of\": \"2026-11-28T21:00:00Z\", \"cash_usd\": 20000,"
    " \"positions\": ["
    "  {\"ticker\": \"VTI\", \"quantity\": 1500, \"market_value_usd\": 300000},"
    "  {\"ticker\": \"AAPL\", \"quantity\": 200, \"market_value_usd\": 45000},"
    "  {\"ticker\": \"VXUS\", \"quantity\": 2100, \"market_value_usd\": 130000},"
    "  {\"ticker\": \"BND\", \"quantity\": 1400, \"market_value_usd\": 105000}]}";

/* examples/standards_index.json */
static const char standards_json[] =
    "{\"type\": \"standards_index\", \"standards\": ["
    "  {\"id\": \"ADR-007\", \"assertion\": \"Every lint tool is pinned to an exact version\", \"status\": \"Accepted\","
    "   \"applies_to\": {\"file_patterns\": [\"scripts/*.sh\"]}},"
    "  {\"id\": \"ADR-009\", \"assertion\": \"Docs use sentence-case headings\", \"status\": \"Proposed\","
    "   \"applies_to\": {\"file_patterns\": [\"**/*.md\"]}}]}";

/* examples/roster.json */
static const char roster_json[] =
    "{\"type\": \"roster\", \"authors\": [\"action-drafting\","
    " \"action-drafting-b\", \"developer-agent\", \"drafting-graph\"]}";

/* Context 2: limits at 0, a zero portfolio, every glob form. */
static const char ips_edge_json[] =
    "{\"type\": \"ips\", \"ips_id\": \"ips-edge\", \"user_id\": \"u-1001\","
    " \"version\": 1,"
    " \"constraints\": {\"excluded_tickers\": [],"
    "  \"excluded_sectors\": [\"Broad Market\", \"\"],"
    "  \"concentration_limit_percent\": 0},"
    " \"target_allocation\": {"
    "  \"cash\": {\"min_percent\": 0, \"max_percent\": 0},"
    "  \"us_equity\": {\"min_percent\": 100, \"max_percent\": 100}},"
    " \"approval_required_above_usd\": 0,"
    " \"approval_required_above_percent\": 0}";

static const char holdings_edge_json[] =
    "{\"type\": \"holdings\", \"user_id\": \"u-1001\","
    " \"snapshot_id\": \"h-zero\", \"as_of\": \"2026-11-28T21:00:00.5+00:00\","
    " \"cash_usd\": 0, \"positions\": ["
    "  {\"ticker\": \"vti\", \"market_value_usd\": 0},"
    "  {\"ticker\": \"NOTMAPPED\", \"market_value_usd\": 0}]}";

static const char standards_edge_json[] =
    "{\"type\": \"standards_index\", \"standards\": ["
    "  {\"id\": \"S-1\", \"assertion\": \"a\", \"status\": \"Accepted\","
    "   \"applies_to\": {\"file_patterns\": [\"**\", \"*\", \"\", \"**/\","
    "    \"a/**/b/**/c\", \"[a-\", \"\\\\\", \"*.[ch]\", \"?\", \"***/*\"]}},"
    "  {\"id\": \"S-2\", \"assertion\": \"b\", \"status\": \"Accepted\","
    "   \"applies_to\": {\"file_patterns\": [], \"domains\": [\"auth\"],"
    "    \"decision_types\": [\"token-storage\"]}},"
    "  {\"id\": \"S-3\", \"assertion\": \"c\", \"status\": \"accepted\","
    "   \"applies_to\": {\"file_patterns\": [\"**/*\"]}}]}";

static const char roster_edge_json[] =
    "{\"type\": \"roster\", \"authors\": [\"action-drafting\"]}";

#define CONTEXTS 3

struct context {
	struct loaded_object ips, holdings, map, standards, roster;
	cJSON *judgments;
	bool loaded;
};

static struct context contexts[CONTEXTS];

static void
load_fixture(const char *json, struct loaded_object *o)
{
	struct error err;

	error_clear(&err);
	if (object_load(json, strlen(json), o, NULL, &err) != 0) {
		fprintf(stderr, "fuzz_check: fixture does not load: %s: %s\n",
		    err.field, err.message);
		abort();
	}
}

static void
load_contexts(void)
{
	struct context *c;

	if (contexts[0].loaded)
		return;
	c = &contexts[0];
	load_fixture(ips_json, &c->ips);
	load_fixture(holdings_json, &c->holdings);
	load_fixture(security_map_json, &c->map);
	load_fixture(standards_json, &c->standards);
	load_fixture(roster_json, &c->roster);
	c->judgments = cJSON_Parse("{\"AC-1\": \"met\", \"AC-3\": \"unmet\","
	    " \"AC-2\": \"met\"}");
	c->loaded = true;
	contexts[1].loaded = true;	/* nothing at all */
	c = &contexts[2];
	load_fixture(ips_edge_json, &c->ips);
	load_fixture(holdings_edge_json, &c->holdings);
	load_fixture(security_map_json, &c->map);
	load_fixture(standards_edge_json, &c->standards);
	load_fixture(roster_edge_json, &c->roster);
	c->loaded = true;
}

/* The revision chain the store would find for revision_of (SPEC 2.4). */
static cJSON *
make_chain(int which, const char *revision_of)
{
	cJSON *chain = cJSON_CreateArray(), *v;

	if (chain == NULL)
		abort();
	if (which == 1)
		return chain;	/* the revised action is not in the store */
	v = cJSON_CreateObject();
	cJSON_AddStringToObject(v, "action_id", revision_of);
	cJSON_AddStringToObject(v, "author", "action-drafting");
	cJSON_AddStringToObject(v, "status", which == 0 ? "rejected" :
	    "approved");
	if (which == 0)
		cJSON_AddStringToObject(v, "reassign_to", "action-drafting-b");
	else
		cJSON_AddNullToObject(v, "reassign_to");
	cJSON_AddBoolToObject(v, "escalate", false);
	cJSON_AddItemToArray(chain, v);
	v = cJSON_CreateObject();
	cJSON_AddStringToObject(v, "action_id", "older-version");
	cJSON_AddStringToObject(v, "author", "developer-agent");
	cJSON_AddStringToObject(v, "status", "rejected");
	cJSON_AddNullToObject(v, "reassign_to");
	cJSON_AddBoolToObject(v, "escalate", false);
	cJSON_AddItemToArray(chain, v);
	return chain;
}

struct wanted {
	const cJSON *map;	/* the whole security map's securities */
	cJSON *partial;		/* what the pack asked for, upper-cased keys */
};

/* As want_security() in src/store/store_queries.c. */
static void
want(void *ctx, const char *ticker)
{
	struct wanted *w = ctx;
	char key[ID_MAX_BYTES + 1];
	const cJSON *entry;
	cJSON *copy;

	if (ticker == NULL)
		abort();
	text_upper(key, sizeof key, ticker);
	if (cJSON_GetObjectItemCaseSensitive(w->partial, key) != NULL)
		return;
	entry = cJSON_GetObjectItemCaseSensitive(w->map, key);
	if (entry == NULL)
		return;
	copy = cJSON_CreateObject();
	cJSON_AddStringToObject(copy, "sector", cJSON_GetObjectItemCaseSensitive(
	    entry, "sector")->valuestring);
	cJSON_AddStringToObject(copy, "asset_class",
	    cJSON_GetObjectItemCaseSensitive(entry, "asset_class")->valuestring);
	cJSON_AddItemToObject(w->partial, key, copy);
}

static void
check_verdict(const struct check_outcome *out, const char *text, size_t len)
{
	const struct verdict *v = &out->verdict;
	bool all = true;
	size_t i;

	if (v->rule_count == 0)
		fuzz_fail("check_run: a verdict without rules", text, len, 0);
	for (i = 0; i < v->rule_count; i++) {
		if (v->rules[i].rule_id == NULL)
			fuzz_fail("check_run: a rule without an id", text, len,
			    0);
		if (!v->rules[i].passed && (v->rules[i].detail == NULL ||
		    v->rules[i].detail[0] == '\0'))
			fuzz_fail("check_run: a failing rule without a detail "
			    "(SPEC 2)", text, len, 0);
		all = all && v->rules[i].passed;
	}
	if (v->overall_pass != all)
		fuzz_fail("check_run: overall_pass is not the AND of the rules",
		    text, len, 0);
	if (!v->overall_pass && !v->requires_human_approval)
		fuzz_fail("check_run: a failing verdict does not require a "
		    "human", text, len, 0);
	if (out->divergence == NULL || !cJSON_IsArray(out->divergence))
		fuzz_fail("check_run: no divergence list", text, len, 0);
	if (out->advisory.state != ADVISORY_AVAILABLE &&
	    cJSON_GetArraySize(out->divergence) != 1)
		fuzz_fail("check_run: an unavailable advisory must give exactly "
		    "one divergence entry (SPEC 4)", text, len, 0);
}

/* The `check` line, as cmd_check.c prints it. */
static void
check_line(const struct check_outcome *out)
{
	struct error err;
	char *printed, *reprinted;
	cJSON *back;

	if ((printed = check_outcome_text(out)) == NULL)
		abort();
	fuzz_assert_terminal_safe("check_outcome_text", printed,
	    strlen(printed), false);
	error_clear(&err);
	back = json_parse_strict(printed, strlen(printed), NULL, &err);
	if (back == NULL) {
		fprintf(stderr, "re-parse error: %s: %s\n", err.field,
		    err.message);
		fuzz_fail("the check line does not parse back strictly",
		    printed, strlen(printed), 0);
	}
	/* Written directly, yet exactly what json_print() gives the tree. */
	if ((reprinted = json_print(back)) == NULL)
		abort();
	if (strcmp(reprinted, printed) != 0)
		fuzz_fail("the check line differs from json_print() of its "
		    "own tree", printed, strlen(printed), 0);
	free(reprinted);
	cJSON_Delete(back);
	free(printed);
}

/* What the queue, the detail view and the decision use (queue.c, tui, decide.c). */
static void
views(const struct check_input *in, const struct check_outcome *out)
{
	const struct rule_pack *pack = out->pack;
	struct detail d;
	char summary[512], sha[65];
	const char *why = NULL;
	cJSON *criteria, *locked;
	size_t i;

	if (pack->who != NULL)
		(void)pack->who(in->action);
	memset(summary, 0x55, sizeof summary);
	pack->summarize(in->action, summary, sizeof summary);
	if (memchr(summary, '\0', sizeof summary) == NULL)
		abort();
	memset(&d, 0, sizeof d);
	if (pack->describe != NULL)
		(void)pack->describe(in, &out->advisory, &d);
	for (i = 0; i < d.count; i++)
		fuzz_assert_terminal_safe("describe (a detail line)",
		    d.lines[i].text, strlen(d.lines[i].text), false);
	detail_free(&d);
	if (pack->unjudged_criteria != NULL &&
	    pack->unjudged_criteria(in, &out->advisory) < 0)
		abort();
	if (pack->judgment_criteria != NULL) {
		criteria = pack->judgment_criteria(in, &out->advisory);
		cJSON_Delete(criteria);
	}
	if (pack->approved_artifact != NULL &&
	    pack->approved_artifact(in, &out->advisory, sha) &&
	    strlen(sha) != 64)
		abort();
	(void)lockout_deadlocked(in, false);
	(void)lockout_deadlocked(in, true);
	(void)lockout_may_reassign(in, "action-drafting-b", &why);
	if ((locked = lockout_authors(in, true)) == NULL)
		abort();
	cJSON_Delete(locked);
	if (check_inputs_sha256(in, sha) != 0 || strlen(sha) != 64)
		abort();
}

static void
run_context(int which, const cJSON *packet, const char *text, size_t len)
{
	struct context *c = &contexts[which];
	struct check_input in;
	struct check_outcome out;
	struct wanted w = { NULL, NULL };
	const struct rule_pack *pack;
	const cJSON *kind, *revision_of;
	cJSON *chain = NULL;
	struct error err;

	memset(&in, 0, sizeof in);
	in.packet = packet;
	in.action = json_member(packet, "proposed_action");
	kind = json_member(packet, "kind");
	pack = rule_pack_find(cJSON_IsString(kind) ? kind->valuestring : NULL);
	if (pack == NULL)
		fuzz_fail("a loaded packet has no rule pack", text, len, 0);
	if (pack->needs & NEEDS_IPS)
		in.ips = c->ips.json;
	if (pack->needs & NEEDS_HOLDINGS)
		in.holdings = c->holdings.json;
	if (pack->needs & NEEDS_STANDARDS)
		in.standards = c->standards.json;
	in.roster = c->roster.json;
	in.po_judgments = c->judgments;
	revision_of = json_member(in.action, "revision_of");
	if (cJSON_IsString(revision_of))
		in.revision_chain = chain = make_chain(which,
		    revision_of->valuestring);
	if ((pack->needs & NEEDS_SECURITIES) && pack->securities_wanted) {
		w.map = json_member(c->map.json, "securities");
		if ((w.partial = cJSON_CreateObject()) == NULL)
			abort();
		pack->securities_wanted(&in, want, &w);
		in.securities = w.partial;
	}
	in.now_ms = NOW_MS;

	error_clear(&err);
	if (check_run(&in, &out, &err) != 0) {
		fprintf(stderr, "check_run (context %d): %s: %s\n", which,
		    err.field, err.message);
		fuzz_fail("check_run failed on a packet that loaded", text, len,
		    0);
	}
	check_verdict(&out, text, len);
	check_line(&out);
	views(&in, &out);
	check_outcome_free(&out);
	cJSON_Delete(w.partial);
	cJSON_Delete(chain);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	struct loaded_object o;
	struct error err;
	cJSON *stored;
	int which;

	load_contexts();
	error_clear(&err);
	if (object_load(text, size, &o, NULL, &err) != 0 ||
	    o.type != OBJECT_PACKET) {
		object_free(&o);
		free(text);
		return 0;
	}
	/* The store keeps the text and reads it back with cJSON_Parse(). */
	stored = cJSON_Parse(text);
	if (stored == NULL || !fuzz_json_equal(stored, o.json))
		fuzz_fail("the stored text of a loaded packet reads back as "
		    "another value", text, size, 0);
	for (which = 0; which < CONTEXTS; which++)
		run_context(which, stored, text, size);
	cJSON_Delete(stored);
	object_free(&o);
	free(text);
	return 0;
}
