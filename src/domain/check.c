/*
 * One re-check: run the kind's rule pack, decide whether a human must
 * approve, and list every divergence from the advisory verdict (SPEC 3, 4).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exit_codes.h"
#include "json_fields.h"
#include "json_writer.h"
#include "lockout.h"
#include "i18n.h"
#include "sha256.h"
#include "text.h"

/*
 * note is one of the program's own sentences, marked N_(): recorded in
 * English, translated only where a screen shows it.
 */
static int
add_entry(cJSON *list, const char *what, cJSON *advisory, cJSON *local,
    const char *note)
{
	cJSON *entry = cJSON_CreateObject();

	if (entry == NULL || advisory == NULL || local == NULL) {
		cJSON_Delete(entry);
		cJSON_Delete(advisory);
		cJSON_Delete(local);
		return -1;
	}
	cJSON_AddStringToObject(entry, "what", what);
	cJSON_AddItemToObject(entry, "advisory", advisory);
	cJSON_AddItemToObject(entry, "local", local);
	cJSON_AddStringToObject(entry, "note", note);
	cJSON_AddItemToArray(list, entry);
	return 0;
}

/* The first advisory result for rule_id, or NULL. */
static const struct advisory_rule *
advisory_rule(const struct advisory *advisory, const char *rule_id)
{
	size_t i;

	for (i = 0; i < advisory->rule_count; i++) {
		if (strcmp(advisory->rules[i].rule_id, rule_id) == 0)
			return &advisory->rules[i];
	}
	return NULL;
}

/*
 * What the advisory says of rule_id: passed only if every entry for it
 * says so.  An advisory that lists a rule twice, passed and failed, must
 * not have its failing entry hidden behind the first.
 */
static bool
advisory_passes(const struct advisory *advisory,
    const struct advisory_rule *first)
{
	size_t i;

	/* Entries before the first for this id are for other ids. */
	for (i = (size_t)(first - advisory->rules); i < advisory->rule_count;
	    i++) {
		if (!advisory->rules[i].passed &&
		    strcmp(advisory->rules[i].rule_id, first->rule_id) == 0)
			return false;
	}
	return true;
}

static bool
same_ips_version(const cJSON *a, const cJSON *b)
{
	const cJSON *id_a, *id_b, *version_a, *version_b;

	if (a == NULL || cJSON_IsNull(a) || b == NULL || cJSON_IsNull(b))
		return (a == NULL || cJSON_IsNull(a)) &&
		    (b == NULL || cJSON_IsNull(b));
	id_a = json_member(a, "ips_id");
	id_b = json_member(b, "ips_id");
	version_a = json_member(a, "version");
	version_b = json_member(b, "version");
	return cJSON_IsString(id_a) && cJSON_IsString(id_b) &&
	    strcmp(id_a->valuestring, id_b->valuestring) == 0 &&
	    cJSON_IsNumber(version_a) && cJSON_IsNumber(version_b) &&
	    version_a->valuedouble == version_b->valuedouble;
}

static cJSON *
copy_or_null(const cJSON *item)
{
	return item != NULL ? cJSON_Duplicate(item, 1) : cJSON_CreateNull();
}

static int
compare_rules(cJSON *list, const struct advisory *advisory,
    const struct verdict *v)
{
	const struct advisory_rule *result;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < v->rule_count; i++) {
		const struct rule_result *local = &v->rules[i];

		result = advisory_rule(advisory, local->rule_id);
		if (result == NULL) {
			rc = add_entry(list, local->rule_id, cJSON_CreateNull(),
			    cJSON_CreateBool(local->passed),
			    N_("the advisory verdict lacks this rule"));
			continue;
		}
		if (advisory_passes(advisory, result) != local->passed)
			rc = add_entry(list, local->rule_id,
			    cJSON_CreateBool(!local->passed),
			    cJSON_CreateBool(local->passed), local->passed ?
			    N_("the advisory fails a rule that passes locally") :
			    N_("the advisory passes a rule that fails locally"));
	}
	for (i = 0; rc == 0 && i < advisory->rule_count; i++) {
		result = &advisory->rules[i];
		if (verdict_rule(v, result->rule_id) != NULL ||
		    advisory_rule(advisory, result->rule_id) != result)
			continue;
		rc = add_entry(list, result->rule_id,
		    cJSON_CreateBool(advisory_passes(advisory, result)),
		    cJSON_CreateNull(),
		    N_("not a rule of the local rule pack"));
	}
	return rc;
}

