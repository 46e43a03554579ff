/*
 * The floor for batch mode: insert the same audit records into a bare
 * SQLite table, with the same pragmas countersign uses, either one
 * transaction per row (durable) or all in one (atomic).  No parsing, no
 * rules, no hashing: what SQLite alone costs.
 *
 *   bare_insert DB RECORDS_FILE each|one
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

static void
must(int rc, sqlite3 *db, const char *what)
{
	if (rc != SQLITE_OK && rc != SQLITE_DONE) {
		fprintf(stderr, "bare_insert: %s: %s\n", what, sqlite3_errmsg(db));
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	FILE *in;
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	long long seq = 0;
	int each;

	if (argc != 4 || (in = fopen(argv[2], "r")) == NULL) {
		fprintf(stderr, "usage: bare_insert DB RECORDS_FILE each|one\n");
		return 2;
	}
	each = strcmp(argv[3], "each") == 0;
	must(sqlite3_open(argv[1], &db), db, "open");
	must(sqlite3_exec(db, "PRAGMA journal_mode = WAL;"
	    "PRAGMA synchronous = FULL;"
	    "CREATE TABLE IF NOT EXISTS audit_log (seq INTEGER PRIMARY KEY,"
	    " record_json TEXT NOT NULL, prev_hash TEXT NOT NULL,"
	    " hash TEXT NOT NULL);", NULL, NULL, NULL), db, "schema");
	must(sqlite3_prepare_v2(db, "INSERT INTO audit_log VALUES (?1, ?2,"
	    " '0000000000000000000000000000000000000000000000000000000000000000',"
	    " '0000000000000000000000000000000000000000000000000000000000000000')",
	    -1, &stmt, NULL), db, "prepare");
	if (!each)
		must(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), db,
		    "begin");
	while ((len = getline(&line, &size, in)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (each)
			must(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL,
			    NULL), db, "begin");
		sqlite3_bind_int64(stmt, 1, ++seq);
		sqlite3_bind_text(stmt, 2, line, (int)len, SQLITE_STATIC);
		must(sqlite3_step(stmt), db, "insert");
		sqlite3_reset(stmt);
		if (each)
			must(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db,
			    "commit");
	}
	if (!each)
		must(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit");
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	free(line);
	fclose(in);
	printf("%lld\n", seq);
	return 0;
}
