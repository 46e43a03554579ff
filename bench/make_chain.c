/*
 * Appends N records to a countersign database's audit log, chained as
 * SPEC 6 says, for the audit verify benchmark, and writes the exact bytes
 * each hash covers (prev_hash "\n" record_json) to a file for sha256sum.
 *
 *   make_chain DB N BYTES_FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <sqlite3.h>

static void
hex_sha256(const char *prev, const char *record, char out[65])
{
	unsigned char digest[32];
	unsigned int n;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int i;

	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	EVP_DigestUpdate(ctx, prev, strlen(prev));
	EVP_DigestUpdate(ctx, "\n", 1);
	EVP_DigestUpdate(ctx, record, strlen(record));
	EVP_DigestFinal_ex(ctx, digest, &n);
	EVP_MD_CTX_free(ctx);
	for (i = 0; i < 32; i++)
		sprintf(out + 2 * i, "%02x", digest[i]);
}

/* The SHA-256 of TEXT, in hex. */
static void
sha256_text(const char *text, char out[65])
{
	unsigned char digest[32];
	unsigned int n;
	int i;

	EVP_Digest(text, strlen(text), digest, &n, EVP_sha256(), NULL);
	for (i = 0; i < 32; i++)
		sprintf(out + 2 * i, "%02x", digest[i]);
}

int
main(int argc, char **argv)
{
	char prev[65], hash[65], record[512], object[128], object_sha[65];
	sqlite3 *db;
	sqlite3_stmt *stmt, *head;
	long long seq = 0, n, i;
	FILE *bytes;

	if (argc != 4 || sqlite3_open(argv[1], &db) != SQLITE_OK ||
	    (bytes = fopen(argv[3], "w")) == NULL)
		return 2;
	n = atoll(argv[2]);
	memset(prev, '0', 64);
	prev[64] = '\0';
	sqlite3_prepare_v2(db, "SELECT seq, hash FROM audit_log ORDER BY seq"
	    " DESC LIMIT 1", -1, &head, NULL);
	if (sqlite3_step(head) == SQLITE_ROW) {
		seq = sqlite3_column_int64(head, 0);
		snprintf(prev, sizeof prev, "%s", sqlite3_column_text(head, 1));
	}
	sqlite3_finalize(head);
	sqlite3_exec(db, "PRAGMA synchronous = OFF; BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO audit_log VALUES (?1, ?2, ?3, ?4)",
	    -1, &stmt, NULL);
	for (i = 0; i < n; i++) {
		/* A real import's record: the object and the SHA-256 of its
		   text, which audit verify holds the stored row to. */
		snprintf(object, sizeof object, "{\"type\":\"roster\","
		    "\"authors\":[\"author-%lld\",\"action-drafting\"]}", i);
		sha256_text(object, object_sha);
		snprintf(record, sizeof record, "{\"event\":\"policy_import\","
		    "\"type\":\"roster\",\"identity\":null,\"object\":%s,"
		    "\"object_sha256\":\"%s\",\"imported_at\":"
		    "\"2026-11-29T08:15:00.000Z\",\"operator\":{\"login\":"
		    "\"bench\",\"uid\":1000},\"program\":{\"name\":\"countersign\","
		    "\"version\":\"0.1.0\"}}", object, object_sha);
		hex_sha256(prev, record, hash);
		fprintf(bytes, "%s\n%s", prev, record);
		sqlite3_bind_int64(stmt, 1, ++seq);
		sqlite3_bind_text(stmt, 2, record, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, prev, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4, hash, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			fprintf(stderr, "make_chain: %s\n", sqlite3_errmsg(db));
			return 1;
		}
		sqlite3_reset(stmt);
		memcpy(prev, hash, sizeof prev);
	}
	sqlite3_finalize(stmt);
	/* The roster row the last import left, as import writes it. */
	if (n > 0) {
		sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO policy_document"
		    " VALUES ('roster', ?1, 0)", -1, &stmt, NULL);
		sqlite3_bind_text(stmt, 1, object, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			fprintf(stderr, "make_chain: %s\n", sqlite3_errmsg(db));
			return 1;
		}
		sqlite3_finalize(stmt);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
	fclose(bytes);
	return 0;
}
