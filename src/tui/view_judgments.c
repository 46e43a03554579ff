/*
 * The product owner's judgments of a change, on its detail (SPEC 2.3
 * v3): each NEEDS-PO criterion with the judgment recorded, who made it
 * and when, or that it awaits one.  The officer who approves later sees
 * what rule 7 counted, and the requester sees what is left to judge.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tui.h"

static const struct judgment_row *
judgment_of(const struct judgment_row *rows, size_t count, const char *id)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (strcmp(rows[i].ac_id, id) == 0)
			return &rows[i];
	}
	return NULL;
}

bool
judgments_section(struct tui *t, struct detail *d, const char *action_id,
    const struct recheck *r)
{
	const struct rule_pack *pack = r->outcome.pack;
	struct check_input all = r->data.input;
	const struct judgment_row *row;
	struct judgment_row *rows = NULL;
	const cJSON *criterion;
	cJSON *asked;
	size_t count = 0;
	struct error err;
	bool awaiting = false;
	char *id, *login;

	if (pack->judgment_criteria == NULL)
		return false;
	/* Every NEEDS-PO criterion, judged or not. */
	all.po_judgments = NULL;
	asked = xcheck(pack->judgment_criteria(&all,
	    &r->outcome.advisory));
	if (cJSON_GetArraySize(asked) == 0) {
		cJSON_Delete(asked);
		return false;
	}
	if (store_judgments_of(t->store, action_id, &rows, &count, &err) !=
	    0) {
		tui_notice(t, "%s", err.message);
		cJSON_Delete(asked);
		return false;
	}
	detail_add(d, DETAIL_PLAIN, "%s", "");
	/* L10N: a section label of the detail (lined up at 13 columns
	   with HIGH STAKES): the criteria the product owner judges */
	detail_add(d, DETAIL_HEADING, _("PO JUDGMENT  criteria the product "
	    "owner judges (a judgment approves nothing)"));
	cJSON_ArrayForEach(criterion, asked) {
		id = xsanitize(cJSON_GetStringValue(cJSON_GetObjectItem(
		    criterion, "id")));
		row = judgment_of(rows, count, cJSON_GetStringValue(
		    cJSON_GetObjectItem(criterion, "id")));
		if (row != NULL) {
			login = xsanitize(row->operator_login);
			/* L10N: a criterion judged: its id, "met" or
			   "unmet" (translated on their own), who judged it
			   and when */
			detail_add(d, DETAIL_PLAIN, _("  %s %s, judged by %s "
			    "at %s"), id, strcmp(row->judgment, "met") == 0 ?
			    _("met") : _("unmet"), login, row->judged_at);
			free(login);
		} else {
			awaiting = true;
			/* L10N: a criterion not judged yet; J is the key
			   that judges: keep it */
			detail_add(d, DETAIL_ALERT, _("  %s awaits the product "
			    "owner's judgment (J judges it)"), id);
		}
		free(id);
	}
	store_judgments_free(rows, count);
	cJSON_Delete(asked);
	return awaiting;
}
