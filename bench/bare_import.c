/*
 * The floor for import and check: read JSON lines, parse each with cJSON
 * (and free it), and, for import, insert each line's text into a bare
 * SQLite table in one transaction with countersign's pragmas.  No
 * validation, no rules, no identity checks.
 *
 *   bare_import parse FILE...          (the floor of check)
 *   bare_import insert DB FILE...      (the floor of import)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <sqlite3.h>

int
main(int argc, char **argv)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *stmt = NULL;
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	long count = 0;
	int insert, first, i;
	FILE *in;

	if (argc < 3)
		return 2;
	insert = strcmp(argv[1], "insert") == 0;
	first = insert ? 3 : 2;
	if (insert) {
		if (sqlite3_open(argv[2], &db) != SQLITE_OK ||
		    sqlite3_exec(db, "PRAGMA journal_mode = WAL;"
		    "PRAGMA synchronous = FULL;"
		    "CREATE TABLE t (id TEXT PRIMARY KEY, raw TEXT NOT NULL);"
		    "BEGIN IMMEDIATE;", NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?1, ?2)", -1,
		    &stmt, NULL) != SQLITE_OK) {
			fprintf(stderr, "bare_import: %s\n", sqlite3_errmsg(db));
			return 1;
		}
	}
	for (i = first; i < argc; i++) {
		if ((in = fopen(argv[i], "r")) == NULL)
			return 1;
		while ((len = getline(&line, &size, in)) > 0) {
			cJSON *json = cJSON_ParseWithLength(line, (size_t)len);
			const cJSON *action, *id;

			if (json == NULL)
				continue;
			count++;
			if (insert) {
				action = cJSON_GetObjectItemCaseSensitive(json,
				    "proposed_action");
				id = cJSON_GetObjectItemCaseSensitive(action,
				    "action_id");
				sqlite3_bind_text(stmt, 1, cJSON_IsString(id) ?
				    id->valuestring : "", -1, SQLITE_TRANSIENT);
				sqlite3_bind_text(stmt, 2, line, (int)len,
				    SQLITE_STATIC);
				sqlite3_step(stmt);
				sqlite3_reset(stmt);
			}
			cJSON_Delete(json);
		}
		fclose(in);
	}
	if (insert) {
		sqlite3_finalize(stmt);
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		sqlite3_close(db);
	}
	free(line);
	printf("%ld\n", count);
	return 0;
}
