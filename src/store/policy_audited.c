/*
 * The policy the audit chain vouches for (issue 35): rebuilt from the
 * policy_import records as audit verify walks them, so that each
 * decision's rule_inputs are held to the imports before it, and the
 * policy tables, which the gate reads, to the imports of the whole log.
 * A security row rewritten in plain SQL once made an excluded trade pass
 * every rule, and the chain, which never saw the change, still verified.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "json_strict.h"
#include "rule_pack.h"
#include "sha256.h"
#include "store_internal.h"
#include "text.h"
#include "timestamp.h"

struct audited_policy {
	/* By upper-case ticker: {ticker, sector, asset_class, [price_usd], seq}. */
	struct security_cache securities;
	long long security_count;
	/*
	 * By "id\037version" (ips, approval_policy) or snapshot_id
	 * (holdings): {sha256, seq, user_id, version or as_of_ms}.
	 */
	cJSON *ips, *holdings, *approval_policies;
	/* By user_id: the active IPS's key, the latest as_of_ms. */
	cJSON *active_ips, *latest_holdings;
	/* The last import of each: {sha256, seq}; NULL before any. */
	cJSON *roster, *standards;
};

struct audited_policy *
audited_policy_new(void)
{
	struct audited_policy *p = calloc(1, sizeof *p);

	if (p == NULL)
		return NULL;
	p->ips = cJSON_CreateObject();
	p->holdings = cJSON_CreateObject();
	p->approval_policies = cJSON_CreateObject();
	p->active_ips = cJSON_CreateObject();
	p->latest_holdings = cJSON_CreateObject();
	if (p->ips == NULL || p->holdings == NULL ||
	    p->approval_policies == NULL || p->active_ips == NULL ||
	    p->latest_holdings == NULL) {
		audited_policy_free(p);
		return NULL;
	}
	return p;
}

void
audited_policy_free(struct audited_policy *p)
{
	if (p == NULL)
		return;
	security_cache_clear(&p->securities);
	cJSON_Delete(p->ips);
	cJSON_Delete(p->holdings);
	cJSON_Delete(p->approval_policies);
	cJSON_Delete(p->active_ips);
	cJSON_Delete(p->latest_holdings);
	cJSON_Delete(p->roster);
	cJSON_Delete(p->standards);
	free(p);
}

/* object[key] = value, replacing what was there; false when out of memory. */
static bool
put(cJSON *object, const char *key, cJSON *value)
{
	if (value == NULL)
		return false;
	if (cJSON_GetObjectItemCaseSensitive(object, key) != NULL)
		return cJSON_ReplaceItemInObjectCaseSensitive(object, key,
		    value) != 0;
	if (!cJSON_AddItemToObject(object, key, value)) {
		cJSON_Delete(value);
		return false;
	}
	return true;
}

static double
number_of(const cJSON *object, const char *key)
{
	const cJSON *n = json_member(object, key);

	return cJSON_IsNumber(n) ? n->valuedouble : 0;
}

/* {sha256, seq}: what an import recorded of one object. */
static cJSON *
digest_at(const char *sha256, long long seq)
{
	cJSON *d = cJSON_CreateObject();

	if (d == NULL || cJSON_AddStringToObject(d, "sha256", sha256) == NULL ||
	    cJSON_AddNumberToObject(d, "seq", (double)seq) == NULL) {
		cJSON_Delete(d);
		return NULL;
	}
	return d;
}

static void
versioned_key(char *key, size_t size, const char *id, double version)
{
	snprintf(key, size, "%s version %.0f", id, version);
}

/* Later entries of a ticker override earlier ones (SPEC 1). */
static bool
apply_securities(struct audited_policy *p, const cJSON *object, long long seq)
{
	const cJSON *entry, *price;
	struct security_cached *node;
	char key[ID_MAX_BYTES + 1];
	cJSON *kept;

	cJSON_ArrayForEach(entry, json_member(object, "securities")) {
		if (entry->string == NULL)
			continue;
		text_upper(key, sizeof key, entry->string);
		if ((kept = cJSON_CreateObject()) == NULL ||
		    cJSON_AddStringToObject(kept, "ticker",
		    entry->string) == NULL ||
		    cJSON_AddItemToObject(kept, "sector", cJSON_Duplicate(
		    json_member(entry, "sector"), 1)) == 0 ||
		    cJSON_AddItemToObject(kept, "asset_class", cJSON_Duplicate(
		    json_member(entry, "asset_class"), 1)) == 0 ||
		    cJSON_AddNumberToObject(kept, "seq", (double)seq) == NULL) {
			cJSON_Delete(kept);
			return false;
		}
		price = json_member(entry, "price_usd");
		if (cJSON_IsNumber(price) && cJSON_AddNumberToObject(kept,
		    "price_usd", price->valuedouble) == NULL) {
			cJSON_Delete(kept);
			return false;
		}
		if ((node = security_cache_find(&p->securities, key)) != NULL) {
			cJSON_Delete(node->entry);
			node->entry = kept;
		} else if (security_cache_add(&p->securities, key,
		    kept) != NULL)
			p->security_count++;
		else {
			cJSON_Delete(kept);
			return false;
		}
	}
	return true;
}

