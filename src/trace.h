/* trace.h — execution traces: a documented text format, a portable strict
 * reader, and a low-overhead recorder for instrumented C programs.
 *
 * The reader (standard C only) turns a trace into the figures proper's models
 * are estimated from: for every step, all its measured durations; for every
 * branch, how often each choice was taken; for every loop, the histogram of
 * its iteration counts; for every request, the service's own entry-to-exit
 * time and the client-observed latency; for every run, its sequence of
 * visited program locations (VLMC input); per-run counters (PROPER count
 * logs). The recorder (POSIX: clock_gettime, pthread mutex) writes that
 * format from a running program at a few tens of nanoseconds per event.
 *
 * ==== The trace format, version 1 ========================================
 *
 * A trace is ASCII text made of lines (LF or CRLF). The first line is the
 * header; after it come records. A record groups everything measured about
 * one request of a service (or one run of a program): it opens with `R id`
 * and closes with `E`. Every measurement line sits inside a record.
 *
 *     proper-trace 1
 *     # scenario: sequence (comment lines start with '#')
 *     R 17
 *     S buildPath 2143
 *     B target file
 *     S writeLog 1502
 *     L probe 5
 *     T 98311
 *     C 151200
 *     E
 *
 * EBNF (ISO 14977 style; `blank` separates fields; the header must be the
 * first line, comment and empty lines may appear anywhere after it):
 *
 *     trace     = header , { empty | comment | record } ;
 *     header    = "proper-trace" , blank , "1" , eol ;
 *     record    = "R" , blank , id , eol ,
 *                 { empty | comment | body } ,
 *                 "E" , eol ;
 *     body      = ( "S" , blank , name , blank , duration    (* step took duration ns *)
 *               | "B" , blank , name , blank , name          (* branch took choice    *)
 *               | "L" , blank , name , blank , count         (* loop ran count times  *)
 *               | "N" , blank , name , blank , count         (* counter += count      *)
 *               | "T" , blank , duration                     (* service entry-to-exit *)
 *               | "C" , blank , duration                     (* client latency        *)
 *               | "V" , { blank , name }                     (* locations visited     *)
 *               ) , [ blanks ] , eol ;
 *     comment   = [ blanks ] , "#" , { any character except LF } , eol ;
 *     empty     = [ blanks ] , eol ;
 *     id        = digit , { digit } ;                (* 0 .. 2^64-1 *)
 *     count     = digit , { digit } ;                (* 0 .. 2^53, see below *)
 *     duration  = digit , { digit } , [ "." , { digit } ] ,
 *                 [ ( "e" | "E" ) , [ "+" | "-" ] , digit , { digit } ] ;
 *     name      = namechar , { namechar } ;          (* at most 255 characters *)
 *     namechar  = letter | digit | "_" | "." | ":" | "/" | "@" | "+" | "-" ;
 *     blank     = ( " " | TAB ) , { " " | TAB } ;
 *     blanks    = blank ;
 *     eol       = [ CR ] , LF | end of input ;
 *
 * Meaning:
 *   - Durations are nanoseconds, non-negative and finite; the recorder writes
 *     integers, hand-written traces may use fractions.
 *   - S, B, L, N and V may repeat within a record (a step inside a loop, a
 *     branch taken on every iteration, several loops of one name). Every S
 *     line is one sample of that step; every B line one choice of that
 *     branch; every L line one execution of that loop with `count`
 *     iterations; N lines of one counter add up within a record.
 *   - V lines concatenate: a run's location sequence is the concatenation of
 *     its V lines in order ("one run per record"). A location is a name, so
 *     numbers ("42") and source positions ("main.c:17") are both fine.
 *   - T (the service's own entry-to-exit time, measured independently of the
 *     steps) and C (the latency the client observed for that request) appear
 *     at most once per request.
 *   - The same id may open several records, in one file or across files read
 *     into one proper_trace: they are merged into one request (e.g. a
 *     server's steps and a load generator's client latency), in order; T
 *     and C must still occur at most once after merging.
 *   - Step, branch, loop, counter and location names live in separate
 *     namespaces.
 *
 * Errors (all reported as file:line:col): a missing or wrong header, an
 * unknown record kind, a measurement outside a record (before `R` or after
 * `E`), `R` inside an open record, a record not closed by `E` at the end of
 * input, a negative, non-finite or malformed duration, a malformed count or
 * id, an invalid or too long name, a missing or extra field, a duplicate T or
 * C, a loop count above PROPER_TRACE_LOOP_MAX, a counter amount above
 * PROPER_TRACE_COUNT_MAX.
 *
 * ==== Reading =============================================================
 *
 *     proper_trace t;
 *     proper_error err;
 *     proper_trace_init(&t);
 *     if (proper_trace_read(&t, "data/webserver/sequence.trace", &err)) {
 *         ... proper_error_format(&err, ...) ...
 *     }
 *     const proper_trace_step_stats *s = proper_trace_find_step(&t, "sendContent");
 *     ... s->ns[0 .. s->n-1] are its durations in nanoseconds ...
 *     proper_trace_free(&t);
 *
 * The reader uses only standard C. A proper_trace is read-only after loading
 * and may then be shared between threads.
 *
 * ==== Recording ===========================================================
 *
 * One proper_trace_writer per output file, shared by all threads; one
 * proper_trace_recorder per thread, owned by that thread. Events go into the
 * recorder's private buffer as small binary entries (no formatting, no lock,
 * no system call); when a record ends and the buffer holds at least
 * `flush_events` events, the recorder formats them and appends the text to
 * the file while holding the writer's mutex, so records of different threads
 * never interleave. Names are registered once, up front, and events refer to
 * them by a small integer:
 *
 *     proper_trace_writer *w;
 *     proper_trace_recorder rec;           (one per thread)
 *     int s_build;
 *     proper_trace_writer_open(&w, file, &err);
 *     s_build = proper_trace_writer_name(w, "buildPath", &err);
 *     proper_trace_recorder_init(&rec, w, 4096, &err);
 *     ...
 *     int64_t t0 = proper_trace_now();
 *     proper_trace_begin(&rec, request_id);
 *     ... build the path ...
 *     proper_trace_step(&rec, s_build, proper_trace_now() - t0);
 *     proper_trace_service(&rec, proper_trace_now() - t0);
 *     proper_trace_end(&rec);
 *     ...
 *     proper_trace_recorder_free(&rec, &err);   (flushes)
 *     proper_trace_writer_close(w, &err);       (does not fclose the file)
 *
 * Event functions return 0 or a negative status; the first failure also
 * sticks in the recorder (later events are dropped) and is returned again by
 * proper_trace_recorder_flush / _free, so a program may check only there.
 * The recorder needs POSIX; define PROPER_TRACE_NO_RECORDER to leave it out
 * on systems without clock_gettime and pthreads (the reader stays).
 */
#ifndef PROPER_TRACE_H
#define PROPER_TRACE_H

#include "core.h"
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Format version written in the header line. */
#define PROPER_TRACE_VERSION 1
/* Longest name (step, branch, choice, loop, counter, location), in bytes. */
#ifndef PROPER_TRACE_NAME_MAX
#define PROPER_TRACE_NAME_MAX 255
#endif
/* Largest counter amount (N lines): 2^53, so that every amount is exact as
 * a double (the reader's value type). */
#define PROPER_TRACE_COUNT_MAX 9007199254740992.0
/* Largest loop iteration count the reader accepts: the histogram is a dense
 * array indexed by count, so a corrupt huge count must not allocate
 * gigabytes. */
#ifndef PROPER_TRACE_LOOP_MAX
#define PROPER_TRACE_LOOP_MAX 1048576
#endif

/* Kinds of body lines (the letter is the record kind in the text). */
enum proper_trace_kind {
    PROPER_TRACE_STEP = 'S',
    PROPER_TRACE_BRANCH = 'B',
    PROPER_TRACE_LOOP = 'L',
    PROPER_TRACE_COUNTER = 'N',
    PROPER_TRACE_SERVICE = 'T',
    PROPER_TRACE_CLIENT = 'C',
    PROPER_TRACE_VISIT = 'V'
};

/* ---- Reader ---------------------------------------------------------- */

/* One S, B, L or N line of a request, in file order. `name` indexes
 * trace->steps, ->branches, ->loops or ->counters according to `kind`. */
