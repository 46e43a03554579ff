/*
 * RFC 6962 section 2.1 Merkle trees (SPEC 13).  Proofs are built from the
 * hashes of complete subtrees, which the store keeps, so that a proof of
 * any record of a large log reads about 2 log2(n) nodes and hashes little.
 */
#include "config.h"

#include <string.h>
#include <openssl/evp.h>

#include "merkle.h"

/* One digest context for the process, as sha256.c: countersign is single-threaded. */
static EVP_MD *merkle_md;
static EVP_MD_CTX *merkle_ctx;

static int
hash_parts(unsigned char prefix, const void *a, size_t alen, const void *b,
    size_t blen, merkle_hash out)
{
	unsigned int len = 0;
	int ok;

	if (merkle_md == NULL &&
	    (merkle_md = EVP_MD_fetch(NULL, "SHA256", NULL)) == NULL)
		return -1;
	if (merkle_ctx == NULL && (merkle_ctx = EVP_MD_CTX_new()) == NULL)
		return -1;
	ok = EVP_DigestInit_ex(merkle_ctx, merkle_md, NULL) &&
	    EVP_DigestUpdate(merkle_ctx, &prefix, 1) &&
	    (alen == 0 || EVP_DigestUpdate(merkle_ctx, a, alen)) &&
	    (blen == 0 || EVP_DigestUpdate(merkle_ctx, b, blen)) &&
	    EVP_DigestFinal_ex(merkle_ctx, out, &len);
	return ok && len == MERKLE_HASH_SIZE ? 0 : -1;
}

int
merkle_leaf_hash(const void *data, size_t len, merkle_hash out)
{
	return hash_parts(0x00, data, len, NULL, 0, out);
}

int
merkle_node_hash(const merkle_hash left, const merkle_hash right,
    merkle_hash out)
{
	return hash_parts(0x01, left, MERKLE_HASH_SIZE, right,
	    MERKLE_HASH_SIZE, out);
}

/* The largest power of two smaller than n (n > 1): RFC 6962's k. */
static uint64_t
split_point(uint64_t n)
{
	uint64_t k = 1;

	while (k << 1 < n)
		k <<= 1;
	return k;
}

/*
 * MTH(D[start:start+n]) where start is a multiple of the largest power of
 * two not above n, as every subtree a proof names is: the left part is
 * one stored complete subtree, the right part the same again.
 */
static int
subtree_hash(merkle_node_fn node, void *ctx, uint64_t start, uint64_t n,
    merkle_hash out)
{
	merkle_hash right;
	uint64_t k;
	unsigned level = 0;
	int rc;

	if ((n & (n - 1)) == 0) {
		while ((UINT64_C(1) << level) < n)
			level++;
		return node(ctx, level, start >> level, out);
	}
	k = split_point(n);
	if ((rc = subtree_hash(node, ctx, start + k, n - k, right)) != 0)
		return rc;
	if ((rc = subtree_hash(node, ctx, start, k, out)) != 0)
		return rc;
	return merkle_node_hash(out, right, out);
}

int
merkle_root(merkle_node_fn node, void *ctx, uint64_t size, merkle_hash out)
{
	if (size == 0) {
		unsigned int len = 0;

		return EVP_Digest("", 0, out, &len, EVP_sha256(), NULL) &&
		    len == MERKLE_HASH_SIZE ? 0 : -1;
	}
	return subtree_hash(node, ctx, 0, size, out);
}

/*
 * Both proofs walk down from the root of D[0:size] toward the subtree
 * that ends at leaf `last`, taking at each step the hash of the sibling
 * they leave behind: to the leaf itself for an inclusion proof
 * (RFC 6962 PATH), until D[0:last+1] is a subtree for a consistency proof
 * (SUBPROOF).  The walk leaves *start and *n on the subtree it stopped at.
 */
struct proof_walk {
	merkle_hash path[MERKLE_MAX_PROOF];	/* root end first */
	size_t depth;
	uint64_t start, n;
	bool went_right;	/* some step left the old tree's left part */
};

static int
proof_descend(merkle_node_fn node, void *ctx, uint64_t last, uint64_t size,
    bool to_leaf, struct proof_walk *w)
{
	uint64_t m = last, k;
	int rc;

	w->depth = 0;
	w->start = 0;
	w->n = size;
	w->went_right = false;
	while (to_leaf ? w->n > 1 : m + 1 != w->n) {
		k = split_point(w->n);
		if (m < k) {
			rc = subtree_hash(node, ctx, w->start + k, w->n - k,
			    w->path[w->depth]);
			w->n = k;
		} else {
			rc = subtree_hash(node, ctx, w->start, k,
			    w->path[w->depth]);
			w->start += k;
			m -= k;
			w->n -= k;
			w->went_right = true;
		}
		if (rc != 0)
			return rc;
		w->depth++;
	}
	return 0;
}

