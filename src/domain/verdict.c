/* Building the local verdict and rendering it as SPEC section 3 JSON. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "text.h"
#include "uuid_random.h"
#include "verdict.h"

static const char *(*translator)(const char *);

void
verdict_translate_with(const char *(*translate)(const char *))
{
	translator = translate;
}

/*
 * fmt formatted with ap through the translator, when one is set and has
 * a translation: NULL otherwise (and when out of memory: the English
 * detail is then shown, never nothing).
 */
static char *
translated(const char *fmt, va_list ap)
{
	const char *local;

	if (translator == NULL || fmt == NULL ||
	    (local = translator(fmt)) == NULL || local == fmt ||
	    strcmp(local, fmt) == 0)
		return NULL;
	return text_vprintf(local, ap);
}

int
verdict_init(struct verdict *v, const char *action_id, long long now_ms)
{
	memset(v, 0, sizeof *v);
	uuid_random(v->verdict_id);
	timestamp_format(now_ms, v->reviewed_at);
	v->action_id = text_copy(action_id);
	return v->action_id == NULL ? -1 : 0;
}

void
verdict_free(struct verdict *v)
{
	size_t i;

	for (i = 0; i < v->rule_count; i++) {
		free(v->rules[i].detail);
		free(v->rules[i].shown);
	}
	free(v->rules);
	for (i = 0; i < v->reason_count; i++) {
		free(v->high_stakes_reasons[i].detail);
		free(v->high_stakes_reasons[i].shown);
	}
	free(v->high_stakes_reasons);
	for (i = 0; i < v->note_count; i++) {
		free(v->notes[i].detail);
		free(v->notes[i].shown);
	}
	free(v->notes);
	free(v->action_id);
	cJSON_Delete(v->ips_checked);
	memset(v, 0, sizeof *v);
}

/*
 * array with room for one more element of size bytes, doubling; NULL
 * when out of memory (array is left as it was).  A check appends five
 * rules to every verdict, and a realloc() for each cost more than the
 * rule's own test.
 */
static void *
grow(void *array, size_t count, size_t *capacity, size_t size)
{
	size_t wanted = *capacity > 0 ? *capacity * 2 : 8;
	void *grown;

	if (count < *capacity)
		return array;
	if ((grown = realloc(array, wanted * size)) == NULL)
		return NULL;
	*capacity = wanted;
	return grown;
}

int
verdict_add_rule(struct verdict *v, const char *rule_id,
    const char *description, bool passed, const char *detail_fmt, ...)
{
	struct rule_result *rules, *r;
	va_list ap;

	if ((rules = grow(v->rules, v->rule_count, &v->rule_capacity,
	    sizeof *rules)) == NULL)
		return -1;
	v->rules = rules;
	r = &rules[v->rule_count];
	r->rule_id = rule_id;
	r->description = description;
	r->passed = passed;
	r->detail = r->shown = NULL;
	if (detail_fmt != NULL) {
		va_start(ap, detail_fmt);
		r->detail = text_vprintf(detail_fmt, ap);
		va_end(ap);
		if (r->detail == NULL)
			return -1;
		va_start(ap, detail_fmt);
		r->shown = translated(detail_fmt, ap);
		va_end(ap);
	}
	/* SPEC 2: a failing rule always says why. */
	if (!passed && (r->detail == NULL || r->detail[0] == '\0')) {
		free(r->detail);
		free(r->shown);
		r->shown = NULL;
		r->detail = text_copy("failed");
		if (r->detail == NULL)
			return -1;
	}
	v->rule_count++;
	return 0;
}

int
verdict_add_reason(struct verdict *v, const char *code, const char *fmt, ...)
{
	struct stakes_reason *reasons;
	char *detail;
	va_list ap;

	if ((reasons = grow(v->high_stakes_reasons, v->reason_count,
	    &v->reason_capacity, sizeof *reasons)) == NULL)
		return -1;
	v->high_stakes_reasons = reasons;
	va_start(ap, fmt);
	detail = text_vprintf(fmt, ap);
	va_end(ap);
	if (detail == NULL)
		return -1;
	reasons[v->reason_count].code = code;
	va_start(ap, fmt);
	reasons[v->reason_count].shown = translated(fmt, ap);
	va_end(ap);
	reasons[v->reason_count++].detail = detail;
	return 0;
}

int
verdict_add_note(struct verdict *v, const char *what, const char *fmt, ...)
{
	struct verdict_note *notes;
	char *detail;
	va_list ap;

	if ((notes = grow(v->notes, v->note_count, &v->note_capacity,
	    sizeof *notes)) == NULL)
		return -1;
	v->notes = notes;
	va_start(ap, fmt);
	detail = text_vprintf(fmt, ap);
	va_end(ap);
	if (detail == NULL)
		return -1;
	notes[v->note_count].what = what;
	va_start(ap, fmt);
	notes[v->note_count].shown = translated(fmt, ap);
	va_end(ap);
	notes[v->note_count++].detail = detail;
	return 0;
}