typedef struct proper_trace_event {
    int kind;      /* PROPER_TRACE_STEP, _BRANCH, _LOOP or _COUNTER */
    size_t name;   /* index into the table of that kind */
    size_t choice; /* BRANCH: index into the branch's choices; else 0 */
    double value;  /* STEP: ns; LOOP: iterations; COUNTER: amount; BRANCH: 0 */
    int line;      /* line of the source text (of its file) */
} proper_trace_event;

/* One request (or run). */
typedef struct proper_trace_record {
    uint64_t id;
    int line;            /* line of its first `R` */
    double service_ns;   /* T: the service's own entry-to-exit time; -1 if absent */
    double client_ns;    /* C: client-observed latency; -1 if absent */
    proper_trace_event *events;
    size_t nevents, events_cap;
    size_t *visits;      /* location indices (into trace->locations), in order */
    size_t nvisits, visits_cap;
} proper_trace_record;

/* Every measured duration of one step, over all records, in file order. */
typedef struct proper_trace_step_stats {
    char *name;
    double *ns;
    size_t n, cap;
} proper_trace_step_stats;

/* How often each choice of a branch was taken (choices in order of first
 * appearance). */
typedef struct proper_trace_branch_stats {
    char *name;
    char **choices;
    size_t *counts;
    size_t nchoices, cap;
    size_t total; /* sum of counts */
} proper_trace_branch_stats;

/* Histogram of a loop's iteration counts: counts[k] = number of executions
 * of the loop that iterated k times, for k < len (len = largest count + 1). */
typedef struct proper_trace_loop_stats {
    char *name;
    size_t *counts;
    size_t len, cap;
    size_t total; /* executions of the loop */
} proper_trace_loop_stats;

/* A name table (counters, locations). */
typedef struct proper_trace_names {
    char **names;
    size_t n, cap;
} proper_trace_names;

/* private: one slot of the name hash table */
typedef struct proper_trace_name_slot {
    int kind;     /* 0 = empty, else the table's kind letter ('c' for a choice) */
    size_t owner; /* for a choice: its branch index; else 0 */
    size_t index; /* index in that table */
    uint64_t hash;
} proper_trace_name_slot;

/* A whole trace. All members are readable; change them only through the
 * functions below. */
typedef struct proper_trace {
    proper_trace_record *records; /* in order of first appearance */
    size_t nrecords, records_cap;
    proper_trace_step_stats *steps;
    size_t nsteps, steps_cap;
    proper_trace_branch_stats *branches;
    size_t nbranches, branches_cap;
    proper_trace_loop_stats *loops;
    size_t nloops, loops_cap;
    proper_trace_names counters;
    proper_trace_names locations;
    /* private: hash tables (open addressing) for ids and names */
    size_t *id_slots;     /* record index + 1; 0 = empty */
    size_t id_slots_cap;  /* power of two or 0 */
    proper_trace_name_slot *name_slots;
    size_t name_slots_cap, name_slots_used;
} proper_trace;

/* An empty trace. */
PROPER_API void proper_trace_init(proper_trace *t);

/* Parse trace text into `out`, which must be initialised (proper_trace_init,
 * or an earlier trace, released on success); on failure `out` is left
 * unchanged and `err` holds file:line:col. `file` names the text in errors
 * (may be NULL). */
PROPER_API int proper_trace_parse(proper_trace *out, const char *text, size_t len,
                                  const char *file, proper_error *err);
/* proper_read_file + proper_trace_parse. */
PROPER_API int proper_trace_read(proper_trace *out, const char *path, proper_error *err);

/* Parse trace text and add it to `t`: records with an id already in `t` are
 * merged into it (e.g. a server's trace and a load generator's). On a parse
 * error or a merge conflict (a second T or C for a request) `t` is left
 * unchanged; only when memory runs out while merging may `t` hold part of
 * the text (it stays valid and must still be freed). */
PROPER_API int proper_trace_parse_merge(proper_trace *t, const char *text, size_t len,
                                        const char *file, proper_error *err);
/* proper_read_file + proper_trace_parse_merge. */
PROPER_API int proper_trace_read_merge(proper_trace *t, const char *path, proper_error *err);

/* Release everything `t` owns; `t` is then empty (as after init). */
PROPER_API void proper_trace_free(proper_trace *t);

/* Lookups by name: NULL when the trace has no such step/branch/loop. */
PROPER_API const proper_trace_step_stats *proper_trace_find_step(const proper_trace *t, const char *name);
PROPER_API const proper_trace_branch_stats *proper_trace_find_branch(const proper_trace *t, const char *name);
PROPER_API const proper_trace_loop_stats *proper_trace_find_loop(const proper_trace *t, const char *name);
/* The record with that id, or NULL. */
PROPER_API const proper_trace_record *proper_trace_find_record(const proper_trace *t, uint64_t id);
/* How often `choice` of branch `b` was taken (0 if never). */
PROPER_API size_t proper_trace_branch_count(const proper_trace_branch_stats *b, const char *choice);
/* Index of a location name in t->locations, or -1 if it never occurs. */
PROPER_API long proper_trace_location_index(const proper_trace *t, const char *name);
/* Index of a counter name in t->counters, or -1. */
PROPER_API long proper_trace_counter_index(const proper_trace *t, const char *name);
/* Sum of the N lines of counter `counter` (an index) in record `r`. */
PROPER_API double proper_trace_record_counter(const proper_trace_record *r, size_t counter);

/* Sort the records by id (stable for equal ids, which cannot occur after
 * merging). */
PROPER_API int proper_trace_sort(proper_trace *t, proper_error *err);

/* Write `t` in the text format: the header, then `comment` (may be NULL;
 * each of its lines becomes a "# ..." line), then each record: its events in
 * order, its locations (V lines), T, C, E. Parsing the output gives back an
 * equal trace; durations are written with enough digits to round-trip. */
PROPER_API int proper_trace_write(const proper_trace *t, FILE *out, const char *comment,
                                  proper_error *err);

/* ---- Recorder (POSIX) ------------------------------------------------ */
#ifndef PROPER_TRACE_NO_RECORDER

/* The shared side of recording: the output file, the mutex that serialises
 * flushes, the registered names. Opaque. */
typedef struct proper_trace_writer proper_trace_writer;

/* One buffered event (private layout; 16 bytes). */
typedef struct proper_trace_slot {
    int32_t kind;   /* proper_trace_kind letter, or 'R' / 'E' */
    int32_t name;   /* registered name id, or -1 */
    uint64_t value; /* ns, count, request id, or (B) the choice's name id */
} proper_trace_slot;

/* A per-thread recorder. The caller owns it (stack, thread struct, ...);
 * only one thread may use a recorder at a time. Members are private. */
typedef struct proper_trace_recorder {
    proper_trace_writer *writer;
    proper_trace_slot *slots;
    size_t len, cap;      /* buffered events */
    size_t flush_events;  /* flush when a record ends with this many buffered */
    int in_record;
    size_t record_start;  /* slot of the open record's R */
    int status;           /* first failure, sticky */
    char *text;           /* formatting buffer */
    size_t text_cap;
} proper_trace_recorder;

/* Now, in nanoseconds, from CLOCK_MONOTONIC (an arbitrary but fixed origin). */
PROPER_API int64_t proper_trace_now(void);

/* Open a writer on `out` (not owned: the caller closes it) and write the
 * header line. `out` must stay open until proper_trace_writer_close. */
PROPER_API int proper_trace_writer_open(proper_trace_writer **w, FILE *out, proper_error *err);

/* Register a name (step, branch, choice, loop, counter or location; one
 * table for all) and return its id (>= 0), or a negative status for an
 * invalid name (see `name` in the EBNF). Registering the same text twice
 * returns the same id. Thread-safe; usually done once before recording. */
PROPER_API int proper_trace_writer_name(proper_trace_writer *w, const char *name, proper_error *err);

/* Write a comment line "# text" (text must not contain a newline).
 * Thread-safe. Between records only: it is written immediately. */
PROPER_API int proper_trace_writer_comment(proper_trace_writer *w, const char *text, proper_error *err);

/* Flush the file and release the writer. All its recorders must have been
 * freed first. Returns the first write error seen by any flush. */
PROPER_API int proper_trace_writer_close(proper_trace_writer *w, proper_error *err);

/* Set up a recorder on writer `w` that flushes when a record ends and at
 * least `flush_events` events are buffered (0 means 4096). */