/* Why requires_human_approval differs; item is the advisory's. */
static const char *
stakes_note(const cJSON *item, bool local)
{
	if (!cJSON_IsBool(item))
		return local ? N_("the local check requires human approval; "
		    "the advisory does not say whether it is required") :
		    N_("the advisory does not say whether human approval is "
		    "required");
	return local ? N_("the local check requires human approval") :
	    N_("the advisory requires human approval");
}

cJSON *
divergence_compute(const struct rule_pack *pack,
    const struct advisory *advisory, const struct verdict *v)
{
	cJSON *list = cJSON_CreateArray();
	const cJSON *item;
	int rc = 0;

	if (list == NULL)
		return NULL;
	switch (advisory->state) {
	case ADVISORY_MISSING:
		rc = add_entry(list, "advisory_verdict", cJSON_CreateNull(),
		    cJSON_CreateNull(), N_("no advisory verdict was received"));
		goto done;
	case ADVISORY_UNPARSEABLE:
		rc = add_entry(list, "advisory_verdict", cJSON_CreateNull(),
		    cJSON_CreateNull(),
		    N_("the advisory verdict could not be read"));
		goto done;
	case ADVISORY_OTHER_ACTION:
		rc = add_entry(list, "action_id",
		    cJSON_CreateString(advisory->other_action_id),
		    cJSON_CreateString(v->action_id),
		    N_("the advisory verdict is about another action"));
		goto done;
	case ADVISORY_AVAILABLE:
		break;
	}

	if (pack->compares_rules && (rc = compare_rules(list, advisory, v)) != 0)
		goto done;
	if (advisory->overall_pass != v->overall_pass &&
	    (rc = add_entry(list, "overall_pass",
	    cJSON_CreateBool(advisory->overall_pass),
	    cJSON_CreateBool(v->overall_pass),
	    v->overall_pass ? N_("the advisory fails what passes locally") :
	    N_("the advisory passes what fails locally"))) != 0)
		goto done;
	if (!pack->compares_rules)
		goto done;
	item = json_member(advisory->verdict, "requires_human_approval");
	if ((!cJSON_IsBool(item) ||
	    cJSON_IsTrue(item) != v->requires_human_approval) &&
	    (rc = add_entry(list, "requires_human_approval",
	    cJSON_IsBool(item) ? cJSON_CreateBool(cJSON_IsTrue(item)) :
	    cJSON_CreateNull(), cJSON_CreateBool(v->requires_human_approval),
	    stakes_note(item, v->requires_human_approval))) != 0)
		goto done;
	item = json_member(advisory->verdict, "ips_version_checked_against");
	if (!same_ips_version(item, v->ips_checked))
		rc = add_entry(list, "ips_version_checked_against",
		    copy_or_null(item), copy_or_null(v->ips_checked),
		    N_("checked against different IPS versions"));
done:
	if (rc != 0) {
		cJSON_Delete(list);
		return NULL;
	}
	return list;
}

int
check_run(const struct check_input *in, struct check_outcome *out,
    struct error *err)
{
	const cJSON *kind = json_member(in->packet, "kind");
	const cJSON *action_id = json_member(in->action, "action_id");
	union rule_pack_state state;

