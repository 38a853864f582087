/* proper_preload.c — heap and lock metrics without source changes.
 *
 * Built as build/libproper-preload.so (make build/libproper-preload.so) and
 * loaded with LD_PRELOAD into a program that records annotation scopes with
 * annot.h's recorder. It wraps malloc, calloc, realloc, free,
 * pthread_mutex_lock, pthread_mutex_trylock, pthread_mutex_unlock and
 * pthread_cond_wait and keeps per-thread counters; the recorder finds them
 * through proper_preload_counters() (a weak symbol on its side) and charges
 * the differences to the innermost open scope of the calling thread:
 *
 *   alloc_bytes, allocs  bytes and blocks allocated (usable sizes, as
 *                        malloc_usable_size reports them; realloc counts its
 *                        new block and frees the old one)
 *   live, peak           bytes allocated by this thread and not yet freed (a
 *                        block freed by another thread is subtracted there)
 *                        and the highest value since the recorder last reset it
 *   lock_wait_ns         time blocked in pthread_mutex_lock (two clock reads)
 *   lock_hold_ns         time from acquiring a mutex (lock, successful
 *                        trylock) to unlocking it; pthread_cond_wait releases
 *                        and reacquires, so holding pauses while it waits and
 *                        its re-acquisition is not counted as lock wait
 *   locks                mutex acquisitions
 *
 * Linux/glibc only (dlsym(RTLD_NEXT), malloc_usable_size). Allocations made
 * by dlsym itself while the real functions are looked up come from a small
 * static arena and are never returned to libc. At most PRELOAD_HELD mutexes
 * held at once per thread are timed (deeper ones are still locked, not timed).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef struct proper_annot_preload_counters {
    uint64_t alloc_bytes, allocs, live, peak, lock_wait_ns, lock_hold_ns, locks;
} proper_annot_preload_counters;

#define PRELOAD_HELD 16

static _Thread_local proper_annot_preload_counters counters;
static _Thread_local struct { const void *m; uint64_t t; } held[PRELOAD_HELD];
static _Thread_local int nheld;

proper_annot_preload_counters *proper_preload_counters(void);
proper_annot_preload_counters *proper_preload_counters(void) { return &counters; }

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_lock)(pthread_mutex_t *);
static int (*real_trylock)(pthread_mutex_t *);
static int (*real_unlock)(pthread_mutex_t *);
static int (*real_cond_wait)(pthread_cond_t *, pthread_mutex_t *);

/* dlsym may allocate before the real allocator is known */
static unsigned char arena[1 << 16];
static size_t arena_used;
static int resolving;

static void *arena_alloc(size_t n) {
    void *p;
    n = (n + 15) & ~(size_t)15;
    if (arena_used + n > sizeof arena) return NULL;
    p = arena + arena_used;
    arena_used += n;
    return p;
}
static int in_arena(const void *p) {
    return (const unsigned char *)p >= arena && (const unsigned char *)p < arena + sizeof arena;
}

/* dlsym returns an object pointer; copy its bits into the function pointer
 * (POSIX guarantees they convert; ISO C has no cast for it) */
#define LOOKUP(var, name)                        \
    do {                                         \
        void *sym_ = dlsym(RTLD_NEXT, name);     \
        memcpy(&(var), &sym_, sizeof sym_);      \
    } while (0)

static void resolve(void) {
    if (real_malloc || resolving) return;
    resolving = 1;
    LOOKUP(real_calloc, "calloc");
    LOOKUP(real_realloc, "realloc");
    LOOKUP(real_free, "free");
    LOOKUP(real_lock, "pthread_mutex_lock");
    LOOKUP(real_trylock, "pthread_mutex_trylock");
    LOOKUP(real_unlock, "pthread_mutex_unlock");
    LOOKUP(real_cond_wait, "pthread_cond_wait");
    LOOKUP(real_malloc, "malloc");
    resolving = 0;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void charge_alloc(void *p) {
    size_t n;
    if (!p) return;
    n = malloc_usable_size(p);
    counters.alloc_bytes += n;
    counters.allocs++;
    counters.live += n;
    if (counters.live > counters.peak) counters.peak = counters.live;
}
static void charge_free(void *p) {
    size_t n;
    if (!p) return;
    n = malloc_usable_size(p);
    counters.live = counters.live > n ? counters.live - n : 0;
}

void *malloc(size_t n) {
    void *p;
    if (!real_malloc) {
        resolve();
        if (!real_malloc) return arena_alloc(n);
    }
    p = real_malloc(n);
    charge_alloc(p);
    return p;
}

void *calloc(size_t n, size_t m) {
    void *p;
    if (!real_calloc) {
        resolve();
        if (!real_calloc) {
            if (m && n > (size_t)-1 / m) return NULL;
            return arena_alloc(n * m); /* static, hence zeroed */
        }
    }
    p = real_calloc(n, m);
    charge_alloc(p);
    return p;
}

void *realloc(void *old, size_t n) {
    void *p;
    if (!real_realloc) resolve();
    if (in_arena(old)) {
        p = malloc(n);
        if (p) memcpy(p, old, n); /* may read past the old block, still inside the arena */
        return p;
    }
    if (!real_realloc) return NULL;
    charge_free(old);
    p = real_realloc(old, n);
    if (p) charge_alloc(p);
    else if (old) {
        /* the old block survives */
        size_t k = malloc_usable_size(old);
        counters.live += k;
    }
    return p;
}

void free(void *p) {
    if (!p || in_arena(p)) return;
    if (!real_free) resolve();
    charge_free(p);
    real_free(p);
}

static void hold_start(const void *m) {
    counters.locks++;
    if (nheld < PRELOAD_HELD) {
        held[nheld].m = m;
        held[nheld].t = now_ns();
    }
    nheld++;
}
static void hold_end(const void *m) {
    int i;
    uint64_t t = now_ns();
    for (i = (nheld < PRELOAD_HELD ? nheld : PRELOAD_HELD) - 1; i >= 0; i--)
        if (held[i].m == m) {
            counters.lock_hold_ns += t - held[i].t;
            held[i] = held[(nheld < PRELOAD_HELD ? nheld : PRELOAD_HELD) - 1];
            break;
        }
    if (nheld > 0) nheld--;
}

int pthread_mutex_lock(pthread_mutex_t *m) {
    uint64_t t0;
    int rc;
    if (!real_lock) resolve();
    t0 = now_ns();
    rc = real_lock(m);
    counters.lock_wait_ns += now_ns() - t0;
    if (rc == 0) hold_start(m);
    return rc;
}

int pthread_mutex_trylock(pthread_mutex_t *m) {
    int rc;
    if (!real_trylock) resolve();
    rc = real_trylock(m);
    if (rc == 0) hold_start(m);
    return rc;
}

int pthread_mutex_unlock(pthread_mutex_t *m) {
    if (!real_unlock) resolve();
    hold_end(m);
    return real_unlock(m);
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
    int rc;
    if (!real_cond_wait) resolve();
    hold_end(m);
    rc = real_cond_wait(c, m);
    hold_start(m);
    counters.locks--; /* a re-acquisition, not a new lock */
    return rc;
}