PROPER_API int proper_trace_recorder_init(proper_trace_recorder *r, proper_trace_writer *w,
                                          size_t flush_events, proper_error *err);

/* Events. `begin` opens the record of request/run `id`; `end` closes it
 * (and may flush). The others need an open record. Names are ids returned
 * by proper_trace_writer_name; durations are ns (>= 0). */
PROPER_API int proper_trace_begin(proper_trace_recorder *r, uint64_t id);
PROPER_API int proper_trace_step(proper_trace_recorder *r, int step, int64_t ns);
PROPER_API int proper_trace_branch(proper_trace_recorder *r, int branch, int choice);
PROPER_API int proper_trace_loop(proper_trace_recorder *r, int loop, int64_t iterations);
PROPER_API int proper_trace_count(proper_trace_recorder *r, int counter, int64_t amount);
PROPER_API int proper_trace_service(proper_trace_recorder *r, int64_t ns);
PROPER_API int proper_trace_client(proper_trace_recorder *r, int64_t ns);
PROPER_API int proper_trace_visit(proper_trace_recorder *r, int location);
PROPER_API int proper_trace_end(proper_trace_recorder *r);

/* Write out every buffered complete record now. An open record stays
 * buffered. Returns the recorder's sticky status. */
PROPER_API int proper_trace_recorder_flush(proper_trace_recorder *r, proper_error *err);

/* Flush, then release the buffers. An open record (begin without end) is
 * discarded and reported as PROPER_ESTATE. */
PROPER_API int proper_trace_recorder_free(proper_trace_recorder *r, proper_error *err);

#endif /* PROPER_TRACE_NO_RECORDER */

#ifdef __cplusplus
}
#endif
#endif /* PROPER_TRACE_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_TRACE_IMPLEMENTATION
#define PROPER_TRACE_IMPLEMENTATION

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- reader: names ---- */

/* Name-table kinds used as hash keys: the record letters for steps ('S'),
 * branches ('B'), loops ('L'), counters ('N') and locations ('V'), and 'c'
 * for the choices of one branch (owner = the branch's index). */
#define PROPER__TRACE_CHOICE 'c'

static int proper__trace_namechar(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '.' || ch == ':' || ch == '/' || ch == '@' || ch == '+' || ch == '-';
}

/* FNV-1a over the kind, the owner and the name. */
static uint64_t proper__trace_hash(int kind, size_t owner, const char *s, size_t n) {
    unsigned char k = (unsigned char)kind;
    uint64_t o = (uint64_t)owner;
    uint64_t h = proper_fnv1a(PROPER_FNV_OFFSET, &k, 1);
    h = proper_fnv1a(h, &o, sizeof o);
    return proper_fnv1a(h, s, n);
}

static const char *proper__trace_name_of(const proper_trace *t, int kind, size_t owner, size_t index) {
    switch (kind) {
    case PROPER_TRACE_STEP: return t->steps[index].name;
    case PROPER_TRACE_BRANCH: return t->branches[index].name;
    case PROPER_TRACE_LOOP: return t->loops[index].name;
    case PROPER_TRACE_COUNTER: return t->counters.names[index];
    case PROPER_TRACE_VISIT: return t->locations.names[index];
    default: return t->branches[owner].choices[index];
    }
}

/* Slot of (kind, owner, name) in the name hash: the matching slot, or the
 * empty slot where it would go. The table is never full (load <= 1/2). */
static size_t proper__trace_name_slot(const proper_trace *t, int kind, size_t owner, const char *s,
                                      size_t n, uint64_t h) {
    size_t mask = t->name_slots_cap - 1, i = (size_t)h & mask;
    for (;; i = (i + 1) & mask) {
        const proper_trace_name_slot *slot = &t->name_slots[i];
        const char *other;
        if (!slot->kind) return i;
        if (slot->hash != h || slot->kind != kind || slot->owner != owner) continue;
        other = proper__trace_name_of(t, kind, owner, slot->index);
        if (strncmp(other, s, n) == 0 && other[n] == '\0') return i;
    }
}

static int proper__trace_grow_names(proper_trace *t) {
    size_t cap = t->name_slots_cap ? t->name_slots_cap * 2 : 64, i;
    proper_trace_name_slot *old = t->name_slots, *slots;
    size_t old_cap = t->name_slots_cap;
    slots = (proper_trace_name_slot *)proper_calloc(cap, sizeof *slots);
    if (!slots) return PROPER_ENOMEM;
    t->name_slots = slots;
    t->name_slots_cap = cap;
    for (i = 0; i < old_cap; i++) {
        size_t j;
        if (!old[i].kind) continue;
        for (j = (size_t)old[i].hash & (cap - 1); slots[j].kind; j = (j + 1) & (cap - 1)) {}
        slots[j] = old[i];
    }
    PROPER_FREE(old);
    return PROPER_OK;
}

/* Append a new, empty entry named `name` to the table of `kind`; its index
 * is written to *index. */
static int proper__trace_new_entry(proper_trace *t, int kind, size_t owner, char *name, size_t *index) {
    switch (kind) {
    case PROPER_TRACE_STEP:
        if (proper_reserve(&t->steps, &t->steps_cap, t->nsteps + 1, sizeof *t->steps)) return PROPER_ENOMEM;
        memset(&t->steps[t->nsteps], 0, sizeof *t->steps);
        t->steps[t->nsteps].name = name;
        *index = t->nsteps++;
        return PROPER_OK;
    case PROPER_TRACE_BRANCH:
        if (proper_reserve(&t->branches, &t->branches_cap, t->nbranches + 1, sizeof *t->branches))
            return PROPER_ENOMEM;
        memset(&t->branches[t->nbranches], 0, sizeof *t->branches);
        t->branches[t->nbranches].name = name;
        *index = t->nbranches++;
        return PROPER_OK;
    case PROPER_TRACE_LOOP:
        if (proper_reserve(&t->loops, &t->loops_cap, t->nloops + 1, sizeof *t->loops)) return PROPER_ENOMEM;
        memset(&t->loops[t->nloops], 0, sizeof *t->loops);
        t->loops[t->nloops].name = name;
        *index = t->nloops++;
        return PROPER_OK;
    case PROPER_TRACE_COUNTER:
    case PROPER_TRACE_VISIT: {
        proper_trace_names *tab = kind == PROPER_TRACE_COUNTER ? &t->counters : &t->locations;
        if (PROPER_PUSH(tab->names, tab->n, tab->cap, name)) return PROPER_ENOMEM;
        *index = tab->n - 1;
        return PROPER_OK;
    }
    default: {
        proper_trace_branch_stats *b = &t->branches[owner];
        /* choices and counts grow together: the same (cap, need) gives the
         * same new capacity; b->cap is updated only when both have it. */
        size_t cap_choices = b->cap, cap_counts = b->cap;
        if (proper_reserve(&b->choices, &cap_choices, b->nchoices + 1, sizeof *b->choices) ||
            proper_reserve(&b->counts, &cap_counts, b->nchoices + 1, sizeof *b->counts))
            return PROPER_ENOMEM;
        b->cap = cap_choices;
        b->choices[b->nchoices] = name;
        b->counts[b->nchoices] = 0;
        *index = b->nchoices++;
        return PROPER_OK;
    }
    }
}

/* Find or add the name s[0..n) in the table of `kind`. */
static int proper__trace_intern(proper_trace *t, int kind, size_t owner, const char *s, size_t n,
                                size_t *index) {
    uint64_t h = proper__trace_hash(kind, owner, s, n);
    size_t i;
    char *copy;
    int rc;
    if ((t->name_slots_used + 1) * 2 > t->name_slots_cap && proper__trace_grow_names(t)) return PROPER_ENOMEM;
    i = proper__trace_name_slot(t, kind, owner, s, n, h);
    if (t->name_slots[i].kind) {
        *index = t->name_slots[i].index;
        return PROPER_OK;
    }
    copy = proper_strndup(s, n);
    if (!copy) return PROPER_ENOMEM;
    rc = proper__trace_new_entry(t, kind, owner, copy, index);
    if (rc) {
        PROPER_FREE(copy);
        return rc;
    }
    t->name_slots[i].kind = kind;
    t->name_slots[i].owner = owner;
    t->name_slots[i].index = *index;
    t->name_slots[i].hash = h;
    t->name_slots_used++;
    return PROPER_OK;
}