	memset(out, 0, sizeof *out);
	if (in->packet_sha256 != NULL)
		text_copy_bounded(out->packet_sha256,
		    sizeof out->packet_sha256, in->packet_sha256);
	out->pack = rule_pack_find(cJSON_IsString(kind) ? kind->valuestring :
	    NULL);
	if (out->pack == NULL || !cJSON_IsString(action_id))
		return error_set(err, EXIT_DATA, "kind",
		    "the stored packet has no known kind");
	if (verdict_init(&out->verdict, action_id->valuestring, in->now_ms) != 0)
		goto nomem;
	if (out->pack->read_advisory(json_member(in->packet,
	    "reviewer_verdict"), action_id->valuestring, &out->advisory) != 0)
		goto nomem;
	if (out->pack->evaluate(in, &out->advisory, &out->verdict, &state) != 0)
		goto nomem;
	/* Every kind: after its own rules, the lockout of SPEC 2.4. */
	if (lockout_rule(in, &out->verdict) != 0)
		goto nomem;
	verdict_finish(&out->verdict);
	if (out->pack->assess_stakes != NULL) {
		if (out->pack->assess_stakes(&out->verdict, &state) != 0)
			goto nomem;
	} else if (!out->verdict.overall_pass) {
		if (verdict_add_failed_rules(&out->verdict) != 0)
			goto nomem;
		out->verdict.requires_human_approval = true;
	}
	out->divergence = divergence_compute(out->pack, &out->advisory,
	    &out->verdict);
	if (out->divergence == NULL)
		goto nomem;
	return 0;
nomem:
	check_outcome_free(out);
	return error_set(err, EXIT_STORAGE, NULL,
	    "out of memory while checking an action");
}

void
check_outcome_free(struct check_outcome *out)
{
	verdict_free(&out->verdict);
	advisory_free(&out->advisory);
	cJSON_Delete(out->divergence);
	out->divergence = NULL;
}

char *
check_outcome_text(const struct check_outcome *out)
{
	struct json_writer w;

	json_writer_init(&w);
	json_writer_object(&w);
	json_writer_key(&w, "action_id");
	json_writer_string(&w, out->verdict.action_id);
	json_writer_key(&w, "kind");
	json_writer_string(&w, out->pack->kind);
	json_writer_key(&w, "packet_sha256");
	json_writer_string(&w, out->packet_sha256[0] != '\0' ?
	    out->packet_sha256 : NULL);
	json_writer_key(&w, "local_verdict");
	verdict_write(&w, &out->verdict);
	json_writer_key(&w, "divergence");
	json_writer_tree(&w, out->divergence);
	json_writer_key(&w, "high_stakes_reasons");
	verdict_write_reasons(&w, &out->verdict);
	json_writer_key(&w, "notes");
	verdict_write_notes(&w, &out->verdict);
	json_writer_end(&w, '}');
	return json_writer_finish(&w);
}

int
check_inputs_sha256(const struct check_input *in, char out[65])
{
	return check_inputs_sha256_format(in, JSON_FORMAT_CURRENT, out);
}

int
check_inputs_sha256_format(const struct check_input *in, int format,
    char out[65])
{
	const cJSON *trees[] = { in->packet, in->ips, in->holdings,
	    in->securities, in->standards, in->roster, in->po_judgments,
	    in->revision_chain };
	enum { TREES = sizeof trees / sizeof trees[0] };
	/* What the loader printed already (format 2), in the same order. */
	const char *given[TREES] = { NULL, in->ips_printed,
	    in->holdings_printed, NULL, in->standards_printed,
	    in->roster_printed, NULL, NULL };
	struct json_writer w;
	size_t i;
	int rc = -1;

	/* Each tree in the canonical form of that format, then a newline. */
	json_writer_init_canonical(&w, format);
	for (i = 0; i < TREES; i++) {
		if (given[i] != NULL && trees[i] != NULL &&
		    format == JSON_FORMAT_CURRENT)
			json_writer_raw(&w, given[i], strlen(given[i]));
		else
			json_writer_tree(&w, trees[i]);
		json_writer_raw(&w, "\n", 1);
	}
	if (!w.failed)
		rc = sha256_hex(w.text, w.length, out);
	json_writer_discard(&w);
	return rc;
}
