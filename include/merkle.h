/*
 * The RFC 6962 (RFC 9162 section 2) Merkle tree over the audit records
 * (SPEC 13): leaf and node hashes, proofs generated from stored complete
 * subtrees, and the verification of inclusion and consistency proofs.
 */
#ifndef COUNTERSIGN_MERKLE_H
#define COUNTERSIGN_MERKLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MERKLE_HASH_SIZE 32
/* A proof of a tree of at most 2^63 leaves has at most 2 * 63 hashes. */
#define MERKLE_MAX_PROOF 128

typedef unsigned char merkle_hash[MERKLE_HASH_SIZE];

/* SHA-256(0x00 || data); -1 when libcrypto fails. */
int merkle_leaf_hash(const void *data, size_t len, merkle_hash out);
/* SHA-256(0x01 || left || right). */
int merkle_node_hash(const merkle_hash left, const merkle_hash right,
    merkle_hash out);

/*
 * Where proofs read the tree: the hash of the complete subtree of 2^level
 * leaves starting at leaf index << level.  Returns 0, or a nonzero status
 * that the generator hands back.
 */
typedef int (*merkle_node_fn)(void *ctx, unsigned level, uint64_t index,
    merkle_hash out);

/* The root of the first size leaves (size 0: SHA-256 of nothing). */
int merkle_root(merkle_node_fn, void *ctx, uint64_t size, merkle_hash out);
/* PATH(index, D[size]) of RFC 6962 2.1.1, leaf first; *count hashes. */
int merkle_inclusion_proof(merkle_node_fn, void *ctx, uint64_t index,
    uint64_t size, merkle_hash proof[MERKLE_MAX_PROOF], size_t *count);
/* PROOF(size1, D[size2]) of RFC 6962 2.1.2; 0 < size1 <= size2. */
int merkle_consistency_proof(merkle_node_fn, void *ctx, uint64_t size1,
    uint64_t size2, merkle_hash proof[MERKLE_MAX_PROOF], size_t *count);

/*
 * The verifiers of RFC 9162 2.1.3.2 and 2.1.4.2: true only when the proof
 * binds leaf (or root1) to root (root2) exactly.
 */
bool merkle_verify_inclusion(uint64_t index, uint64_t size,
    const merkle_hash leaf, const merkle_hash *proof, size_t count,
    const merkle_hash root);
bool merkle_verify_consistency(uint64_t size1, uint64_t size2,
    const merkle_hash root1, const merkle_hash root2,
    const merkle_hash *proof, size_t count);

/*
 * The complete subtrees that appending leaf index completes, bottom up:
 * level 0 is the leaf itself, level k the node over 2^k leaves ending at
 * it.  How many levels: 1 + the number of trailing one bits of index.
 */
unsigned merkle_levels_completed(uint64_t index);

#endif