/* Index of an existing name, or -1. */
static long proper__trace_lookup(const proper_trace *t, int kind, size_t owner, const char *s) {
    size_t n = strlen(s), i;
    if (!t->name_slots_cap) return -1;
    i = proper__trace_name_slot(t, kind, owner, s, n, proper__trace_hash(kind, owner, s, n));
    return t->name_slots[i].kind ? (long)t->name_slots[i].index : -1;
}

/* ---- reader: records by id ---- */

static size_t proper__trace_id_home(uint64_t id, size_t cap) {
    /* splitmix64 finaliser spreads consecutive ids over the table */
    uint64_t z = id + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (size_t)(z ^ (z >> 31)) & (cap - 1);
}

static int proper__trace_rehash_ids(proper_trace *t, size_t cap) {
    size_t *slots = (size_t *)proper_calloc(cap, sizeof *slots), r;
    if (!slots) return PROPER_ENOMEM;
    for (r = 0; r < t->nrecords; r++) {
        size_t j = proper__trace_id_home(t->records[r].id, cap);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = r + 1;
    }
    PROPER_FREE(t->id_slots);
    t->id_slots = slots;
    t->id_slots_cap = cap;
    return PROPER_OK;
}

static long proper__trace_record_index(const proper_trace *t, uint64_t id) {
    size_t j;
    if (!t->id_slots_cap) return -1;
    for (j = proper__trace_id_home(id, t->id_slots_cap); t->id_slots[j]; j = (j + 1) & (t->id_slots_cap - 1))
        if (t->records[t->id_slots[j] - 1].id == id) return (long)(t->id_slots[j] - 1);
    return -1;
}

/* The record with `id`, created (at `line`) if new. */
static int proper__trace_open_record(proper_trace *t, uint64_t id, int line, size_t *index) {
    long found = proper__trace_record_index(t, id);
    proper_trace_record *r;
    size_t j;
    if (found >= 0) {
        *index = (size_t)found;
        return PROPER_OK;
    }
    if ((t->nrecords + 1) * 2 > t->id_slots_cap &&
        proper__trace_rehash_ids(t, t->id_slots_cap ? t->id_slots_cap * 2 : 64))
        return PROPER_ENOMEM;
    if (proper_reserve(&t->records, &t->records_cap, t->nrecords + 1, sizeof *t->records)) return PROPER_ENOMEM;
    r = &t->records[t->nrecords];
    memset(r, 0, sizeof *r);
    r->id = id;
    r->line = line;
    r->service_ns = -1.0;
    r->client_ns = -1.0;
    for (j = proper__trace_id_home(id, t->id_slots_cap); t->id_slots[j]; j = (j + 1) & (t->id_slots_cap - 1)) {}
    t->id_slots[j] = t->nrecords + 1;
    *index = t->nrecords++;
    return PROPER_OK;
}

/* ---- reader: the parser ---- */

typedef struct proper__trace_parser {
    proper_trace *t;
    proper_cursor c;
    proper_error *err;
    long record;     /* index of the open record, or -1 */
    int record_line; /* line of its R */
} proper__trace_parser;

/* A character for an error message: 'x' when printable, else its code. */
typedef struct proper__trace_shown {
    char text[16];
} proper__trace_shown;

static proper__trace_shown proper__trace_show(char ch) {
    proper__trace_shown s;
    unsigned char u = (unsigned char)ch;
    if (u >= 0x21 && u < 0x7f) sprintf(s.text, "'%c'", ch);
    else sprintf(s.text, "byte 0x%02x", (unsigned)u);
    return s;
}

static int proper__trace_at_eol(const proper_cursor *c) {
    return c->p >= c->end || *c->p == '\n' || (*c->p == '\r' && (c->p + 1 >= c->end || c->p[1] == '\n'));
}

/* Skip blanks; then expect the end of the line and move past it. */
static int proper__trace_finish_line(proper__trace_parser *ps, const char *after) {
    proper_cursor_skip_blanks(&ps->c);
    if (!proper__trace_at_eol(&ps->c))
        return proper_cursor_error(&ps->c, ps->err, PROPER_EPARSE, "unexpected %s after %s (expected end of line)",
                                   proper__trace_show(*ps->c.p).text, after);
    while (ps->c.p < ps->c.end && *ps->c.p != '\n') proper_cursor_advance(&ps->c);
    proper_cursor_advance(&ps->c);
    return PROPER_OK;
}

/* At least one blank, then a field: `what` names the field in errors. */
static int proper__trace_field_start(proper__trace_parser *ps, const char *what) {
    if (ps->c.p < ps->c.end && (*ps->c.p == ' ' || *ps->c.p == '\t')) {
        proper_cursor_skip_blanks(&ps->c);
        if (!proper__trace_at_eol(&ps->c)) return PROPER_OK;
    }
    if (proper__trace_at_eol(&ps->c))
        return proper_cursor_error(&ps->c, ps->err, PROPER_EPARSE, "missing %s", what);
    return proper_cursor_error(&ps->c, ps->err, PROPER_EPARSE, "unexpected %s (expected a blank before the %s)",
                               proper__trace_show(*ps->c.p).text, what);
}

/* The end of a field: a blank or the end of the line. */
static int proper__trace_field_end(proper__trace_parser *ps, const char *what) {
    if (proper__trace_at_eol(&ps->c) || *ps->c.p == ' ' || *ps->c.p == '\t') return PROPER_OK;
    return proper_cursor_error(&ps->c, ps->err, PROPER_EPARSE, "invalid character %s in %s",
                               proper__trace_show(*ps->c.p).text, what);
}

/* A name at the cursor (no leading blank). */
static int proper__trace_name_token(proper__trace_parser *ps, const char *what, const char **s, size_t *n) {
    proper_cursor start = ps->c;
    while (ps->c.p < ps->c.end && proper__trace_namechar(*ps->c.p)) proper_cursor_advance(&ps->c);
    *s = start.p;
    *n = (size_t)(ps->c.p - start.p);
    if (*n == 0)
        return proper_cursor_error(&start, ps->err, PROPER_EPARSE, "invalid character %s in %s",
                                   proper__trace_show(*start.p).text, what);
    if (*n > PROPER_TRACE_NAME_MAX)
        return proper_cursor_error(&start, ps->err, PROPER_ELIMIT, "%s longer than %d characters", what,
                                   PROPER_TRACE_NAME_MAX);
    return proper__trace_field_end(ps, what);
}

/* Blanks, then a name. */
static int proper__trace_name(proper__trace_parser *ps, const char *what, const char **s, size_t *n) {
    int rc = proper__trace_field_start(ps, what);
    return rc ? rc : proper__trace_name_token(ps, what, s, n);
}

static int proper__trace_duration(proper__trace_parser *ps, double *out) {
    proper_cursor start;
    int rc = proper__trace_field_start(ps, "duration");
    if (rc) return rc;
    start = ps->c;
    if (*ps->c.p == '-')
        return proper_cursor_error(&start, ps->err, PROPER_ERANGE, "negative duration");
    if (!(*ps->c.p >= '0' && *ps->c.p <= '9'))
        return proper_cursor_error(&start, ps->err, PROPER_EPARSE, "expected a duration in ns, found %s",
                                   proper__trace_show(*ps->c.p).text);
    rc = proper_parse_double(&ps->c, out, ps->err);
    if (rc) return rc;
    if (!isfinite(*out)) return proper_cursor_error(&start, ps->err, PROPER_ERANGE, "duration is not finite");
    return proper__trace_field_end(ps, "duration");
}

/* A decimal integer in [0, max] at the cursor (no leading blank). */
static int proper__trace_digits(proper__trace_parser *ps, const char *what, uint64_t max, uint64_t *out) {
    proper_cursor start = ps->c;
    uint64_t v = 0;
    if (*ps->c.p == '-') return proper_cursor_error(&start, ps->err, PROPER_ERANGE, "negative %s", what);
    if (!(*ps->c.p >= '0' && *ps->c.p <= '9'))
        return proper_cursor_error(&start, ps->err, PROPER_EPARSE, "expected %s, found %s", what,
                                   proper__trace_show(*ps->c.p).text);
    while (ps->c.p < ps->c.end && *ps->c.p >= '0' && *ps->c.p <= '9') {
        uint64_t d = (uint64_t)(*ps->c.p - '0');
        if (v > (max - d) / 10)
            return proper_cursor_error(&start, ps->err, PROPER_ERANGE, "%s too large (at most %llu)", what,
                                       (unsigned long long)max);
        v = v * 10 + d;
        proper_cursor_advance(&ps->c);
    }
    *out = v;
    return proper__trace_field_end(ps, what);
}

