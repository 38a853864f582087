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
 *     count     = digit , { digit } ;                (* 0 .. 2^63-1 *)
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
 * C, a loop count above PROPER_TRACE_LOOP_MAX.
 *
 * ==== Reading =============================================================
 *
 *     proper_trace t;
 *     proper_error err;
 *     proper_trace_init(&t);
 *     if (proper_trace_load(&t, "data/webserver/sequence.trace", &err)) {
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
#define PROPER_TRACE_NAME_MAX 255
/* Largest loop iteration count the reader accepts: the histogram is a dense
 * array indexed by count, so a corrupt huge count must not allocate
 * gigabytes. */
#define PROPER_TRACE_LOOP_MAX 1048576

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

/* Parse trace text and add it to `t` (records with an id already in `t` are
 * merged into it). `file` names the text in errors (may be NULL). On failure
 * `err` holds file:line:col and `t` holds whatever came before the error: it
 * stays valid and must still be freed, but is normally discarded. */
PROPER_API int proper_trace_parse(proper_trace *t, const char *text, size_t len,
                                  const char *file, proper_error *err);

/* proper_read_file + proper_trace_parse. */
PROPER_API int proper_trace_load(proper_trace *t, const char *path, proper_error *err);

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

/* Write `t` in the text format (header, then each record: its events in
 * order, its V line if any, T, C, E). Parsing the output gives back an
 * equal trace; durations are written with enough digits to round-trip. */
PROPER_API int proper_trace_write(const proper_trace *t, FILE *out, proper_error *err);

/* ---- Recorder (POSIX) ------------------------------------------------ */
#ifndef PROPER_TRACE_NO_RECORDER

/* The shared side of recording: the output file, the mutex that serialises
 * flushes, the registered names. Opaque. */
typedef struct proper_trace_writer proper_trace_writer;

/* One buffered event (private layout; 16 bytes). */
typedef struct proper_trace_slot {
    int32_t kind;  /* proper_trace_kind letter, or 'R' / 'E' */
    int32_t name;  /* registered name id (choice id is in value for B) */
    int64_t value;
} proper_trace_slot;

/* A per-thread recorder. The caller owns it (stack, thread struct, ...);
 * only one thread may use a recorder at a time. Members are private. */
typedef struct proper_trace_recorder {
    proper_trace_writer *writer;
    proper_trace_slot *slots;
    size_t len, cap;      /* buffered events */
    size_t flush_events;  /* flush when a record ends with this many buffered */
    int in_record;
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