/* The active IPS is the highest version; a tie goes to the later import. */
static bool
apply_ips(struct audited_policy *p, const cJSON *object, const char *sha256,
    long long seq)
{
	const char *id = record_text(object, "ips_id", NULL);
	const char *user = record_text(object, "user_id", NULL);
	double version = number_of(object, "version");
	const cJSON *active;
	char key[2 * ID_MAX_BYTES];
	cJSON *d;

	if (id == NULL || user == NULL)
		return true;
	versioned_key(key, sizeof key, id, version);
	if ((d = digest_at(sha256, seq)) == NULL ||
	    cJSON_AddStringToObject(d, "user_id", user) == NULL ||
	    cJSON_AddNumberToObject(d, "version", version) == NULL) {
		cJSON_Delete(d);
		return false;
	}
	if (!put(p->ips, key, d))
		return false;
	active = json_member(p->active_ips, user);
	if (active != NULL && number_of(json_member(p->ips,
	    active->valuestring), "version") > version)
		return true;
	return put(p->active_ips, user, cJSON_CreateString(key));
}

static bool
apply_holdings(struct audited_policy *p, const cJSON *object,
    const char *sha256, long long seq)
{
	const char *id = record_text(object, "snapshot_id", NULL);
	const char *user = record_text(object, "user_id", NULL);
	const char *as_of = record_text(object, "as_of", NULL);
	long long as_of_ms = 0;
	cJSON *d;

	if (id == NULL || user == NULL || as_of == NULL ||
	    !timestamp_parse(as_of, &as_of_ms))
		return true;
	if ((d = digest_at(sha256, seq)) == NULL ||
	    cJSON_AddStringToObject(d, "user_id", user) == NULL ||
	    cJSON_AddNumberToObject(d, "as_of_ms", (double)as_of_ms) == NULL) {
		cJSON_Delete(d);
		return false;
	}
	if (!put(p->holdings, id, d))
		return false;
	if (number_of(p->latest_holdings, user) > (double)as_of_ms)
		return true;
	return put(p->latest_holdings, user,
	    cJSON_CreateNumber((double)as_of_ms));
}

int
audited_policy_apply(struct audited_policy *p, long long seq,
    const cJSON *record)
{
	const char *type = record_text(record, "type", NULL);
	const char *sha256 = record_text(record, "object_sha256", NULL);
	const cJSON *object = json_member(record, "object");
	char key[2 * ID_MAX_BYTES];
	bool ok = true;

	if (type == NULL || sha256 == NULL || !cJSON_IsObject(object))
		return 0;
	if (strcmp(type, "security_map") == 0)
		ok = apply_securities(p, object, seq);
	else if (strcmp(type, "ips") == 0)
		ok = apply_ips(p, object, sha256, seq);
	else if (strcmp(type, "holdings") == 0)
		ok = apply_holdings(p, object, sha256, seq);
	else if (strcmp(type, "roster") == 0) {
		cJSON_Delete(p->roster);
		ok = (p->roster = digest_at(sha256, seq)) != NULL;
	} else if (strcmp(type, "standards_index") == 0) {
		cJSON_Delete(p->standards);
		ok = (p->standards = digest_at(sha256, seq)) != NULL;
	} else if (strcmp(type, "approval_policy") == 0 &&
	    record_text(object, "policy_id", NULL) != NULL) {
		versioned_key(key, sizeof key, record_text(object,
		    "policy_id", NULL), number_of(object, "version"));
		ok = put(p->approval_policies, key, digest_at(sha256, seq));
	}
	return ok ? 0 : -1;
}