/* Blanks, then a decimal integer in [0, max]. */
static int proper__trace_unsigned(proper__trace_parser *ps, const char *what, uint64_t max, uint64_t *out) {
    int rc = proper__trace_field_start(ps, what);
    return rc ? rc : proper__trace_digits(ps, what, max, out);
}

static int proper__trace_oom(proper__trace_parser *ps) {
    return proper_cursor_error(&ps->c, ps->err, PROPER_ENOMEM, "out of memory");
}

static int proper__trace_push_event(proper__trace_parser *ps, int kind, size_t name, size_t choice,
                                    double value, int line) {
    proper_trace_record *r = &ps->t->records[ps->record];
    proper_trace_event e;
    e.kind = kind;
    e.name = name;
    e.choice = choice;
    e.value = value;
    e.line = line;
    if (PROPER_PUSH(r->events, r->nevents, r->events_cap, e)) return proper__trace_oom(ps);
    return PROPER_OK;
}

static int proper__trace_body_step(proper__trace_parser *ps, int line) {
    const char *s;
    size_t n, index;
    double ns;
    proper_trace_step_stats *st;
    int rc = proper__trace_name(ps, "step name", &s, &n);
    if (!rc) rc = proper__trace_duration(ps, &ns);
    if (rc) return rc;
    if (proper__trace_intern(ps->t, PROPER_TRACE_STEP, 0, s, n, &index)) return proper__trace_oom(ps);
    st = &ps->t->steps[index];
    if (PROPER_PUSH(st->ns, st->n, st->cap, ns)) return proper__trace_oom(ps);
    return proper__trace_push_event(ps, PROPER_TRACE_STEP, index, 0, ns, line);
}

static int proper__trace_body_branch(proper__trace_parser *ps, int line) {
    const char *s, *cs;
    size_t n, cn, index, choice;
    int rc = proper__trace_name(ps, "branch name", &s, &n);
    if (!rc) rc = proper__trace_name(ps, "choice", &cs, &cn);
    if (rc) return rc;
    if (proper__trace_intern(ps->t, PROPER_TRACE_BRANCH, 0, s, n, &index) ||
        proper__trace_intern(ps->t, PROPER__TRACE_CHOICE, index, cs, cn, &choice))
        return proper__trace_oom(ps);
    ps->t->branches[index].counts[choice]++;
    ps->t->branches[index].total++;
    return proper__trace_push_event(ps, PROPER_TRACE_BRANCH, index, choice, 0.0, line);
}

static int proper__trace_body_loop(proper__trace_parser *ps, int line) {
    const char *s;
    size_t n, index;
    uint64_t count;
    proper_trace_loop_stats *lp;
    int rc = proper__trace_name(ps, "loop name", &s, &n);
    if (!rc) rc = proper__trace_unsigned(ps, "iteration count", PROPER_TRACE_LOOP_MAX, &count);
    if (rc) return rc;
    if (proper__trace_intern(ps->t, PROPER_TRACE_LOOP, 0, s, n, &index)) return proper__trace_oom(ps);
    lp = &ps->t->loops[index];
    if ((size_t)count >= lp->len) {
        if (proper_reserve(&lp->counts, &lp->cap, (size_t)count + 1, sizeof *lp->counts))
            return proper__trace_oom(ps);
        memset(lp->counts + lp->len, 0, ((size_t)count + 1 - lp->len) * sizeof *lp->counts);
        lp->len = (size_t)count + 1;
    }
    lp->counts[count]++;
    lp->total++;
    return proper__trace_push_event(ps, PROPER_TRACE_LOOP, index, 0, (double)count, line);
}

static int proper__trace_body_counter(proper__trace_parser *ps, int line) {
    const char *s;
    size_t n, index;
    uint64_t amount;
    int rc = proper__trace_name(ps, "counter name", &s, &n);
    if (!rc) rc = proper__trace_unsigned(ps, "count", (uint64_t)PROPER_TRACE_COUNT_MAX, &amount);
    if (rc) return rc;
    if (proper__trace_intern(ps->t, PROPER_TRACE_COUNTER, 0, s, n, &index)) return proper__trace_oom(ps);
    return proper__trace_push_event(ps, PROPER_TRACE_COUNTER, index, 0, (double)amount, line);
}

static int proper__trace_body_time(proper__trace_parser *ps, int kind, proper_cursor at) {
    proper_trace_record *r = &ps->t->records[ps->record];
    double *slot = kind == PROPER_TRACE_SERVICE ? &r->service_ns : &r->client_ns;
    double ns;
    int rc = proper__trace_duration(ps, &ns);
    if (rc) return rc;
    if (*slot >= 0.0)
        return proper_cursor_error(&at, ps->err, PROPER_EPARSE, "second %c line for request %llu",
                                   (char)kind, (unsigned long long)r->id);
    *slot = ns;
    return PROPER_OK;
}

static int proper__trace_body_visits(proper__trace_parser *ps) {
    proper_trace_record *r = &ps->t->records[ps->record];
    for (;;) {
        const char *s;
        size_t n, index;
        int rc;
        proper_cursor_skip_blanks(&ps->c);
        if (proper__trace_at_eol(&ps->c)) return PROPER_OK;
        rc = proper__trace_name_token(ps, "location", &s, &n);
        if (rc) return rc;
        if (proper__trace_intern(ps->t, PROPER_TRACE_VISIT, 0, s, n, &index)) return proper__trace_oom(ps);
        if (PROPER_PUSH(r->visits, r->nvisits, r->visits_cap, index)) return proper__trace_oom(ps);
    }
}

static int proper__trace_begin_record(proper__trace_parser *ps, proper_cursor at) {
    uint64_t id;
    size_t index;
    int rc;
    if (ps->record >= 0)
        return proper_cursor_error(&at, ps->err, PROPER_EPARSE,
                                   "R inside an open record (request %llu, opened at line %d, has no E)",
                                   (unsigned long long)ps->t->records[ps->record].id, ps->record_line);
    rc = proper__trace_unsigned(ps, "request id", (uint64_t)-1, &id);
    if (rc) return rc;
    if (proper__trace_open_record(ps->t, id, at.line, &index)) return proper__trace_oom(ps);
    ps->record = (long)index;
    ps->record_line = at.line;
    return PROPER_OK;
}

/* One non-empty, non-comment line. The kind is the first word. */
static int proper__trace_line(proper__trace_parser *ps) {
    proper_cursor at = ps->c;
    int kind = (unsigned char)*ps->c.p;
    int rc;
    while (ps->c.p < ps->c.end && *ps->c.p != ' ' && *ps->c.p != '\t' && !proper__trace_at_eol(&ps->c))
        proper_cursor_advance(&ps->c);
    if (ps->c.p - at.p != 1 || kind == 0 || !strchr("RESBLNTCV", kind)) {
        int n = (int)(ps->c.p - at.p), i;
        for (i = 0; i < n && i < 32; i++)
            if ((unsigned char)at.p[i] < 0x21 || (unsigned char)at.p[i] >= 0x7f)
                return proper_cursor_error(&at, ps->err, PROPER_EPARSE, "unknown record kind (%s in it)",
                                           proper__trace_show(at.p[i]).text);
        return proper_cursor_error(&at, ps->err, PROPER_EPARSE, "unknown record kind '%.*s'", n < 32 ? n : 32, at.p);
    }
    if (kind == 'R') {
        rc = proper__trace_begin_record(ps, at);
        return rc ? rc : proper__trace_finish_line(ps, "the request id");
    }
    if (ps->record < 0)
        return proper_cursor_error(&at, ps->err, PROPER_EPARSE, "'%c' outside a record (expected 'R id' first)",
                                   (char)kind);
    switch (kind) {
    case 'E': ps->record = -1; return proper__trace_finish_line(ps, "E");
    case 'S': rc = proper__trace_body_step(ps, at.line); break;
    case 'B': rc = proper__trace_body_branch(ps, at.line); break;
    case 'L': rc = proper__trace_body_loop(ps, at.line); break;
    case 'N': rc = proper__trace_body_counter(ps, at.line); break;
    case 'T': case 'C': rc = proper__trace_body_time(ps, kind, at); break;
    default: rc = proper__trace_body_visits(ps); break;
    }
    return rc ? rc : proper__trace_finish_line(ps, "the last field");
}

