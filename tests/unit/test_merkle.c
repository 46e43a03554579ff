/*
 * Unit tests for src/domain/merkle.c (SPEC 13): the RFC 6962 vectors of
 * tests/data/merkle (every valid case verifies, every mutated one fails),
 * and round trips: every proof generated for every leaf of every tree of
 * 1 to 300 leaves, and between every pair of those sizes, verifies, and
 * fails with one bit flipped.
 */
#include "config.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "merkle.h"
#include "note.h"

#define MAX_LEAVES 300

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (f == NULL)
		fail_msg("%s: cannot open", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* A base64 hash of the vectors; false for any other length or spelling. */
static bool
vector_hash(const cJSON *item, merkle_hash out)
{
	unsigned char *raw;
	size_t len;
	bool ok;

	if (!cJSON_IsString(item) || base64_decode(item->valuestring,
	    strlen(item->valuestring), &raw, &len) != 0)
		return false;
	ok = len == MERKLE_HASH_SIZE;
	if (ok)
		memcpy(out, raw, len);
	free(raw);
	return ok;
}

/*
 * A consistency vector's root: some "additional" vectors give roots that
 * are not 32 bytes ("don't care"), only to see whether two equal ones are
 * compared; those stand in as their SHA-256, which keeps equal ones equal.
 * (An inclusion proof's leaf and root must be 32 bytes: an empty one is a
 * mutated case.)
 */
static bool
vector_root(const cJSON *item, merkle_hash out)
{
	unsigned char *raw;
	size_t len;

	if (vector_hash(item, out))
		return true;
	if (!cJSON_IsString(item) || base64_decode(item->valuestring,
	    strlen(item->valuestring), &raw, &len) != 0)
		return false;
	assert_int_equal(merkle_leaf_hash(raw, len, out), 0);
	free(raw);
	return true;
}

static bool
vector_proof(const cJSON *item, merkle_hash *proof, size_t *count)
{
	const cJSON *h;

	*count = 0;
	if (cJSON_IsNull(item))
		return true;
	cJSON_ArrayForEach(h, item) {
		if (*count == MERKLE_MAX_PROOF ||
		    !vector_hash(h, proof[(*count)++]))
			return false;
	}
	return true;
}

/*
 * A size read from the text itself: cJSON keeps numbers as doubles, and
 * the vectors hold 2^64 - 1, which a double cannot.
 */
static uint64_t
vector_size(const char *text, const char *key)
{
	char pattern[64];
	const char *at;

	snprintf(pattern, sizeof pattern, "\"%s\":", key);
	if ((at = strstr(text, pattern)) == NULL)
		fail_msg("vector without %s", key);
	return strtoull(at + strlen(pattern), NULL, 10);
}

/* What the project's verifier says of one vector file. */
static bool
vector_verifies(const cJSON *o, const char *text, bool inclusion)
{
	merkle_hash proof[MERKLE_MAX_PROOF], a, b;
	size_t count;

	if (!vector_proof(cJSON_GetObjectItemCaseSensitive(o, "proof"), proof,
	    &count))
		return false;
	if (inclusion)
		return vector_hash(cJSON_GetObjectItemCaseSensitive(o,
		    "leafHash"), a) && vector_hash(
		    cJSON_GetObjectItemCaseSensitive(o, "root"), b) &&
		    merkle_verify_inclusion(vector_size(text, "leafIdx"),
		    vector_size(text, "treeSize"), a, proof, count, b);
	return vector_root(cJSON_GetObjectItemCaseSensitive(o, "root1"), a) &&
	    vector_root(cJSON_GetObjectItemCaseSensitive(o, "root2"), b) &&
	    merkle_verify_consistency(vector_size(text, "size1"),
	    vector_size(text, "size2"), a, b, proof, count);
}

/* Every .json file under dir, however deep ("additional" nests one more level). */
static void
walk_vectors(const char *dir, bool inclusion, int *valid, int *invalid)
{
	char path[1536];
	struct dirent *e;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		fail_msg("%s: cannot open the vectors", dir);
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		cJSON *o;
		char *text;
		bool want_err, got;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0) {
			walk_vectors(path, inclusion, valid, invalid);
			continue;
		}
		text = slurp(path);
		if ((o = cJSON_Parse(text)) == NULL)
			fail_msg("%s: not JSON", path);
		want_err = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o,
		    "wantErr"));
		got = vector_verifies(o, text, inclusion);
		if (got == want_err)
			fail_msg("%s: %s", path, got ? "verified, but it is a "
			    "mutated case" : "does not verify");
		if (want_err)
			(*invalid)++;
		else
			(*valid)++;
		cJSON_Delete(o);
		free(text);
	}
	closedir(d);
}

static void
run_vectors(const char *kind, int *valid, int *invalid)
{
	const char *top = getenv("TOP_SRCDIR");
	char dir[1024];

	snprintf(dir, sizeof dir, "%s/tests/data/merkle/%s",
	    top != NULL ? top : ".", kind);
	walk_vectors(dir, strcmp(kind, "inclusion") == 0, valid, invalid);
}