/* The proof lists the hashes from the leaf's end up: the walk reversed. */
static void
proof_emit(const struct proof_walk *w, merkle_hash proof[MERKLE_MAX_PROOF],
    size_t *count)
{
	size_t i;

	for (i = 0; i < w->depth; i++)
		memcpy(proof[i], w->path[w->depth - 1 - i], MERKLE_HASH_SIZE);
	*count = w->depth;
}

int
merkle_inclusion_proof(merkle_node_fn node, void *ctx, uint64_t index,
    uint64_t size, merkle_hash proof[MERKLE_MAX_PROOF], size_t *count)
{
	struct proof_walk w;
	int rc;

	*count = 0;
	if (index >= size)
		return -1;
	if ((rc = proof_descend(node, ctx, index, size, true, &w)) != 0)
		return rc;
	proof_emit(&w, proof, count);
	return 0;
}

int
merkle_consistency_proof(merkle_node_fn node, void *ctx, uint64_t size1,
    uint64_t size2, merkle_hash proof[MERKLE_MAX_PROOF], size_t *count)
{
	struct proof_walk w;
	int rc;

	*count = 0;
	if (size1 == 0 || size1 > size2)
		return -1;
	if ((rc = proof_descend(node, ctx, size1 - 1, size2, false, &w)) != 0)
		return rc;
	/*
	 * RFC 6962's b: unless D[0:size1] is itself the subtree the walk
	 * stopped at, the verifier also needs that subtree's hash.
	 */
	if (w.went_right) {
		if ((rc = subtree_hash(node, ctx, w.start, w.n,
		    w.path[w.depth])) != 0)
			return rc;
		w.depth++;
	}
	proof_emit(&w, proof, count);
	return 0;
}

bool
merkle_verify_inclusion(uint64_t index, uint64_t size,
    const merkle_hash leaf, const merkle_hash *proof, size_t count,
    const merkle_hash root)
{
	merkle_hash r;
	uint64_t fn = index, sn;
	size_t i;

	if (index >= size)
		return false;
	sn = size - 1;
	memcpy(r, leaf, MERKLE_HASH_SIZE);
	for (i = 0; i < count; i++) {
		if (sn == 0)
			return false;
		if ((fn & 1) || fn == sn) {
			if (merkle_node_hash(proof[i], r, r) != 0)
				return false;
			while (!(fn & 1) && fn != 0) {
				fn >>= 1;
				sn >>= 1;
			}
		} else if (merkle_node_hash(r, proof[i], r) != 0) {
			return false;
		}
		fn >>= 1;
		sn >>= 1;
	}
	return sn == 0 && memcmp(r, root, MERKLE_HASH_SIZE) == 0;
}

bool
merkle_verify_consistency(uint64_t size1, uint64_t size2,
    const merkle_hash root1, const merkle_hash root2,
    const merkle_hash *proof, size_t count)
{
	merkle_hash fr, sr;
	const merkle_hash *path = proof;
	uint64_t fn, sn;
	size_t i, n = count;

	/* An empty first tree proves nothing: refused (the vectors agree). */
	if (size1 == 0 || size1 > size2)
		return false;
	if (size1 == size2)
		return count == 0 &&
		    memcmp(root1, root2, MERKLE_HASH_SIZE) == 0;
	if (count == 0)
		return false;
	/* A power-of-two first tree is its own first path element. */
	if ((size1 & (size1 - 1)) == 0) {
		memcpy(fr, root1, MERKLE_HASH_SIZE);
	} else {
		memcpy(fr, path[0], MERKLE_HASH_SIZE);
		path++;
		n--;
	}
	memcpy(sr, fr, MERKLE_HASH_SIZE);
	fn = size1 - 1;
	sn = size2 - 1;
	while (fn & 1) {
		fn >>= 1;
		sn >>= 1;
	}
	for (i = 0; i < n; i++) {
		if (sn == 0)
			return false;
		if ((fn & 1) || fn == sn) {
			if (merkle_node_hash(path[i], fr, fr) != 0 ||
			    merkle_node_hash(path[i], sr, sr) != 0)
				return false;
			while (!(fn & 1) && fn != 0) {
				fn >>= 1;
				sn >>= 1;
			}
		} else if (merkle_node_hash(sr, path[i], sr) != 0) {
			return false;
		}
		fn >>= 1;
		sn >>= 1;
	}
	return sn == 0 && memcmp(fr, root1, MERKLE_HASH_SIZE) == 0 &&
	    memcmp(sr, root2, MERKLE_HASH_SIZE) == 0;
}

unsigned
merkle_levels_completed(uint64_t index)
{
	unsigned levels = 1;

	while (index & 1) {
		levels++;
		index >>= 1;
	}
	return levels;
}