static int proper__trace_header(proper__trace_parser *ps) {
    static const char magic[] = "proper-trace";
    size_t n = sizeof magic - 1;
    uint64_t version;
    int rc;
    if ((size_t)(ps->c.end - ps->c.p) < n || memcmp(ps->c.p, magic, n) != 0 ||
        (ps->c.end - ps->c.p > (long)n && proper__trace_namechar(ps->c.p[n])))
        return proper_cursor_error(&ps->c, ps->err, PROPER_EPARSE,
                                   "not a proper trace: the first line must be 'proper-trace %d'", PROPER_TRACE_VERSION);
    while (n--) proper_cursor_advance(&ps->c);
    {
        proper_cursor at;
        rc = proper__trace_field_start(ps, "format version");
        if (rc) return rc;
        at = ps->c;
        rc = proper__trace_digits(ps, "format version", 1000000, &version);
        if (rc) return rc;
        if (version != PROPER_TRACE_VERSION)
            return proper_cursor_error(&at, ps->err, PROPER_EUNSUPPORTED,
                                       "trace format version %llu (this reader knows version %d)",
                                       (unsigned long long)version, PROPER_TRACE_VERSION);
    }
    return proper__trace_finish_line(ps, "the format version");
}

PROPER_API void proper_trace_init(proper_trace *t) { memset(t, 0, sizeof *t); }

/* Parse text into t, merging records by id; on failure t holds what came
 * before the error. */
static int proper__trace_parse_into(proper_trace *t, const char *text, size_t len, const char *file,
                                    proper_error *err) {
    proper__trace_parser ps;
    int rc;
    proper_skip_bom(&text, &len);
    ps.t = t;
    ps.err = err;
    ps.record = -1;
    ps.record_line = 0;
    proper_cursor_init(&ps.c, text, len, file);
    rc = proper__trace_header(&ps);
    while (!rc && ps.c.p < ps.c.end) {
        proper_cursor_skip_blanks(&ps.c);
        if (proper__trace_at_eol(&ps.c) || *ps.c.p == '#') {
            while (ps.c.p < ps.c.end && *ps.c.p != '\n') proper_cursor_advance(&ps.c);
            proper_cursor_advance(&ps.c);
            continue;
        }
        rc = proper__trace_line(&ps);
    }
    if (!rc && ps.record >= 0)
        rc = proper_error_set(err, PROPER_EPARSE, file, ps.record_line, 1,
                              "record of request %llu is not closed by 'E' before the end of the input",
                              (unsigned long long)t->records[ps.record].id);
    return rc;
}

PROPER_API int proper_trace_parse(proper_trace *out, const char *text, size_t len, const char *file,
                                  proper_error *err) {
    proper_trace fresh;
    int rc;
    proper_trace_init(&fresh);
    rc = proper__trace_parse_into(&fresh, text, len, file, err);
    if (rc) {
        proper_trace_free(&fresh);
        return rc;
    }
    proper_trace_free(out);
    *out = fresh;
    return PROPER_OK;
}

PROPER_API int proper_trace_parse_merge(proper_trace *t, const char *text, size_t len, const char *file,
                                        proper_error *err) {
    proper_trace fresh;
    size_t i;
    int rc;
    if (!t->nrecords) return proper_trace_parse(t, text, len, file, err);
    /* the text on its own first, then the one check that depends on t: T and
     * C at most once per request after merging; only then change t */
    proper_trace_init(&fresh);
    rc = proper__trace_parse_into(&fresh, text, len, file, err);
    for (i = 0; rc == PROPER_OK && i < fresh.nrecords; i++) {
        const proper_trace_record *r = &fresh.records[i];
        const proper_trace_record *old = proper_trace_find_record(t, r->id);
        if (old && ((r->service_ns >= 0.0 && old->service_ns >= 0.0) || (r->client_ns >= 0.0 && old->client_ns >= 0.0)))
            rc = proper_error_set(err, PROPER_EPARSE, file, r->line, 1,
                                  "request %llu has a %c line here and in the trace it is merged into",
                                  (unsigned long long)r->id, r->service_ns >= 0.0 && old->service_ns >= 0.0 ? 'T' : 'C');
    }
    proper_trace_free(&fresh);
    if (rc) return rc;
    return proper__trace_parse_into(t, text, len, file, err);
}

/* proper_read_file, then parse (merge: 1) or parse_merge. */
static int proper__trace_read(proper_trace *t, const char *path, int merge, proper_error *err) {
    char *text;
    size_t len;
    int rc = proper_read_file(path, &text, &len, err);
    if (rc) return rc;
    rc = merge ? proper_trace_parse_merge(t, text, len, path, err) : proper_trace_parse(t, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

PROPER_API int proper_trace_read(proper_trace *out, const char *path, proper_error *err) {
    return proper__trace_read(out, path, 0, err);
}

PROPER_API int proper_trace_read_merge(proper_trace *t, const char *path, proper_error *err) {
    return proper__trace_read(t, path, 1, err);
}

static void proper__trace_free_names(proper_trace_names *tab) {
    size_t i;
    for (i = 0; i < tab->n; i++) PROPER_FREE(tab->names[i]);
    PROPER_FREE(tab->names);
}

PROPER_API void proper_trace_free(proper_trace *t) {
    size_t i, j;
    for (i = 0; i < t->nrecords; i++) {
        PROPER_FREE(t->records[i].events);
        PROPER_FREE(t->records[i].visits);
    }
    PROPER_FREE(t->records);
    for (i = 0; i < t->nsteps; i++) {
        PROPER_FREE(t->steps[i].name);
        PROPER_FREE(t->steps[i].ns);
    }
    PROPER_FREE(t->steps);
    for (i = 0; i < t->nbranches; i++) {
        for (j = 0; j < t->branches[i].nchoices; j++) PROPER_FREE(t->branches[i].choices[j]);
        PROPER_FREE(t->branches[i].choices);
        PROPER_FREE(t->branches[i].counts);
        PROPER_FREE(t->branches[i].name);
    }
    PROPER_FREE(t->branches);
    for (i = 0; i < t->nloops; i++) {
        PROPER_FREE(t->loops[i].name);
        PROPER_FREE(t->loops[i].counts);
    }
    PROPER_FREE(t->loops);
    proper__trace_free_names(&t->counters);
    proper__trace_free_names(&t->locations);
    PROPER_FREE(t->id_slots);
    PROPER_FREE(t->name_slots);
    proper_trace_init(t);
}

PROPER_API const proper_trace_step_stats *proper_trace_find_step(const proper_trace *t, const char *name) {
    long i = proper__trace_lookup(t, PROPER_TRACE_STEP, 0, name);
    return i < 0 ? NULL : &t->steps[i];
}

PROPER_API const proper_trace_branch_stats *proper_trace_find_branch(const proper_trace *t, const char *name) {
    long i = proper__trace_lookup(t, PROPER_TRACE_BRANCH, 0, name);
    return i < 0 ? NULL : &t->branches[i];
}

PROPER_API const proper_trace_loop_stats *proper_trace_find_loop(const proper_trace *t, const char *name) {
    long i = proper__trace_lookup(t, PROPER_TRACE_LOOP, 0, name);
    return i < 0 ? NULL : &t->loops[i];
}

PROPER_API const proper_trace_record *proper_trace_find_record(const proper_trace *t, uint64_t id) {
    long i = proper__trace_record_index(t, id);
    return i < 0 ? NULL : &t->records[i];
}

PROPER_API size_t proper_trace_branch_count(const proper_trace_branch_stats *b, const char *choice) {
    size_t i;
    for (i = 0; i < b->nchoices; i++)
        if (strcmp(b->choices[i], choice) == 0) return b->counts[i];
    return 0;
}

PROPER_API long proper_trace_location_index(const proper_trace *t, const char *name) {
    return proper__trace_lookup(t, PROPER_TRACE_VISIT, 0, name);
}

PROPER_API long proper_trace_counter_index(const proper_trace *t, const char *name) {
    return proper__trace_lookup(t, PROPER_TRACE_COUNTER, 0, name);
}

PROPER_API double proper_trace_record_counter(const proper_trace_record *r, size_t counter) {
    double sum = 0.0;
    size_t i;
    for (i = 0; i < r->nevents; i++)
        if (r->events[i].kind == PROPER_TRACE_COUNTER && r->events[i].name == counter) sum += r->events[i].value;
    return sum;
}

static int proper__trace_cmp_id(const void *a, const void *b) {
    uint64_t x = ((const proper_trace_record *)a)->id, y = ((const proper_trace_record *)b)->id;
    return x < y ? -1 : x > y;
}

PROPER_API int proper_trace_sort(proper_trace *t, proper_error *err) {
    if (t->nrecords < 2) return PROPER_OK;
    qsort(t->records, t->nrecords, sizeof *t->records, proper__trace_cmp_id);
    if (proper__trace_rehash_ids(t, t->id_slots_cap))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory sorting a trace");
    return PROPER_OK;
}

/* Locations per V line when writing (V lines concatenate when read). */
#define PROPER__TRACE_VISITS_PER_LINE 32

static void proper__trace_write_record(const proper_trace *t, const proper_trace_record *r, FILE *out) {
    size_t i;
    fprintf(out, "R %llu\n", (unsigned long long)r->id);
    for (i = 0; i < r->nevents; i++) {
        const proper_trace_event *e = &r->events[i];
        switch (e->kind) {
        case PROPER_TRACE_STEP: fprintf(out, "S %s %.17g\n", t->steps[e->name].name, e->value); break;
        case PROPER_TRACE_BRANCH:
            fprintf(out, "B %s %s\n", t->branches[e->name].name, t->branches[e->name].choices[e->choice]);
            break;
        case PROPER_TRACE_LOOP: fprintf(out, "L %s %.0f\n", t->loops[e->name].name, e->value); break;
        default: fprintf(out, "N %s %.0f\n", t->counters.names[e->name], e->value); break;
        }
    }
    for (i = 0; i < r->nvisits; i++) {
        fputs(i % PROPER__TRACE_VISITS_PER_LINE ? " " : "V ", out);
        fputs(t->locations.names[r->visits[i]], out);
        if (i % PROPER__TRACE_VISITS_PER_LINE == PROPER__TRACE_VISITS_PER_LINE - 1 || i + 1 == r->nvisits)
            fputc('\n', out);
    }
    if (r->service_ns >= 0.0) fprintf(out, "T %.17g\n", r->service_ns);
    if (r->client_ns >= 0.0) fprintf(out, "C %.17g\n", r->client_ns);
    fputs("E\n", out);
}

PROPER_API int proper_trace_write(const proper_trace *t, FILE *out, const char *comment, proper_error *err) {
    size_t i;
    fprintf(out, "proper-trace %d\n", PROPER_TRACE_VERSION);
    while (comment && *comment) {
        const char *nl = strchr(comment, '\n');
        size_t n = nl ? (size_t)(nl - comment) : strlen(comment);
        fprintf(out, "# %.*s\n", (int)n, comment);
        comment += n + (nl ? 1 : 0);
    }
    for (i = 0; i < t->nrecords; i++) proper__trace_write_record(t, &t->records[i], out);
    if (fflush(out) != 0 || ferror(out))
        return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "error writing the trace");
    return PROPER_OK;
}

/* ---- recorder (POSIX) ---- */
#ifndef PROPER_TRACE_NO_RECORDER
#include <pthread.h>
#include <time.h>

struct proper_trace_writer {
    FILE *out;
    pthread_mutex_t lock; /* guards everything below and writes to `out` */
    char **names;
    size_t *lens;
    size_t nnames, cap;   /* names and lens share the capacity */
    int status;           /* first write error */
};

/* Default and headroom of the per-recorder event buffer. */
#define PROPER__TRACE_FLUSH_DEFAULT 4096
#define PROPER__TRACE_SLOT_HEADROOM 256

PROPER_API int64_t proper_trace_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
}