static void
test_vectors(void **state)
{
	int valid = 0, invalid = 0;

	(void)state;
	run_vectors("inclusion", &valid, &invalid);
	run_vectors("consistency", &valid, &invalid);
	/* Every JSON file of tests/data/merkle (196 of them). */
	print_message("%d valid, %d mutated vectors\n", valid, invalid);
	assert_int_equal(valid + invalid, 196);
	assert_true(valid > 10);
	assert_true(invalid > 100);
}

/* Every complete subtree of the first MAX_LEAVES leaves, by level. */
static merkle_hash levels[10][MAX_LEAVES];

static int
array_node(void *ctx, unsigned level, uint64_t index, merkle_hash out)
{
	uint64_t *size = ctx;

	if (level >= 10 || ((index + 1) << level) > *size)
		fail_msg("node %u/%llu outside a tree of %llu", level,
		    (unsigned long long)index, (unsigned long long)*size);
	memcpy(out, levels[level][index], MERKLE_HASH_SIZE);
	return 0;
}

/* MTH of RFC 6962 2.1, straight from the definition. */
static void
reference_root(uint64_t start, uint64_t n, merkle_hash out)
{
	merkle_hash l, r;
	uint64_t k = 1;

	if (n == 1) {
		memcpy(out, levels[0][start], MERKLE_HASH_SIZE);
		return;
	}
	while (k << 1 < n)
		k <<= 1;
	reference_root(start, k, l);
	reference_root(start + k, n - k, r);
	assert_int_equal(merkle_node_hash(l, r, out), 0);
}

static void
build_levels(void)
{
	unsigned level;
	uint64_t i;
	char leaf[32];

	for (i = 0; i < MAX_LEAVES; i++) {
		snprintf(leaf, sizeof leaf, "record %llu", (unsigned long long)i);
		assert_int_equal(merkle_leaf_hash(leaf, strlen(leaf),
		    levels[0][i]), 0);
		/* The store extends the tree the same way, leaf by leaf. */
		assert_int_equal(merkle_levels_completed(i),
		    1 + (unsigned)__builtin_ctzll(~i));
	}
	for (level = 1; level < 10; level++)
		for (i = 0; (i + 1) << level <= MAX_LEAVES; i++)
			assert_int_equal(merkle_node_hash(
			    levels[level - 1][2 * i],
			    levels[level - 1][2 * i + 1], levels[level][i]), 0);
}

static void
test_inclusion_round_trip(void **state)
{
	merkle_hash proof[MERKLE_MAX_PROOF], root, want;
	uint64_t size, i;
	size_t count;

	(void)state;
	build_levels();
	for (size = 1; size <= MAX_LEAVES; size++) {
		assert_int_equal(merkle_root(array_node, &size, size, root), 0);
		reference_root(0, size, want);
		assert_memory_equal(root, want, MERKLE_HASH_SIZE);
		for (i = 0; i < size; i++) {
			assert_int_equal(merkle_inclusion_proof(array_node,
			    &size, i, size, proof, &count), 0);
			if (!merkle_verify_inclusion(i, size, levels[0][i],
			    proof, count, root))
				fail_msg("leaf %llu of %llu does not verify",
				    (unsigned long long)i,
				    (unsigned long long)size);
			assert_false(merkle_verify_inclusion(i, size,
			    levels[0][(i + 1) % MAX_LEAVES], proof, count,
			    root));
			if (count > 0) {
				proof[count / 2][i % 32] ^= 1;
				assert_false(merkle_verify_inclusion(i, size,
				    levels[0][i], proof, count, root));
			}
			if (size > 1)
				assert_false(merkle_verify_inclusion(i,
				    size + 1, levels[0][i], proof, count,
				    root));
		}
	}
}

static void
test_consistency_round_trip(void **state)
{
	merkle_hash proof[MERKLE_MAX_PROOF], root1, root2;
	uint64_t size1, size2;
	size_t count;

	(void)state;
	build_levels();
	for (size2 = 1; size2 <= MAX_LEAVES; size2++) {
		assert_int_equal(merkle_root(array_node, &size2, size2, root2),
		    0);
		for (size1 = 1; size1 <= size2; size1++) {
			assert_int_equal(merkle_root(array_node, &size1, size1,
			    root1), 0);
			assert_int_equal(merkle_consistency_proof(array_node,
			    &size2, size1, size2, proof, &count), 0);
			if (!merkle_verify_consistency(size1, size2, root1,
			    root2, proof, count))
				fail_msg("%llu to %llu does not verify",
				    (unsigned long long)size1,
				    (unsigned long long)size2);
			if (size1 < size2) {
				assert_false(merkle_verify_consistency(size1,
				    size2, root2, root1, proof, count));
				proof[0][size1 % 32] ^= 0x80;
				assert_false(merkle_verify_consistency(size1,
				    size2, root1, root2, proof, count));
			}
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_inclusion_round_trip),
		cmocka_unit_test(test_consistency_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