/* Whether two optional strings or numbers are the same value. */
static bool
same_value(const cJSON *a, const cJSON *b)
{
	if (a == NULL || cJSON_IsNull(a))
		return b == NULL || cJSON_IsNull(b);
	if (cJSON_IsString(a))
		return cJSON_IsString(b) &&
		    strcmp(a->valuestring, b->valuestring) == 0;
	return cJSON_IsNumber(a) && cJSON_IsNumber(b) &&
	    a->valuedouble == b->valuedouble;
}

/* What a value looks like in a problem: a string quoted, else as JSON. */
static void
shown(const cJSON *v, char *out, size_t size)
{
	if (cJSON_IsString(v))
		snprintf(out, size, "\"%.120s\"", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(out, size, "%.17g", v->valuedouble);
	else
		snprintf(out, size, "absent");
}

static const char *const security_fields[] = { "sector", "asset_class",
    "price_usd" };

/* rule_inputs.securities, entry by entry. */
static bool
securities_vouched(const struct audited_policy *p, const char *who,
    const cJSON *securities, char *problem, size_t size)
{
	const struct security_cached *node;
	const cJSON *entry, *a, *b;
	char key[ID_MAX_BYTES + 1], was[160], is[160];
	size_t i;

	cJSON_ArrayForEach(entry, securities) {
		if (entry->string == NULL)
			continue;
		text_upper(key, sizeof key, entry->string);
		if ((node = security_cache_find(&p->securities,
		    key)) == NULL) {
			snprintf(problem, size, "%s: rule_inputs.securities."
			    "%.60s is in no policy import before it", who,
			    entry->string);
			return false;
		}
		for (i = 0; i < sizeof security_fields /
		    sizeof security_fields[0]; i++) {
			a = json_member(entry, security_fields[i]);
			b = json_member(node->entry, security_fields[i]);
			if (same_value(a, b))
				continue;
			shown(a, is, sizeof is);
			shown(b, was, sizeof was);
			snprintf(problem, size, "%s: rule_inputs.securities."
			    "%.60s.%s is %s, but the policy import at seq %.0f "
			    "says %s", who, entry->string, security_fields[i],
			    is, number_of(node->entry, "seq"), was);
			return false;
		}
	}
	return true;
}

/* rule_inputs.ips: imported before, active then, the digest imported. */
static bool
ips_vouched(const struct audited_policy *p, const char *who,
    const cJSON *inputs, char *problem, size_t size)
{
	const cJSON *ips = json_member(inputs, "ips");
	const char *id = record_text(ips, "ips_id", NULL);
	const char *named = record_text(inputs, "ips_sha256", NULL);
	const cJSON *d, *active;
	char key[2 * ID_MAX_BYTES];

	if (id == NULL)
		return true;
	versioned_key(key, sizeof key, id, number_of(ips, "version"));
	if ((d = json_member(p->ips, key)) == NULL) {
		snprintf(problem, size, "%s: rule_inputs.ips (%.80s version "
		    "%.0f) is in no policy import before it", who, id,
		    number_of(ips, "version"));
		return false;
	}
	if (named != NULL && strcmp(named, record_text(d, "sha256",
	    NULL)) != 0) {
		snprintf(problem, size, "%s: rule_inputs.ips_sha256 is not "
		    "the digest the policy import at seq %.0f recorded", who,
		    number_of(d, "seq"));
		return false;
	}
	active = json_member(p->active_ips, record_text(d, "user_id", NULL));
	if (cJSON_IsString(active) && strcmp(active->valuestring, key) != 0) {
		snprintf(problem, size, "%s: rule_inputs.ips (%.80s version "
		    "%.0f) was not the active IPS: the policy import at seq "
		    "%.0f made version %.0f active", who, id,
		    number_of(ips, "version"), number_of(json_member(p->ips,
		    active->valuestring), "seq"), number_of(json_member(p->ips,
		    active->valuestring), "version"));
		return false;
	}
	return true;
}

/*
 * rule_inputs.holdings_snapshot_id.  Stores from before SPEC v2 imported
 * holdings without a record, and decide on them still: a snapshot no
 * import names is let be here (the rows' check below catches one newer
 * than its user's recorded ones, the only kind the gate would prefer).
 */
static bool
holdings_vouched(const struct audited_policy *p, const char *who,
    const cJSON *inputs, char *problem, size_t size)
{
	const char *id = record_text(inputs, "holdings_snapshot_id", NULL);
	const char *named = record_text(inputs, "holdings_sha256", NULL);
	const cJSON *d;

	if (id == NULL)
		return true;
	if ((d = json_member(p->holdings, id)) == NULL)
		return true;
	if (named != NULL && strcmp(named, record_text(d, "sha256",
	    NULL)) != 0) {
		snprintf(problem, size, "%s: rule_inputs.holdings_sha256 is "
		    "not the digest the policy import at seq %.0f recorded",
		    who, number_of(d, "seq"));
		return false;
	}
	if (number_of(p->latest_holdings, record_text(d, "user_id", NULL)) >
	    number_of(d, "as_of_ms")) {
		snprintf(problem, size, "%s: rule_inputs.holdings_snapshot_id "
		    "(%.80s) was not the current snapshot: a later one was "
		    "imported before it", who, id);
		return false;
	}
	return true;
}

/*
 * rule_inputs.<name>_sha256, where the record names one (records before
 * SPEC v2 6 copied the object): the digest of the last import before it,
 * or null when there was none (or, for the index, the kind reads none).
 */
static bool
document_vouched(const char *who, const cJSON *inputs, const char *name,
    const cJSON *imported, bool read, char *problem, size_t size)
{
	char key[64];
	const cJSON *named;
	const char *want;

	snprintf(key, sizeof key, "%s_sha256", name);
	if ((named = json_member(inputs, key)) == NULL)
		return true;
	want = imported != NULL && read ? record_text(imported, "sha256",
	    NULL) : NULL;
	if (cJSON_IsString(named) ? want != NULL &&
	    strcmp(want, named->valuestring) == 0 : want == NULL)
		return true;
	if (want == NULL)
		snprintf(problem, size, "%s: rule_inputs.%s names an object no "
		    "policy import before it recorded", who, key);
	else
		snprintf(problem, size, "%s: rule_inputs.%s is not the digest "
		    "the policy import at seq %.0f recorded", who, key,
		    number_of(imported, "seq"));
	return false;
}

bool
audited_policy_vouches(const struct audited_policy *p, const cJSON *record,
    char *problem, size_t size)
{
	const cJSON *inputs = json_member(record, "rule_inputs");
	const char *event = record_text(record, "event", NULL);
	const char *action = record_text(record, "action_id", NULL);
	const struct rule_pack *pack = rule_pack_find(record_text(record,
	    "kind", NULL) != NULL ? record_text(record, "kind", NULL) : "");
	char who[320];
	bool decision = event != NULL && strcmp(event, "decision") == 0;

	if (!cJSON_IsObject(inputs))
		return true;
	snprintf(who, sizeof who, "%s %.80s of action %.150s",
	    decision ? "decision" : "approval", record_text(record, decision ?
	    "decision_id" : "approval_id", NULL) != NULL ?
	    record_text(record, decision ? "decision_id" : "approval_id",
	    NULL) : "?", action != NULL ? action : "?");
	return securities_vouched(p, who, json_member(inputs, "securities"),
	    problem, size) && ips_vouched(p, who, inputs, problem, size) &&
	    holdings_vouched(p, who, inputs, problem, size) &&
	    document_vouched(who, inputs, "roster", p->roster, true, problem,
	    size) && document_vouched(who, inputs, "standards_index",
	    p->standards, pack == NULL || (pack->needs & NEEDS_STANDARDS),
	    problem, size);
}

/* The first policy row found disagreeing with the imports. */
struct tables_check {
	struct store *store;
	const struct audited_policy *policy;
	struct audit_report *report;
	long long head_seq;
	struct error *err;
};

static void
row_problem(struct tables_check *t, double seq, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
row_problem(struct tables_check *t, double seq, const char *fmt, ...)
{
	va_list ap;

	if (t->report->bad_seq != 0)
		return;
	t->report->bad_seq = seq > 0 ? (long long)seq : t->head_seq > 0 ?
	    t->head_seq : 1;
	va_start(ap, fmt);
	vsnprintf(t->report->problem, sizeof t->report->problem, fmt, ap);
	va_end(ap);
}

/* Whether the row's column holds, as text, what has that SHA-256. */
static bool
column_hashes_to(db_stmt *row, int i, const char *sha256)
{
	char digest[SHA256_HEX_SIZE];

	return db_column_type(row, i) == DB_TEXT && sha256 != NULL &&
	    sha256_hex(db_column_text(row, i), (size_t)db_column_bytes(row, i),
	    digest) == 0 && strcmp(digest, sha256) == 0;
}

static bool
security_column_is(db_stmt *row, int i, const cJSON *want)
{
	const char *text = (const char *)db_column_text(row, i);

	if (cJSON_IsNumber(want))
		return text != NULL && strtod(text, NULL) == want->valuedouble;
	return row_text_is(row, i, cJSON_IsString(want) ? want->valuestring :
	    NULL);
}

/* The security map as the gate reads it, row by row. */
static int
security_rows(struct tables_check *t)
{
	static const char *const columns[] = { "ticker", "sector",
	    "asset_class", "price_usd" };
	const struct security_cached *node;
	const cJSON *want;
	db_stmt *row;
	const char *key, *text;
	char was[160];
	long long rows = 0;
	size_t i;
	int rc;

	if (db_prepare(t->store->db, "SELECT ticker_key, ticker, sector,"
	    " asset_class, price_usd FROM security ORDER BY ticker_key", DB_READS,
	    &row) != DB_OK)
		return store_error(t->store, t->err, "reading the security map");
	while ((rc = db_step(row)) == DB_ROW && t->report->bad_seq == 0) {
		rows++;
		key = (const char *)db_column_text(row, 0);
		node = key != NULL ? security_cache_find(
		    &t->policy->securities, key) : NULL;
		if (node == NULL) {
			row_problem(t, 0, "the security row %.60s is in no "
			    "policy import", key != NULL ? key : "NULL");
			break;
		}
		for (i = 0; i < sizeof columns / sizeof columns[0]; i++) {
			want = json_member(node->entry, columns[i]);
			if (security_column_is(row, (int)i + 1, want))
				continue;
			text = (const char *)db_column_text(row, (int)i + 1);
			shown(want, was, sizeof was);
			row_problem(t, number_of(node->entry, "seq"), "the "
			    "security row %.60s says %s %s%.120s%s, but the "
			    "policy import at seq %.0f says %s", key,
			    columns[i], text != NULL ? "\"" : "", text != NULL ?
			    text : "NULL", text != NULL ? "\"" : "",
			    number_of(node->entry, "seq"), was);
			break;
		}
	}
	db_finalize(row);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(t->store, t->err, "reading the security map");
	if (t->report->bad_seq == 0 && rows != t->policy->security_count)
		row_problem(t, 0, "%lld securities were imported, but the "
		    "security map has %lld rows", t->policy->security_count,
		    rows);
	return 0;
}

/*
 * Rows of (id[, version], raw_json) held to the digests their imports
 * recorded.  unrecorded_ok (holdings, which stores before SPEC v2 hold
 * unrecorded): rows of (id, raw_json, user_id, as_of_ms), and one no
 * import names passes unless it is newer than every recorded snapshot
 * of its user, which would make it the one the gate reads.
 */
static int
digest_rows(struct tables_check *t, const char *sql, bool versioned,
    const cJSON *imported, bool unrecorded_ok, const char *what)
{
	const char *id;
	const cJSON *d, *user;
	char key[2 * ID_MAX_BYTES];
	db_stmt *row;
	long long recorded = 0;
	int rc, raw = versioned ? 2 : 1;

	if (db_prepare(t->store->db, sql, DB_READS, &row) != DB_OK)
		return store_error(t->store, t->err, "reading the policy");
	while ((rc = db_step(row)) == DB_ROW && t->report->bad_seq == 0) {
		id = (const char *)db_column_text(row, 0);
		if (id == NULL)
			id = "NULL";
		if (versioned)
			versioned_key(key, sizeof key, id,
			    (double)db_column_int64(row, 1));
		else
			snprintf(key, sizeof key, "%s", id);
		if ((d = json_member(imported, key)) == NULL) {
			if (!unrecorded_ok || ((user = json_member(
			    t->policy->latest_holdings, (const char *)
			    db_column_text(row, 2))) != NULL &&
			    (double)db_column_int64(row, 3) > user->valuedouble))
				row_problem(t, 0, "the %s row %.80s is in no "
				    "policy import", what, key);
			continue;
		}
		recorded++;
		if (!column_hashes_to(row, raw, record_text(d, "sha256", NULL)))
			row_problem(t, number_of(d, "seq"), "the %s row %.80s "
			    "is not the object the policy import at seq %.0f "
			    "recorded (its SHA-256 differs)", what, key,
			    number_of(d, "seq"));
	}
	db_finalize(row);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(t->store, t->err, "reading the policy");
	if (t->report->bad_seq == 0 &&
	    recorded != cJSON_GetArraySize(imported))
		row_problem(t, 0, "%d %s objects were imported, but %lld of "
		    "them have a row", cJSON_GetArraySize(imported), what,
		    recorded);
	return 0;
}

/* The roster and the index: the last import of each, or no row. */
static int
document_rows(struct tables_check *t)
{
	const struct audited_policy *p = t->policy;
	const cJSON *d;
	const char *type;
	db_stmt *row;
	int rc, rows = 0;

	if (db_prepare(t->store->db, "SELECT type, raw_json FROM"
	    " policy_document WHERE type IN ('roster', 'standards_index')",
	    DB_READS, &row) != DB_OK)
		return store_error(t->store, t->err, "reading the policy");
	while ((rc = db_step(row)) == DB_ROW && t->report->bad_seq == 0) {
		type = (const char *)db_column_text(row, 0);
		d = strcmp(type, "roster") == 0 ? p->roster : p->standards;
		rows++;
		if (d == NULL)
			row_problem(t, 0, "the %s row is in no policy import",
			    type);
		else if (!column_hashes_to(row, 1, record_text(d, "sha256",
		    NULL)))
			row_problem(t, number_of(d, "seq"), "the %s row is not "
			    "the object the policy import at seq %.0f recorded "
			    "(its SHA-256 differs)", type, number_of(d, "seq"));
	}
	db_finalize(row);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(t->store, t->err, "reading the policy");
	if (t->report->bad_seq == 0 && rows != (p->roster != NULL) +
	    (p->standards != NULL))
		row_problem(t, 0, "an imported roster or standards index has "
		    "no row");
	return 0;
}

int
audited_policy_check_tables(struct store *s, const struct audited_policy *p,
    struct audit_report *report, struct error *err)
{
	struct tables_check t = { s, p, report, report->head.seq, err };
	int rc;

	if ((rc = security_rows(&t)) != 0 || report->bad_seq != 0 ||
	    (rc = digest_rows(&t, "SELECT ips_id, version, raw_json FROM ips",
	    true, p->ips, false, "ips")) != 0 || report->bad_seq != 0 ||
	    (rc = digest_rows(&t, "SELECT snapshot_id, raw_json, user_id,"
	    " as_of_ms FROM holdings",
	    false, p->holdings, true, "holdings")) != 0 ||
	    report->bad_seq != 0 || (rc = digest_rows(&t, "SELECT policy_id,"
	    " version, raw_json FROM approval_policy", true,
	    p->approval_policies, false, "approval_policy")) != 0 ||
	    report->bad_seq != 0)
		return rc;
	return document_rows(&t);
}

/*
 * A roster's or standards index's import, known by its digest alone: taken
 * from the members the caller's one-pass scan found, without parsing the
 * record, because a log of many such imports would otherwise spend most of
 * audit verify in the parser.  1 when it was one (and applied), 0 when the
 * record must be parsed, -1 out of memory.
 */
static int
document_import(struct audited_policy *p, long long seq,
    const struct json_wanted *type, const struct json_wanted *sha256)
{
	char digest[65];
	cJSON **slot;

	if (type->value == NULL || sha256->value == NULL)
		return 0;
	if (type->length == strlen("roster") &&
	    memcmp(type->value, "roster", type->length) == 0)
		slot = &p->roster;
	else if (type->length == strlen("standards_index") &&
	    memcmp(type->value, "standards_index", type->length) == 0)
		slot = &p->standards;
	else
		return 0;
	/* A digest is 64 hex digits: anything else is parsed as it stands. */
	if (sha256->length != 64 ||
	    strspn(sha256->value, "0123456789abcdef") < 64)
		return 0;
	memcpy(digest, sha256->value, 64);
	digest[64] = '\0';
	cJSON_Delete(*slot);
	return (*slot = digest_at(digest, seq)) != NULL ? 1 : -1;
}

int
audited_policy_record(struct audited_policy *p, long long seq, bool import,
    bool decided, const struct json_wanted *type,
    const struct json_wanted *sha256, const char *record, size_t length,
    cJSON **json, char *problem, size_t size)
{
	struct error ignored;

	if (!import && !decided)
		return 0;
	if (import && *json == NULL)
		switch (document_import(p, seq, type, sha256)) {
		case 1:
			return 0;
		case -1:
			return -1;
		}
	if (*json == NULL)
		*json = json_parse_strict(record, length, NULL, &ignored);
	if (*json == NULL)
		return 0;
	if (import)
		return audited_policy_apply(p, seq, *json);
	return audited_policy_vouches(p, *json, problem, size) ? 0 : 1;
}