PROPER_API int proper_trace_writer_open(proper_trace_writer **w, FILE *out, proper_error *err) {
    proper_trace_writer *nw;
    *w = NULL;
    nw = (proper_trace_writer *)proper_calloc(1, sizeof *nw);
    if (!nw) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory opening a trace writer");
    if (pthread_mutex_init(&nw->lock, NULL) != 0) {
        PROPER_FREE(nw);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "cannot create the trace writer's mutex");
    }
    nw->out = out;
    if (fprintf(out, "proper-trace %d\n", PROPER_TRACE_VERSION) < 0) {
        pthread_mutex_destroy(&nw->lock);
        PROPER_FREE(nw);
        return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "cannot write the trace header");
    }
    *w = nw;
    return PROPER_OK;
}

static int proper__trace_valid_name(const char *name, size_t *len) {
    size_t n = 0;
    while (name[n] && n <= PROPER_TRACE_NAME_MAX) {
        if (!proper__trace_namechar(name[n])) return 0;
        n++;
    }
    *len = n;
    return n > 0 && n <= PROPER_TRACE_NAME_MAX && name[n] == '\0';
}

/* Append a registered name; caller holds the lock. */
static int proper__trace_writer_add(proper_trace_writer *w, const char *name, size_t n) {
    size_t cap_names = w->cap, cap_lens = w->cap;
    char *copy;
    if (w->nnames >= 2147483647u) return PROPER_ELIMIT;
    if (proper_reserve(&w->names, &cap_names, w->nnames + 1, sizeof *w->names) ||
        proper_reserve(&w->lens, &cap_lens, w->nnames + 1, sizeof *w->lens))
        return PROPER_ENOMEM;
    w->cap = cap_names;
    copy = proper_strndup(name, n);
    if (!copy) return PROPER_ENOMEM;
    w->names[w->nnames] = copy;
    w->lens[w->nnames] = n;
    w->nnames++;
    return PROPER_OK;
}

PROPER_API int proper_trace_writer_name(proper_trace_writer *w, const char *name, proper_error *err) {
    size_t n, i;
    int id = -1, rc = PROPER_OK;
    if (!proper__trace_valid_name(name, &n))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "invalid trace name '%.64s' (1 to %d of A-Z a-z 0-9 _ . : / @ + -)", name,
                                PROPER_TRACE_NAME_MAX);
    pthread_mutex_lock(&w->lock);
    for (i = 0; i < w->nnames && id < 0; i++)
        if (w->lens[i] == n && memcmp(w->names[i], name, n) == 0) id = (int)i;
    if (id < 0) {
        rc = proper__trace_writer_add(w, name, n);
        if (!rc) id = (int)(w->nnames - 1);
    }
    pthread_mutex_unlock(&w->lock);
    if (rc) return proper_error_set(err, rc, NULL, 0, 0, "cannot register trace name '%s': %s", name,
                                    proper_result_string(rc));
    return id;
}

PROPER_API int proper_trace_writer_comment(proper_trace_writer *w, const char *text, proper_error *err) {
    int rc = PROPER_OK;
    if (strchr(text, '\n') || strchr(text, '\r'))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a trace comment must be one line");
    pthread_mutex_lock(&w->lock);
    if (fprintf(w->out, "# %s\n", text) < 0) rc = w->status = PROPER_EIO;
    pthread_mutex_unlock(&w->lock);
    if (rc) return proper_error_set(err, rc, NULL, 0, 0, "cannot write to the trace file");
    return PROPER_OK;
}

PROPER_API int proper_trace_writer_close(proper_trace_writer *w, proper_error *err) {
    int rc;
    size_t i;
    if (!w) return PROPER_OK;
    rc = w->status;
    if (fflush(w->out) != 0 || ferror(w->out)) rc = PROPER_EIO;
    for (i = 0; i < w->nnames; i++) PROPER_FREE(w->names[i]);
    PROPER_FREE(w->names);
    PROPER_FREE(w->lens);
    pthread_mutex_destroy(&w->lock);
    PROPER_FREE(w);
    if (rc) return proper_error_set(err, rc, NULL, 0, 0, "error writing the trace file");
    return PROPER_OK;
}

PROPER_API int proper_trace_recorder_init(proper_trace_recorder *r, proper_trace_writer *w, size_t flush_events,
                                          proper_error *err) {
    memset(r, 0, sizeof *r);
    r->writer = w;
    r->flush_events = flush_events ? flush_events : PROPER__TRACE_FLUSH_DEFAULT;
    if (proper_reserve(&r->slots, &r->cap, r->flush_events + PROPER__TRACE_SLOT_HEADROOM, sizeof *r->slots))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for a trace recorder");
    return PROPER_OK;
}

