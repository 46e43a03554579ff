/* The table of rule packs: one line per packet kind. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rule_pack.h"

extern const struct rule_pack rules_trade;
extern const struct rule_pack rules_legal_draft;
extern const struct rule_pack rules_change;

static const struct rule_pack *const packs[] = {
	&rules_trade,
	&rules_legal_draft,
	&rules_change,
};

const struct rule_pack *
rule_pack_find(const char *kind)
{
	size_t i;

	if (kind == NULL)
		return NULL;
	for (i = 0; i < sizeof packs / sizeof packs[0]; i++) {
		if (strcmp(packs[i]->kind, kind) == 0)
			return packs[i];
	}
	return NULL;
}

void
advisory_free(struct advisory *advisory)
{
	cJSON_Delete(advisory->owned);
	advisory->owned = NULL;
	advisory->verdict = NULL;
	free(advisory->rules);
	advisory->rules = NULL;
	advisory->rule_count = 0;
}
