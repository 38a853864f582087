/* listsort.c — the paper's Figure 1 setting: sorting a linked list whose
 * nodes are scattered in memory, for sizes that cross the machine's cache
 * sizes. A bottom-up merge sort of n nodes (n from 2^10 to 2^21, log-uniform)
 * whose nodes were linked in a random order, recorded with the annot
 * recorder (metric cpu: thread CPU time). Expected: n log n in a regime while
 * the list fits in a cache, and steeper regimes beyond each cache size.
 * Usage: listsort LOG [CALLS]   (default 200) */
#define PROPER_IMPLEMENTATION
#include "../../src/annot.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct node {
    struct node *next;
    uint64_t key;
    char pad[16]; /* 32-byte nodes */
} node;

static node *merge(node *a, node *b) {
    node head, *t = &head;
    while (a && b) {
        if (a->key <= b->key) { t->next = a; a = a->next; }
        else { t->next = b; b = b->next; }
        t = t->next;
    }
    t->next = a ? a : b;
    return head.next;
}

/* Merge sort by splitting with slow/fast pointers. */
static node *sort(node *h) {
    node *slow, *fast, *mid;
    if (!h || !h->next) return h;
    slow = h;
    fast = h->next;
    while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
    mid = slow->next;
    slow->next = NULL;
    return merge(sort(h), sort(mid));
}

int main(int argc, char **argv) {
    proper_annot_writer *w;
    proper_annot_recorder r;
    proper_error err;
    proper_rng rng;
    size_t calls = argc > 2 ? (size_t)atol(argv[2]) : 200, i, j, maxn = (size_t)1 << 21;
    node *pool = (node *)malloc(sizeof *pool * maxn);
    size_t *perm = (size_t *)malloc(sizeof *perm * maxn);
    int f;
    if (argc < 2 || !pool || !perm) {
        fprintf(stderr, "usage: listsort LOG [CALLS]\n");
        return 2;
    }
    if (proper_annot_writer_open(&w, argv[1], calls, PROPER_ANNOT_M_CPU, 1, &err) ||
        (f = proper_annot_writer_function(w, "sort", "n", &err)) < 0 || proper_annot_recorder_init(&r, w, &err)) {
        fprintf(stderr, "listsort: %s\n", err.message);
        return 2;
    }
    proper_rng_seed(&rng, 6);
    for (i = 0; i < calls; i++) {
        size_t n = (size_t)pow(2.0, 10 + 11 * proper_rng_uniform(&rng));
        node *head = NULL;
        /* nodes spread over n slots of the pool, linked in a random order */
        for (j = 0; j < n; j++) perm[j] = j;
        for (j = n; j > 1; j--) {
            size_t k = (size_t)proper_rng_below(&rng, j), t = perm[j - 1];
            perm[j - 1] = perm[k];
            perm[k] = t;
        }
        for (j = 0; j < n; j++) {
            node *p = &pool[perm[j]];
            p->key = proper_rng_u64(&rng);
            p->next = head;
            head = p;
        }
        proper_annot_begin(&r, f);
        proper_annot_feature(&r, 0, (double)n);
        head = sort(head);
        proper_annot_end(&r);
        if (!head) return 3;
    }
    proper_annot_recorder_flush(&r, &err);
    proper_annot_recorder_free(&r);
    free(pool);
    free(perm);
    if (proper_annot_writer_close(w, &err)) {
        fprintf(stderr, "listsort: %s\n", err.message);
        return 2;
    }
    return 0;
}