const struct stakes_reason *
verdict_reason(const struct verdict *v, const char *code)
{
	size_t i;

	for (i = 0; i < v->reason_count; i++)
		if (strcmp(v->high_stakes_reasons[i].code, code) == 0)
			return &v->high_stakes_reasons[i];
	return NULL;
}

void
verdict_finish(struct verdict *v)
{
	size_t i;

	v->overall_pass = true;
	for (i = 0; i < v->rule_count; i++)
		v->overall_pass = v->overall_pass && v->rules[i].passed;
}

const struct rule_result *
verdict_rule(const struct verdict *v, const char *rule_id)
{
	size_t i;

	for (i = 0; i < v->rule_count; i++) {
		if (strcmp(v->rules[i].rule_id, rule_id) == 0)
			return &v->rules[i];
	}
	return NULL;
}

bool
verdict_fails_only(const struct verdict *v, const char *rule_id)
{
	size_t i;
	bool seen = false;

	for (i = 0; i < v->rule_count; i++) {
		if (v->rules[i].passed)
			continue;
		if (strcmp(v->rules[i].rule_id, rule_id) != 0)
			return false;
		seen = true;
	}
	return seen;
}

char *
verdict_failing_rules(const struct verdict *v)
{
	size_t i, size = 1;
	char *list;

	for (i = 0; i < v->rule_count; i++)
		size += strlen(v->rules[i].rule_id) + 2;
	if ((list = malloc(size)) == NULL)
		return NULL;
	list[0] = '\0';
	for (i = 0; i < v->rule_count; i++) {
		if (v->rules[i].passed)
			continue;
		if (list[0] != '\0')
			strcat(list, ", ");
		strcat(list, v->rules[i].rule_id);
	}
	return list;
}

int
verdict_add_failed_rules(struct verdict *v)
{
	char *failing;
	int rc;

	if (v->overall_pass)
		return 0;
	if ((failing = verdict_failing_rules(v)) == NULL)
		return -1;
	rc = verdict_add_reason(v, "failed_rules", "local rules fail: %s",
	    failing);
	free(failing);
	return rc;
}

void
verdict_write(struct json_writer *w, const struct verdict *v)
{
	size_t i;

	json_writer_object(w);
	json_writer_key(w, "verdict_id");
	json_writer_string(w, v->verdict_id);
	json_writer_key(w, "action_id");
	json_writer_string(w, v->action_id);
	json_writer_key(w, "ips_version_checked_against");
	json_writer_tree(w, v->ips_checked);
	json_writer_key(w, "rule_results");
	json_writer_array(w);
	for (i = 0; i < v->rule_count; i++) {
		json_writer_object(w);
		json_writer_key(w, "rule_id");
		json_writer_string(w, v->rules[i].rule_id);
		json_writer_key(w, "description");
		json_writer_string(w, v->rules[i].description);
		json_writer_key(w, "passed");
		json_writer_bool(w, v->rules[i].passed);
		json_writer_key(w, "detail");
		json_writer_string(w, v->rules[i].detail);
		json_writer_end(w, '}');
	}
	json_writer_end(w, ']');
	json_writer_key(w, "overall_pass");
	json_writer_bool(w, v->overall_pass);
	json_writer_key(w, "requires_human_approval");
	json_writer_bool(w, v->requires_human_approval);
	json_writer_key(w, "reviewer_skill_version");
	json_writer_object(w);
	json_writer_key(w, "skill_name");
	json_writer_string(w, "countersign");
	json_writer_key(w, "skill_version");
	json_writer_string(w, PACKAGE_VERSION);
	json_writer_end(w, '}');
	json_writer_key(w, "reviewed_at");
	json_writer_string(w, v->reviewed_at);
	json_writer_end(w, '}');
}

void
verdict_write_reasons(struct json_writer *w, const struct verdict *v)
{
	size_t i;

	json_writer_array(w);
	for (i = 0; i < v->reason_count; i++) {
		json_writer_object(w);
		json_writer_key(w, "code");
		json_writer_string(w, v->high_stakes_reasons[i].code);
		json_writer_key(w, "detail");
		json_writer_string(w, v->high_stakes_reasons[i].detail);
		json_writer_end(w, '}');
	}
	json_writer_end(w, ']');
}

void
verdict_write_notes(struct json_writer *w, const struct verdict *v)
{
	size_t i;

	json_writer_array(w);
	for (i = 0; i < v->note_count; i++) {
		json_writer_object(w);
		json_writer_key(w, "what");
		json_writer_string(w, v->notes[i].what);
		json_writer_key(w, "detail");
		json_writer_string(w, v->notes[i].detail);
		json_writer_end(w, '}');
	}
	json_writer_end(w, ']');
}

cJSON *
verdict_to_json(const struct verdict *v)
{
	struct json_writer w;
	cJSON *json;
	char *text;

	/* Parsed back from the one writer, so the two forms cannot differ. */
	json_writer_init(&w);
	verdict_write(&w, v);
	if ((text = json_writer_finish(&w)) == NULL)
		return NULL;
	json = cJSON_Parse(text);
	free(text);
	return json;
}