/* Append one slot; the buffer grows while a record is open. */
static int proper__trace_push(proper_trace_recorder *r, int32_t kind, int32_t name, uint64_t value) {
    proper_trace_slot *s;
    if (r->len == r->cap && proper_reserve(&r->slots, &r->cap, r->len + 1, sizeof *r->slots))
        return r->status = PROPER_ENOMEM;
    s = &r->slots[r->len++];
    s->kind = kind;
    s->name = name;
    s->value = value;
    return PROPER_OK;
}

/* A measurement inside the open record; `name` and `value` checked >= 0. */
static int proper__trace_measure(proper_trace_recorder *r, int32_t kind, int name, int64_t value) {
    if (r->status) return r->status;
    if (!r->in_record) return r->status = PROPER_ESTATE;
    if (name < -1 || value < 0) return r->status = PROPER_EINVAL;
    return proper__trace_push(r, kind, (int32_t)name, (uint64_t)value);
}

PROPER_API int proper_trace_begin(proper_trace_recorder *r, uint64_t id) {
    if (r->status) return r->status;
    if (r->in_record) return r->status = PROPER_ESTATE;
    r->record_start = r->len;
    r->in_record = 1;
    return proper__trace_push(r, 'R', -1, id);
}

PROPER_API int proper_trace_step(proper_trace_recorder *r, int step, int64_t ns) {
    return proper__trace_measure(r, PROPER_TRACE_STEP, step < 0 ? -2 : step, ns);
}

PROPER_API int proper_trace_branch(proper_trace_recorder *r, int branch, int choice) {
    return proper__trace_measure(r, PROPER_TRACE_BRANCH, branch < 0 ? -2 : branch, choice);
}

PROPER_API int proper_trace_loop(proper_trace_recorder *r, int loop, int64_t iterations) {
    return proper__trace_measure(r, PROPER_TRACE_LOOP, loop < 0 ? -2 : loop, iterations);
}

PROPER_API int proper_trace_count(proper_trace_recorder *r, int counter, int64_t amount) {
    return proper__trace_measure(r, PROPER_TRACE_COUNTER, counter < 0 ? -2 : counter, amount);
}

PROPER_API int proper_trace_service(proper_trace_recorder *r, int64_t ns) {
    return proper__trace_measure(r, PROPER_TRACE_SERVICE, -1, ns);
}

PROPER_API int proper_trace_client(proper_trace_recorder *r, int64_t ns) {
    return proper__trace_measure(r, PROPER_TRACE_CLIENT, -1, ns);
}

PROPER_API int proper_trace_visit(proper_trace_recorder *r, int location) {
    return proper__trace_measure(r, PROPER_TRACE_VISIT, location < 0 ? -2 : location, 0);
}

/* Decimal digits of v at p; returns the number written (at most 20). */
static size_t proper__trace_utoa(char *p, uint64_t v) {
    char tmp[20];
    size_t n = 0, i;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (i = 0; i < n; i++) p[i] = tmp[n - 1 - i];
    return n;
}

static int proper__trace_name_ok(const proper_trace_writer *w, int32_t name, uint64_t value, int kind) {
    if (kind == 'R' || kind == 'E' || kind == PROPER_TRACE_SERVICE || kind == PROPER_TRACE_CLIENT) return 1;
    if (name < 0 || (size_t)name >= w->nnames) return 0;
    return kind != PROPER_TRACE_BRANCH || value < (uint64_t)w->nnames;
}

/* Format slots [0, n) as text into r->text; caller holds the writer's
 * lock (the name table may grow otherwise). Returns the text length, or 0
 * with r->status set. V slots in a row share a line (at most
 * PROPER__TRACE_VISITS_PER_LINE per line). */
static size_t proper__trace_format(proper_trace_recorder *r, size_t n) {
    const proper_trace_writer *w = r->writer;
    size_t i, len = 0, visits_on_line = 0;
    for (i = 0; i < n; i++) {
        const proper_trace_slot *s = &r->slots[i];
        /* worst case: letter, 2 names, 20 digits, 3 blanks, newline */
        size_t need = len + 2 * PROPER_TRACE_NAME_MAX + 32;
        char *p;
        if (!proper__trace_name_ok(w, s->name, s->value, s->kind)) {
            r->status = PROPER_EINVAL;
            return 0;
        }
        if (need > r->text_cap && proper_reserve(&r->text, &r->text_cap, need, 1)) {
            r->status = PROPER_ENOMEM;
            return 0;
        }
        p = r->text + len;
        if (s->kind == PROPER_TRACE_VISIT) {
            if (visits_on_line == PROPER__TRACE_VISITS_PER_LINE) { *p++ = '\n'; visits_on_line = 0; }
            *p++ = visits_on_line ? ' ' : 'V';
            if (!visits_on_line) *p++ = ' ';
            memcpy(p, w->names[s->name], w->lens[s->name]);
            p += w->lens[s->name];
            visits_on_line++;
            if (i + 1 == n || r->slots[i + 1].kind != PROPER_TRACE_VISIT) { *p++ = '\n'; visits_on_line = 0; }
            len = (size_t)(p - r->text);
            continue;
        }
        *p++ = (char)s->kind;
        if (s->kind != 'E') *p++ = ' ';
        if (s->name >= 0) {
            memcpy(p, w->names[s->name], w->lens[s->name]);
            p += w->lens[s->name];
            *p++ = ' ';
        }
        if (s->kind == PROPER_TRACE_BRANCH) {
            memcpy(p, w->names[s->value], w->lens[s->value]);
            p += w->lens[s->value];
        } else if (s->kind != 'E') {
            p += proper__trace_utoa(p, s->value);
        }
        *p++ = '\n';
        len = (size_t)(p - r->text);
    }
    return len;
}

/* Write out the complete records among the buffered slots. */
static int proper__trace_flush(proper_trace_recorder *r) {
    proper_trace_writer *w = r->writer;
    size_t n = r->in_record ? r->record_start : r->len, len;
    if (r->status || n == 0) return r->status;
    pthread_mutex_lock(&w->lock);
    len = proper__trace_format(r, n);
    if (len && fwrite(r->text, 1, len, w->out) != len) r->status = w->status = PROPER_EIO;
    pthread_mutex_unlock(&w->lock);
    if (r->status) return r->status;
    memmove(r->slots, r->slots + n, (r->len - n) * sizeof *r->slots);
    r->len -= n;
    if (r->in_record) r->record_start = 0;
    return PROPER_OK;
}

PROPER_API int proper_trace_end(proper_trace_recorder *r) {
    int rc;
    if (r->status) return r->status;
    if (!r->in_record) return r->status = PROPER_ESTATE;
    rc = proper__trace_push(r, 'E', -1, 0);
    if (rc) return rc;
    r->in_record = 0;
    return r->len >= r->flush_events ? proper__trace_flush(r) : PROPER_OK;
}

static int proper__trace_recorder_error(const proper_trace_recorder *r, proper_error *err) {
    const char *why;
    switch (r->status) {
    case PROPER_ESTATE: why = "an event outside begin/end, or begin inside an open record"; break;
    case PROPER_EINVAL: why = "a negative value or an unregistered name id"; break;
    case PROPER_EIO: why = "writing the trace file failed"; break;
    default: why = proper_result_string(r->status); break;
    }
    return proper_error_set(err, r->status, NULL, 0, 0, "trace recorder: %s", why);
}

PROPER_API int proper_trace_recorder_flush(proper_trace_recorder *r, proper_error *err) {
    if (proper__trace_flush(r)) return proper__trace_recorder_error(r, err);
    return PROPER_OK;
}

PROPER_API int proper_trace_recorder_free(proper_trace_recorder *r, proper_error *err) {
    int rc;
    if (r->in_record) {
        r->len = r->record_start;
        r->in_record = 0;
        proper__trace_flush(r);
        if (!r->status) r->status = PROPER_ESTATE;
    } else {
        proper__trace_flush(r);
    }
    rc = r->status ? proper__trace_recorder_error(r, err) : PROPER_OK;
    PROPER_FREE(r->slots);
    PROPER_FREE(r->text);
    memset(r, 0, sizeof *r);
    return rc;
}

#endif /* PROPER_TRACE_NO_RECORDER */

#endif /* PROPER_TRACE_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
