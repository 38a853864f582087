/* sim.h — simulation models of multithreaded programs (Tarvo & Reiss,
 * "Automated Analysis of Multithreaded Programs for Performance Modeling",
 * ASE 2014).
 *
 * WHAT IT DOES
 *   A discrete-event simulator of a program's threads with the paper's three
 *   tiers (§3):
 *   - upper tier: task queues (FIFO, bounded or unbounded) fed by an open
 *     workload (a source with an inter-arrival distribution) or a closed one
 *     (N clients, each issuing one task, waiting for it to be done, thinking);
 *     thread pools are the service nodes;
 *   - middle tier: each pool's threads walk a probabilistic call graph (PCG)
 *     of code fragments (CFs): computation (cpu), disk I/O (io), pure delay,
 *     synchronisation, queue get/put (the paper's c_in/c_out) and done (the
 *     task leaves the program). After a CF the next one is drawn with the
 *     edge probabilities delta (§3, eq. 1);
 *   - lower tier: CPU cores under an OS-scheduler model (round robin with a
 *     time slice and one run queue, run-to-completion FIFO, or processor
 *     sharing), a disk with FIFO service and several servers, and locks with
 *     their semantics: mutex, read-write lock (FIFO, readers share), counting
 *     semaphore, condition variable (wait releases and re-acquires its
 *     mutex, signal/broadcast; a signal with no waiter is lost) and cyclic
 *     barrier. get, lock, rlock, wlock, wait and cwait take a timeout with an
 *     `else` node: the paper's c_in^fetch / c_in^nofetch split (§4.3.1).
 *   An io CF issues k disk requests, k drawn from its count distribution:
 *   k = 0 is a page-cache hit (§3, the paper's k); each request is served
 *   FIFO by the disk with the CF's service-time distribution. A loop node
 *   (§4.3.1's explicit loops) runs its body a counted number of times.
 *
 * THE MODEL FILE (one statement per line; '#' starts a comment; names are
 * [A-Za-z_][A-Za-z0-9_.-]*; times in seconds; every number is a decimal)
 *   model    := 'proper-sim' '1' NL  stmt*
 *   stmt     := 'cpu' 'cores' INT ('quantum' NUM | 'ps' | 'fifo') ['wakeup' NUM]
 *             | 'disk' 'servers' INT
 *             | 'queue' NAME ['capacity' INT]                (0 = unbounded)
 *             | 'lock' NAME ('mutex' | 'rwlock' | 'cond' | 'semaphore' INT
 *                            | 'barrier' INT | 'barrier' 'pool' NAME)
 *             | 'source' NAME 'open' QUEUE 'interarrival' DIST ['count' INT]
 *                 ['latency' NUM]
 *             | 'source' NAME 'closed' QUEUE 'clients' INT 'think' DIST
 *                 ['latency' NUM]
 *             | 'pool' NAME 'threads' INT NL node+ 'end'
 *   node     := NAME ':' op [timeout] ['->' NAME [NUM] (',' NAME NUM)*]
 *   op       := 'cpu' DIST | 'delay' DIST | 'io' DIST ['k' DIST] | 'nop'
 *             | 'get' QUEUE | 'put' QUEUE | 'done'
 *             | 'lock' L | 'unlock' L | 'rlock' L | 'wlock' L
 *             | 'wait' SEM | 'post' SEM | 'await' BARRIER
 *             | 'cwait' COND MUTEX | 'signal' COND | 'broadcast' COND
 *             | 'loop' DIST 'do' NAME
 *   timeout  := 'timeout' NUM 'else' NAME     (get, lock, rlock, wlock, wait,
 *                                              cwait only)
 *   DIST     := 'const(' V ')' | 'exp(' MEAN ')' | 'uniform(' A ',' B ')'
 *             | 'erlang(' K ',' MEAN ')' | 'empirical(' V ':' W (',' V ':' W)* ')'
 *   The first node of a pool is where its threads start. A node without
 *   '->' ends the thread. One successor may omit its probability (1); with
 *   several, the probabilities must sum to 1. Every name is declared before
 *   use except node names, which may be used before their line in the same
 *   pool. A barrier of 'pool P' has as many parties as pool P has threads.
 *   A loop node's DIST is its iteration count (rounded to an integer >= 0).
 *   The printer writes the same grammar; parse(format(m)) == m exactly.
 *
 * SEMANTICS
 *   A task is created by a source (or by a `put` of a thread that holds
 *   none, e.g. a producer filling a queue) and carries its creation time.
 *   A thread that finishes a CPU fragment keeps its core through the
 *   nodes that take no time and into its next CPU fragment, with what is
 *   left of its time slice (an OS runs a thread until it waits or its slice
 *   is over); it gives the core up when it waits (for the disk, a delay, a
 *   lock, a task), ends, or has used its slice while others wait for a core.
 *   A task that a thread puts to a thread already waiting in `get` wakes
 *   it after the model's `wakeup` latency (a task found in the queue is
 *   taken at once; a source's task wakes its getter at once: a program
 *   records an arrival when its own thread has taken it).
 *   A thread that reaches a loop node it is not inside draws the count k
 *   and enters the loop; each time it reaches the node with iterations
 *   left it goes to the body (`do` NAME), whose path must lead back to the
 *   node; with none left it leaves the loop for the node's successors. A
 *   thread keeps a stack of the loops it is inside (at most
 *   PROPER_SIM_MAX_LOOP_DEPTH, nested); reaching an outer loop's node
 *   leaves the loops inside it. A thread holds at most one task: `get` takes one (dropping one it still
 *   held), `put` hands it on, `done` completes it and records its response
 *   time (now - creation, plus its source's latency); a `done` without a task counts a completion with
 *   no response time (a round of a barrier loop). A closed client thinks
 *   after its task is done and then issues the next; tasks that find their
 *   queue full are dropped (counted). Waiters are served FIFO; a released
 *   mutex is handed to its first waiter. A thread that unlocks a lock it
 *   does not hold (or re-locks a mutex it holds) is a model error reported
 *   by the run. At most PROPER_SIM_MAX_INSTANT nodes are executed between
 *   two events: a cycle without a timed CF, in one thread or through
 *   several (a put waking a get that puts back), is reported, never spun
 *   forever.
 *
 * OUTPUTS AND STATISTICS
 *   Each replication runs for `horizon` simulated seconds from an empty
 *   system with its own random stream (the seed's stream jumped 2^128 draws
 *   per replication: proper_rng_jump), so runs are deterministic for a seed.
 *   Measurements start after a warm-up, the same for every replication: a
 *   fixed time rounded up to a multiple of horizon / PROPER_SIM_BUCKETS,
 *   or (warmup < 0) the MSER truncation point (White 1997) of the series
 *   of mean response times per bucket (completions per bucket for a model
 *   without response times) summed over all replications. That takes a
 *   first pass over the replications, whose streams are then replayed to
 *   measure: twice the work, but one noisy replication cannot choose its
 *   own cut (MSER on single short replications of M/M/1 cut high
 *   excursions and biased the mean response time low by about 2%, outside
 *   the 99% intervals, in this module's tests). Per replication: throughput (completions per
 *   second), mean and p-quantile response time, CPU utilisation (busy cores
 *   / cores) and each core's busy share (up to PROPER_SIM_CORE_STATS_MAX
 *   cores; a thread that finds a free core takes the one idle longest, a
 *   core freed for the run queue's next thread passes to it, processor
 *   sharing spreads the busy share evenly), disk utilisation (busy servers / servers), per lock the mean
 *   number of holders (mutex, rwlock, semaphore) or waiters (cond,
 *   barrier), per queue the mean length. Every output is reported with a
 *   Student-t confidence interval over the replications (stats.h), at the
 *   level asked for; with one replication the interval is NaN.
 *
 * LIMITS
 *   No network model beyond a source's constant latency, no memory model
 *   (memory work is CPU time, as in the paper §6); one run queue shared by
 *   all cores (no affinity, no priorities); the wake-up latency is one
 *   constant, for hand-offs through queues only; the lock models are exact
 *   semantics, not statistical approximations of them.
 *   Building a model from a trace: see the section of that name below.
 *
 * Tunables (define before including): PROPER_SIM_BUCKETS,
 * PROPER_SIM_MAX_INSTANT, PROPER_SIM_PROB_TOL, PROPER_SIM_MAX_THREADS,
 * PROPER_SIM_CORE_STATS_MAX, PROPER_SIM_MAX_LOOP_DEPTH,
 * PROPER_SIM_MAX_CLIENTS, PROPER_SIM_DEFAULT_QUANTUM,
 * PROPER_SIM_RECORDER_BUFFER, PROPER_SIM_BUILD_MAX_NODES; define
 * PROPER_SIM_NO_RECORDER to leave the recorder (POSIX clocks and threads)
 * out.
 */
#ifndef PROPER_SIM_H
#define PROPER_SIM_H

#include "core.h"
#include "stats.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Warm-up and utilisation integrals are kept at this many equally spaced
 * instants per replication (the warm-up is rounded up to one of them). */
#ifndef PROPER_SIM_BUCKETS
#define PROPER_SIM_BUCKETS 200
#endif
/* Most zero-time steps (PCG nodes executed, over all threads) between two
 * events before the run reports a zero-time cycle. */
#ifndef PROPER_SIM_MAX_INSTANT
#define PROPER_SIM_MAX_INSTANT 1000000
#endif
/* Successor probabilities of a node must sum to 1 within this. */
#ifndef PROPER_SIM_PROB_TOL
#define PROPER_SIM_PROB_TOL 1e-6
#endif
/* Most threads (summed over pools) a model may ask for. */
#ifndef PROPER_SIM_MAX_THREADS
#define PROPER_SIM_MAX_THREADS 100000
#endif
/* Per-core utilisation is kept for models with at most this many cores. */
#ifndef PROPER_SIM_CORE_STATS_MAX
#define PROPER_SIM_CORE_STATS_MAX 256
#endif
/* Most loops a thread may be inside at once (loop nodes nested). */
#ifndef PROPER_SIM_MAX_LOOP_DEPTH
#define PROPER_SIM_MAX_LOOP_DEPTH 16
#endif
/* Most closed clients (summed over sources) a model may ask for. */
#ifndef PROPER_SIM_MAX_CLIENTS
#define PROPER_SIM_MAX_CLIENTS 10000000
#endif

#define PROPER_SIM_NONE ((size_t)-1)

/* ---- Distributions ------------------------------------------------------- */

typedef enum proper_sim_dist_kind {
    PROPER_SIM_CONST,     /* a = the value */
    PROPER_SIM_EXP,       /* a = the mean */
    PROPER_SIM_UNIFORM,   /* [a, b) */
    PROPER_SIM_ERLANG,    /* k = round(b) phases, a = the mean */
    PROPER_SIM_EMPIRICAL  /* values[i] with weight weights[i] */
} proper_sim_dist_kind;

typedef struct proper_sim_dist {
    proper_sim_dist_kind kind;
    double a, b;
    size_t n;
    double *values, *weights;
} proper_sim_dist;

PROPER_API void proper_sim_dist_init(proper_sim_dist *d); /* const(0) */
PROPER_API void proper_sim_dist_free(proper_sim_dist *d);
PROPER_API int proper_sim_dist_copy(proper_sim_dist *out, const proper_sim_dist *d, proper_error *err);
/* The mean of the distribution (NaN for an empty empirical one). */
PROPER_API double proper_sim_dist_mean(const proper_sim_dist *d);
/* Multiply every value by f > 0 (the mean scales by f). */
PROPER_API void proper_sim_dist_scale(proper_sim_dist *d, double f);

/* ---- The model ------------------------------------------------------------ */

typedef enum proper_sim_op {
    PROPER_SIM_OP_NOP, PROPER_SIM_OP_CPU, PROPER_SIM_OP_DELAY, PROPER_SIM_OP_IO,
    PROPER_SIM_OP_GET, PROPER_SIM_OP_PUT, PROPER_SIM_OP_DONE,
    PROPER_SIM_OP_LOCK, PROPER_SIM_OP_UNLOCK, PROPER_SIM_OP_RLOCK, PROPER_SIM_OP_WLOCK,
    PROPER_SIM_OP_WAIT, PROPER_SIM_OP_POST, PROPER_SIM_OP_AWAIT,
    PROPER_SIM_OP_CWAIT, PROPER_SIM_OP_SIGNAL, PROPER_SIM_OP_BROADCAST,
    PROPER_SIM_OP_LOOP
} proper_sim_op;

typedef struct proper_sim_node {
    char *name;
    proper_sim_op op;
    proper_sim_dist dist;   /* cpu, delay: the time; io: each request's service time;
                               loop: the iteration count (rounded) */
    proper_sim_dist count;  /* io: the number k of disk requests (rounded) */
    int has_count;          /* io: count given (else k = 1) */
    size_t obj;             /* queue or lock index */
    size_t obj2;            /* cwait: the mutex */
    double timeout;         /* INFINITY: none */
    size_t on_timeout;      /* node taken after a timeout */
    size_t body;            /* loop: the first node of its body (else NONE) */
    size_t n_next;
    size_t *next;           /* successor nodes */
    double *prob;           /* their probabilities */
} proper_sim_node;

typedef struct proper_sim_pool {
    char *name;
    size_t threads;
    size_t n_nodes;
    proper_sim_node *nodes; /* nodes[0] is where threads start */
} proper_sim_pool;

typedef enum proper_sim_lock_kind {
    PROPER_SIM_MUTEX, PROPER_SIM_RWLOCK, PROPER_SIM_SEMAPHORE, PROPER_SIM_COND, PROPER_SIM_BARRIER
} proper_sim_lock_kind;

typedef struct proper_sim_lock {
    char *name;
    proper_sim_lock_kind kind;
    size_t count;  /* semaphore: initial permits; barrier: parties */
    size_t pool;   /* barrier: parties = this pool's threads (NONE: count) */
} proper_sim_lock;

typedef struct proper_sim_queue {
    char *name;
    size_t capacity; /* 0: unbounded */
} proper_sim_queue;

typedef struct proper_sim_source {
    char *name;
    int closed;           /* 0: open, 1: closed */
    size_t queue;
    proper_sim_dist dist; /* open: inter-arrival time; closed: think time */
    size_t count;         /* open: most arrivals (0: no limit); closed: clients */
    double latency;       /* seconds each task spends outside the program (the
                             network): added to its response time, uses no
                             thread, core or queue (0: none) */
} proper_sim_source;

typedef struct proper_sim_model {
    size_t cores;
    double quantum;      /* time slice; 0: processor sharing; INFINITY: FIFO */
    double wakeup;       /* seconds from a thread's put to a thread waiting in
                            get until that thread is ready to run (the OS's
                            wake-up latency; 0: at once) */
    size_t disks;        /* disk servers (0: no disk) */
    size_t n_queues, n_locks, n_pools, n_sources;
    proper_sim_queue *queues;
    proper_sim_lock *locks;
    proper_sim_pool *pools;
    proper_sim_source *sources;
} proper_sim_model;

/* The time slice (seconds) of a new or built model: 4 ms, a common
 * scheduler tick. */
#ifndef PROPER_SIM_DEFAULT_QUANTUM
#define PROPER_SIM_DEFAULT_QUANTUM 0.004
#endif
/* The empty model: one core, time slice PROPER_SIM_DEFAULT_QUANTUM, one
 * disk, nothing else. Allocates nothing. */
PROPER_API void proper_sim_init(proper_sim_model *m);
PROPER_API void proper_sim_free(proper_sim_model *m);
PROPER_API int proper_sim_copy(proper_sim_model *out, const proper_sim_model *m, proper_error *err);
/* 1 when the two models are the same (names, numbers bit for bit). */
PROPER_API int proper_sim_equal(const proper_sim_model *a, const proper_sim_model *b);
/* Check indices, counts, probabilities and distributions. */
PROPER_API int proper_sim_validate(const proper_sim_model *m, proper_error *err);

/* Model file (grammar above). */
PROPER_API int proper_sim_parse(proper_sim_model *out, const char *text, size_t len, const char *name,
                                proper_error *err);
PROPER_API int proper_sim_read(proper_sim_model *out, const char *path, proper_error *err);
PROPER_API int proper_sim_format(const proper_sim_model *m, proper_strbuf *b, proper_error *err);
PROPER_API int proper_sim_write(const proper_sim_model *m, FILE *f, proper_error *err);

/* What-if: set one configuration parameter, "key=value":
 *   cores=N  quantum=T|ps|fifo  wakeup=T  disks=N
 *   threads.POOL=N  (or POOL=N)   capacity.QUEUE=N   permits.LOCK=N
 *   rate.SOURCE=R (or rate=R: every open source) sets the arrival rate
 *     (scales the inter-arrival distribution to mean 1/R)
 *   clients.SOURCE=N (or clients=N)   think.SOURCE=T (or think=T): mean
 *   workers=N: threads of every pool that gets tasks from a queue and
 *     completes them (has get and done nodes; an acceptor that only passes
 *     tasks on is not a worker) */
PROPER_API int proper_sim_set(proper_sim_model *m, const char *assignment, proper_error *err);

/* ---- Running ---------------------------------------------------------------- */

typedef struct proper_sim_opts {
    double horizon;           /* simulated seconds per replication */
    double warmup;            /* seconds; < 0: MSER over the replications */
    size_t replications;      /* >= 1 */
    double level;             /* confidence level of every interval */
    double quantile;          /* the response-time quantile reported */
    uint64_t seed;
    unsigned long long max_events; /* per replication (0: no limit) */
} proper_sim_opts;

/* horizon 1000, warmup -1 (MSER), 10 replications, level 0.95,
 * quantile 0.95, seed 1, max_events 0. */
PROPER_API proper_sim_opts proper_sim_opts_default(void);

typedef struct proper_sim_result {
    size_t replications;
    proper_interval throughput;   /* completions per second */
    proper_interval response;     /* mean response time */
    proper_interval response_q;   /* the opts.quantile of the response time */
    proper_interval cpu_util;     /* busy cores / cores */
    size_t n_cores;               /* cores with a figure below (0 above PROPER_SIM_CORE_STATS_MAX) */
    proper_interval *core_util;   /* [n_cores] each core's busy share */
    proper_interval disk_util;    /* busy disk servers / servers */
    size_t n_locks, n_queues;
    proper_interval *lock_util;   /* [n_locks] mean holders (waiters for cond, barrier) */
    proper_interval *queue_len;   /* [n_queues] mean length */
    double warmup;                /* mean warm-up used, seconds */
    double completed;             /* completions measured, summed over replications */
    double dropped;               /* tasks dropped (full queue or a second get) */
    unsigned long long events;    /* events simulated, summed over replications */
} proper_sim_result;

PROPER_API void proper_sim_result_init(proper_sim_result *r);
PROPER_API void proper_sim_result_free(proper_sim_result *r);

/* Simulate `opts->replications` replications of the model (opts NULL:
 * defaults) into an initialised result. */
PROPER_API int proper_sim_run(const proper_sim_model *m, const proper_sim_opts *opts, proper_sim_result *out,
                              proper_error *err);

/* ---- Thread-event traces and building a model from one run (§4.3) ----------
 *
 * THE TRACE (text; one event per line; '#' comments; times in ns)
 *   trace := 'proper-threads' '1' NL (decl | event)*
 *   decl  := 'cores' INT | 'disks' INT | 'queue' NAME ['capacity' INT]
 *          | 'lock' NAME ('mutex' | 'rwlock' | 'cond' | 'semaphore' INT | 'barrier' INT)
 *          | 'latency' INT | 'overhead' INT [INT]
 *   latency: ns of each task's response time spent outside the program (the
 *   network: a client's response time minus the program's own, measured;
 *   at most 1000 s); the built model's open sources get it. overhead: the
 *   recorder's own CPU time in ns per event and per io block count (the
 *   writer measures it when it opens; at most 1 ms each): the builder takes
 *   it off the computation around each event.
 *   event := THREAD TIME WORD [NAME [NAME]] [INT [INT]] ['@' CPU]
 *   (the second INT only on io)
 *   THREAD any integer naming the thread; TIME its monotonic clock in ns
 *   (never decreasing within a thread); CPU, when every event of a thread
 *   carries it, the thread's CPU time in ns (then computation CFs are
 *   measured in CPU time, else in wall time: the paper's fallback, §4.3.2).
 *   WORD and its arguments:
 *     start POOL        the thread's first event: the pool it belongs to
 *     exit              the thread ends
 *     begin CF, end CF  a named code fragment (must match, no nesting of
 *                       the same name)
 *     arrive Q          a task from outside the program enters queue Q (the
 *                       open workload: not part of any thread's PCG)
 *     done              the thread's task is complete
 *     get.req Q [TIMEOUT]  then  get Q  or  get.timeout Q
 *     put Q
 *     lock.req L [TIMEOUT]  then  lock L  or  lock.timeout L
 *     rlock.req L  then rlock L;  wlock.req L  then wlock L;  unlock L
 *     wait.req S [TIMEOUT]  then  wait S  or  wait.timeout S;  post S
 *                                               (a semaphore)
 *     await.req B then await B                  (a barrier)
 *     cwait.req C M  then  cwait C;  signal C;  broadcast C
 *     io.req NAME BYTES  then  io NAME BYTES [BLOCKS]  (a file operation;
 *                       BLOCKS: the blocks it read from the device, e.g.
 *                       getrusage's ru_inblock before and after)
 *   Each X.req must be followed, in the same thread, by its completion (or
 *   by exit: a thread may end while it waits, at shutdown); X.timeout only
 *   after an X.req with a TIMEOUT (ns).
 *
 * BUILDING (proper_sim_build; paper §4.3.1-4.3.2)
 *   Each thread's events become a walk of PCG nodes: every operation is a
 *   node named by its site (op and object: "lock cache"); the computation
 *   between two operations is a c_cpu node named by the pair of sites
 *   around it (the paper's pair of probes), or by the CF's name between
 *   "begin CF" and "end CF". With CPU times, the CPU a thread used inside a
 *   file operation (io.req to io: the system call's own work, e.g. a read()
 *   copying from the page cache) is computation: it goes to the c_cpu node
 *   after the operation. The trace's `overhead` (the recorder's own time per
 *   event and per block count) comes off each c_cpu sample, once for every
 *   event recorded within it. The CPU used inside a wait (get, lock, ...) is not:
 *   it is the cost of blocking and waking, which a thread pays only when it
 *   blocks (the model's wakeup stands for that wait). Nodes and transition counts of all threads of
 *   a pool are pooled; delta(s_i, s_j) = count(i, j) / sum_l count(i, l)
 *   (eq. 1). A get that timed out continues at a virtual "nofetch" node
 *   (c_in^nofetch), a lock or wait at a "timeout" node; the largest
 *   timeout requested at a site becomes its node's. A thread's exit ends its walk without an edge: the
 *   model simulates the work phase, not the shutdown (§4.3.1; an exit edge
 *   would let simulated threads die off). CPU nodes whose summed time is
 *   below t of the pool's
 *   CPU time, and io nodes below t of its bytes, are merged away (their
 *   in-flow redistributed over their out-flow); so are markers (start,
 *   begin/end) after the first node. Parameters: each cpu node's times as an
 *   empirical distribution (at most `points` equally likely values: the
 *   means of equal-count groups of the sorted samples, so the mean is
 *   kept). An io operation that records BLOCKS is a page-cache hit (k = 0)
 *   when it read no block from the device, else one disk request whose
 *   service time is its wall time less its CPU time (the paper counts
 *   kernel block requests, §4.3.2; the thread's block-input count is the
 *   nearest a user-level trace gets); one without BLOCKS falls back on its
 *   duration: shorter than `io_hit` is a hit. The inter-arrival times of
 *   `arrive Q` give an open source, with the trace's `latency`.
 *   The model's wakeup (build opts .wakeup) is the mean wake-up latency of
 *   the traced hand-offs: in a queue no `arrive` feeds, the k-th put goes
 *   to the k-th get (FIFO); where the getter was already waiting, get - put.
 *   Pools are the start events' names with their thread counts; a pool
 *   whose threads record arrivals is the workload's and is not simulated
 *   (its own computation is outside the model: a program's acceptor that
 *   is to be simulated records its arrivals through a recorder of a pool
 *   of its own, and takes them with get.req / get); locks and
 *   queues come from the declarations, else from the ops used on them (a
 *   barrier without a declaration has as many parties as the pool awaiting
 *   it, and so has a declared one whose count equals that pool's threads;
 *   a semaphore needs a declaration).
 *   Loops (§4.3.1; build opts .loops): after merging, a node h with two
 *   successors, one of which starts a chain back to h through nodes with
 *   one successor and one predecessor each (no timeouts), is a loop head:
 *   a loop node is put after h, with the chain as its body and h's other
 *   successor as its exit, and its count distribution is read off the
 *   walks (iterations per visit: exact frequencies when at most `points`
 *   distinct counts, else group means). A cycle left as a PCG cycle would
 *   repeat a geometric number of times with the same mean, so a fixed count
 *   would get the variance of a geometric one. Every such cycle is made
 *   explicit, whatever its counts: the observed distribution is exact for
 *   fixed and variable counts alike. Cycles with branches inside their body
 *   stay PCG cycles. Not done: startup/shutdown phases.
 */

typedef enum proper_sim_tev_kind {
    PROPER_SIM_TEV_START, PROPER_SIM_TEV_EXIT, PROPER_SIM_TEV_BEGIN, PROPER_SIM_TEV_END,
    PROPER_SIM_TEV_ARRIVE, PROPER_SIM_TEV_DONE, PROPER_SIM_TEV_GET_REQ, PROPER_SIM_TEV_GET,
    PROPER_SIM_TEV_GET_TIMEOUT, PROPER_SIM_TEV_PUT, PROPER_SIM_TEV_LOCK_REQ, PROPER_SIM_TEV_LOCK,
    PROPER_SIM_TEV_RLOCK_REQ, PROPER_SIM_TEV_RLOCK, PROPER_SIM_TEV_WLOCK_REQ, PROPER_SIM_TEV_WLOCK,
    PROPER_SIM_TEV_UNLOCK, PROPER_SIM_TEV_WAIT_REQ, PROPER_SIM_TEV_WAIT, PROPER_SIM_TEV_POST,
    PROPER_SIM_TEV_AWAIT_REQ, PROPER_SIM_TEV_AWAIT, PROPER_SIM_TEV_CWAIT_REQ, PROPER_SIM_TEV_CWAIT,
    PROPER_SIM_TEV_SIGNAL, PROPER_SIM_TEV_BROADCAST, PROPER_SIM_TEV_IO_REQ, PROPER_SIM_TEV_IO,
    PROPER_SIM_TEV_LOCK_TIMEOUT, PROPER_SIM_TEV_WAIT_TIMEOUT,
    PROPER_SIM_TEV_COUNT
} proper_sim_tev_kind;

typedef struct proper_sim_tev {
    size_t thread;        /* index into proper_sim_trace.tids */
    int kind;             /* proper_sim_tev_kind */
    size_t a, b;          /* names (PROPER_SIM_NONE when absent) */
    int64_t t, arg, cpu;  /* time ns; the integer argument (-1: none); CPU ns (-1: none) */
    int64_t blocks;       /* io: blocks read from the device during it (-1: not recorded) */
    int line;
    size_t run;           /* which traced run (proper_sim_trace_append) */
} proper_sim_tev;

typedef struct proper_sim_trace {
    proper_intern names;
    proper_sim_tev *ev;
    size_t n_ev, cap_ev;
    long long *tids;      /* thread ids in order of first appearance */
    size_t n_threads, cap_threads;
    proper_sim_model decl; /* the queues and locks declared */
    size_t cores, disks;
    int has_cores, has_disks; /* declared */
    int64_t latency;      /* ns outside the program per task (-1: not declared) */
    int64_t overhead, overhead_io; /* the recorder's own CPU ns per event and per io
                                      block count (0: not declared) */
} proper_sim_trace;

PROPER_API void proper_sim_trace_init(proper_sim_trace *t);
PROPER_API void proper_sim_trace_free(proper_sim_trace *t);
/* Parse a thread-event trace; checks the pairing of every X.req with its
 * completion, begin/end, lock ownership (unlock by the holder), that time
 * never goes backwards in a thread and that every thread starts first. */
PROPER_API int proper_sim_trace_parse(proper_sim_trace *out, const char *text, size_t len, const char *name,
                                      proper_error *err);
PROPER_API int proper_sim_trace_read(proper_sim_trace *out, const char *path, proper_error *err);
/* Add another traced run of the same program to t (its threads are new
 * threads, its times its own; queues and locks declared in both must agree,
 * the larger core count and the larger overhead are kept, t's latency if
 * it declares one, else more's). t is unchanged on failure. */
PROPER_API int proper_sim_trace_append(proper_sim_trace *t, const proper_sim_trace *more, proper_error *err);

typedef struct proper_sim_build_opts {
    double merge;         /* t: merge CFs below this share (0.03) */
    double io_hit;        /* seconds: shorter file operations are cache hits (5e-5) */
    size_t points;        /* most points of an empirical distribution (32) */
    size_t cores;         /* 0: the trace's declaration, else 1 */
    double quantum;       /* the model's time slice (PROPER_SIM_DEFAULT_QUANTUM) */
    int loops;            /* make cycles explicit loops with their counts (1) */
    int wakeup;           /* the model's wake-up latency from the traced hand-offs (1) */
} proper_sim_build_opts;

PROPER_API proper_sim_build_opts proper_sim_build_opts_default(void);

typedef struct proper_sim_build_stats {
    size_t nodes_before, nodes_after; /* PCG nodes over all pools, before and after merging
                                         (after: loop nodes included) */
    size_t loops;                     /* cycles made explicit loops */
    size_t threads_running;           /* threads without an exit event */
    double cpu_kept;                  /* share of the traced CPU time in nodes kept */
} proper_sim_build_stats;

/* Build a model from a trace (opts, stats may be NULL). */
PROPER_API int proper_sim_build(proper_sim_model *out, const proper_sim_trace *tr, const proper_sim_build_opts *opts,
                                proper_sim_build_stats *stats, proper_error *err);

#ifndef PROPER_SIM_NO_RECORDER
/* The recorder (POSIX: clock_gettime, a pthread mutex). The writer measures
 * the recorder's own cost when it opens and declares it (`overhead`), for
 * the builder to take off the computation it measures. One shared writer
 * owns the FILE and the name table; each thread has its own recorder whose
 * events go to a private buffer (one clock read per event, two with
 * cpu_clock) and reach the file, under the writer's mutex, when the buffer
 * is full and at proper_sim_recorder_free:
 *
 *     proper_sim_writer *w;
 *     proper_sim_writer_open(&w, f, 0, &err);
 *     int conn = proper_sim_writer_name(w, "conn", &err);
 *     proper_sim_writer_declare(w, "queue conn", &err);
 *     ... in each thread:
 *     proper_sim_recorder r;
 *     proper_sim_recorder_init(&r, w, proper_sim_writer_name(w, "worker", &err), &err);
 *     proper_sim_record(&r, PROPER_SIM_TEV_GET_REQ, conn, -1, -1);
 *     ...
 *     proper_sim_recorder_free(&r, &err);    (records exit, flushes)
 *     proper_sim_writer_close(w, &err);      (does not fclose) */
typedef struct proper_sim_writer proper_sim_writer;

typedef struct proper_sim_slot {
    int64_t t, cpu, arg, blocks;
    int32_t kind, a, b;
} proper_sim_slot;

typedef struct proper_sim_recorder {
    proper_sim_writer *w;
    long long tid;
    proper_sim_slot *slots;
    size_t len, cap;
    int cpu_clock;
    int io_blocks;       /* PROPER_SIM_REC_IO_BLOCKS */
    int64_t inblock;     /* the block-input count at the open io.req (-1: unknown) */
    int status;
} proper_sim_recorder;

/* Writer flags: the thread CPU clock on every event; the blocks each io
 * operation read from the device (getrusage(RUSAGE_THREAD) ru_inblock at
 * io.req and io, Linux; a system call each, so only for io events). */
#define PROPER_SIM_REC_CPU 1
#define PROPER_SIM_REC_IO_BLOCKS 2

/* Most events a recorder buffers before it writes them out. */
#ifndef PROPER_SIM_RECORDER_BUFFER
#define PROPER_SIM_RECORDER_BUFFER 4096
#endif

/* flags: PROPER_SIM_REC_CPU | PROPER_SIM_REC_IO_BLOCKS (0: the monotonic clock only). */
PROPER_API int proper_sim_writer_open(proper_sim_writer **w, FILE *out, int flags, proper_error *err);
/* The id of a name (pool, queue, lock, CF, file operation); thread-safe. */
PROPER_API int proper_sim_writer_name(proper_sim_writer *w, const char *name, proper_error *err);
/* Write a declaration line ("queue conn capacity 64", "lock m mutex",
 * "cores 2"); thread-safe. */
PROPER_API int proper_sim_writer_declare(proper_sim_writer *w, const char *decl, proper_error *err);
PROPER_API int proper_sim_writer_close(proper_sim_writer *w, proper_error *err);
/* Start recording the calling thread as a thread of pool `pool` (a name id). */
PROPER_API int proper_sim_recorder_init(proper_sim_recorder *r, proper_sim_writer *w, int pool, proper_error *err);
/* One event: kind, names a and b (ids, or -1), the integer argument (-1:
 * none). The first failure sticks and is returned by _free. */
PROPER_API int proper_sim_record(proper_sim_recorder *r, int kind, int a, int b, int64_t arg);
/* Record the thread's exit, flush, release the buffer. */
PROPER_API int proper_sim_recorder_free(proper_sim_recorder *r, proper_error *err);
#endif

#ifdef __cplusplus
}
#endif

/* ========================================================================= */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_SIM_IMPLEMENTATION
#define PROPER_SIM_IMPLEMENTATION

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- distributions ---- */

PROPER_API void proper_sim_dist_init(proper_sim_dist *d) { memset(d, 0, sizeof *d); d->kind = PROPER_SIM_CONST; }

PROPER_API void proper_sim_dist_free(proper_sim_dist *d) {
    PROPER_FREE(d->values);
    PROPER_FREE(d->weights);
    proper_sim_dist_init(d);
}

PROPER_API int proper_sim_dist_copy(proper_sim_dist *out, const proper_sim_dist *d, proper_error *err) {
    proper_sim_dist t = *d;
    t.values = t.weights = NULL;
    if (d->n) {
        t.values = (double *)proper_calloc(d->n, sizeof(double));
        t.weights = (double *)proper_calloc(d->n, sizeof(double));
        if (!t.values || !t.weights) {
            PROPER_FREE(t.values);
            PROPER_FREE(t.weights);
            return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        }
        memcpy(t.values, d->values, d->n * sizeof(double));
        memcpy(t.weights, d->weights, d->n * sizeof(double));
    }
    if (out != d) proper_sim_dist_free(out);
    *out = t;
    return PROPER_OK;
}

PROPER_API double proper_sim_dist_mean(const proper_sim_dist *d) {
    size_t i;
    double s = 0, w = 0;
    switch (d->kind) {
    case PROPER_SIM_CONST: case PROPER_SIM_EXP: case PROPER_SIM_ERLANG: return d->a;
    case PROPER_SIM_UNIFORM: return 0.5 * (d->a + d->b);
    case PROPER_SIM_EMPIRICAL:
        for (i = 0; i < d->n; i++) { s += d->values[i] * d->weights[i]; w += d->weights[i]; }
        return w > 0 ? s / w : NAN;
    }
    return NAN;
}

PROPER_API void proper_sim_dist_scale(proper_sim_dist *d, double f) {
    size_t i;
    if (d->kind == PROPER_SIM_ERLANG) { d->a *= f; return; }
    d->a *= f;
    if (d->kind == PROPER_SIM_UNIFORM) d->b *= f;
    for (i = 0; i < d->n; i++) d->values[i] *= f;
}

static int proper__sim_dist_check(const proper_sim_dist *d, const char *what, proper_error *err) {
    size_t i;
    double w = 0;
    switch (d->kind) {
    case PROPER_SIM_CONST: case PROPER_SIM_EXP:
        if (!(d->a >= 0) || isinf(d->a)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "%s: the value must be finite and >= 0", what);
        return PROPER_OK;
    case PROPER_SIM_UNIFORM:
        if (!(d->a >= 0) || !(d->b >= d->a) || isinf(d->b))
            return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "%s: uniform(a, b) needs 0 <= a <= b < inf", what);
        return PROPER_OK;
    case PROPER_SIM_ERLANG:
        if (!(d->b >= 1 && d->b <= 1000 && d->b == floor(d->b)) || !(d->a >= 0) || isinf(d->a))
            return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "%s: erlang(k, mean) needs an integer 1 <= k <= 1000 and a finite mean >= 0", what);
        return PROPER_OK;
    case PROPER_SIM_EMPIRICAL:
        if (d->n == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s: empirical() needs at least one value", what);
        for (i = 0; i < d->n; i++) {
            if (!(d->values[i] >= 0) || isinf(d->values[i]))
                return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "%s: empirical values must be finite and >= 0", what);
            if (!(d->weights[i] >= 0) || isinf(d->weights[i]))
                return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "%s: empirical weights must be finite and >= 0", what);
            w += d->weights[i];
        }
        if (!(w > 0) || isinf(w)) return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "%s: empirical weights must have a positive finite sum", what);
        return PROPER_OK;
    }
    return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s: unknown distribution", what);
}

static int proper__sim_dist_equal(const proper_sim_dist *a, const proper_sim_dist *b) {
    if (a->kind != b->kind || a->n != b->n) return 0;
    if (memcmp(&a->a, &b->a, sizeof(double)) || memcmp(&a->b, &b->b, sizeof(double))) return 0;
    if (a->n && (memcmp(a->values, b->values, a->n * sizeof(double)) ||
                 memcmp(a->weights, b->weights, a->n * sizeof(double))))
        return 0;
    return 1;
}

/* ---- model lifetime ---- */

PROPER_API void proper_sim_init(proper_sim_model *m) {
    memset(m, 0, sizeof *m);
    m->cores = 1;
    m->quantum = PROPER_SIM_DEFAULT_QUANTUM;
    m->disks = 1;
}

static void proper__sim_node_free(proper_sim_node *n) {
    PROPER_FREE(n->name);
    proper_sim_dist_free(&n->dist);
    proper_sim_dist_free(&n->count);
    PROPER_FREE(n->next);
    PROPER_FREE(n->prob);
}

static void proper__sim_pool_free(proper_sim_pool *p) {
    size_t i;
    for (i = 0; i < p->n_nodes; i++) proper__sim_node_free(&p->nodes[i]);
    PROPER_FREE(p->nodes);
    PROPER_FREE(p->name);
}

PROPER_API void proper_sim_free(proper_sim_model *m) {
    size_t i;
    for (i = 0; i < m->n_queues; i++) PROPER_FREE(m->queues[i].name);
    for (i = 0; i < m->n_locks; i++) PROPER_FREE(m->locks[i].name);
    for (i = 0; i < m->n_pools; i++) proper__sim_pool_free(&m->pools[i]);
    for (i = 0; i < m->n_sources; i++) {
        PROPER_FREE(m->sources[i].name);
        proper_sim_dist_free(&m->sources[i].dist);
    }
    PROPER_FREE(m->queues);
    PROPER_FREE(m->locks);
    PROPER_FREE(m->pools);
    PROPER_FREE(m->sources);
    proper_sim_init(m);
}

static char *proper__sim_dupname(const char *s) { return s ? proper_strdup(s) : NULL; }

static int proper__sim_node_copy(proper_sim_node *o, const proper_sim_node *n) {
    memset(o, 0, sizeof *o);
    *o = *n;
    o->name = NULL;
    o->next = NULL;
    o->prob = NULL;
    proper_sim_dist_init(&o->dist);
    proper_sim_dist_init(&o->count);
    if (n->name && !(o->name = proper_strdup(n->name))) return PROPER_ENOMEM;
    if (proper_sim_dist_copy(&o->dist, &n->dist, NULL)) return PROPER_ENOMEM;
    if (proper_sim_dist_copy(&o->count, &n->count, NULL)) return PROPER_ENOMEM;
    if (n->n_next) {
        o->next = (size_t *)proper_calloc(n->n_next, sizeof(size_t));
        o->prob = (double *)proper_calloc(n->n_next, sizeof(double));
        if (!o->next || !o->prob) return PROPER_ENOMEM;
        memcpy(o->next, n->next, n->n_next * sizeof(size_t));
        memcpy(o->prob, n->prob, n->n_next * sizeof(double));
    }
    return PROPER_OK;
}

PROPER_API int proper_sim_copy(proper_sim_model *out, const proper_sim_model *m, proper_error *err) {
    proper_sim_model t;
    size_t i, j;
    int bad = 0;
    proper_sim_init(&t);
    t.cores = m->cores;
    t.quantum = m->quantum;
    t.wakeup = m->wakeup;
    t.disks = m->disks;
    if ((m->n_queues && !(t.queues = (proper_sim_queue *)proper_calloc(m->n_queues, sizeof *t.queues))) ||
        (m->n_locks && !(t.locks = (proper_sim_lock *)proper_calloc(m->n_locks, sizeof *t.locks))) ||
        (m->n_pools && !(t.pools = (proper_sim_pool *)proper_calloc(m->n_pools, sizeof *t.pools))) ||
        (m->n_sources && !(t.sources = (proper_sim_source *)proper_calloc(m->n_sources, sizeof *t.sources))))
        bad = 1;
    for (i = 0; !bad && i < m->n_queues; i++) {
        t.queues[i] = m->queues[i];
        t.queues[i].name = proper__sim_dupname(m->queues[i].name);
        t.n_queues++;
        bad = m->queues[i].name && !t.queues[i].name;
    }
    for (i = 0; !bad && i < m->n_locks; i++) {
        t.locks[i] = m->locks[i];
        t.locks[i].name = proper__sim_dupname(m->locks[i].name);
        t.n_locks++;
        bad = m->locks[i].name && !t.locks[i].name;
    }
    for (i = 0; !bad && i < m->n_sources; i++) {
        t.sources[i] = m->sources[i];
        t.sources[i].name = proper__sim_dupname(m->sources[i].name);
        proper_sim_dist_init(&t.sources[i].dist);
        t.n_sources++;
        bad = (m->sources[i].name && !t.sources[i].name) ||
              proper_sim_dist_copy(&t.sources[i].dist, &m->sources[i].dist, NULL) != 0;
    }
    for (i = 0; !bad && i < m->n_pools; i++) {
        const proper_sim_pool *p = &m->pools[i];
        proper_sim_pool *q = &t.pools[i];
        t.n_pools++;
        q->threads = p->threads;
        q->name = proper__sim_dupname(p->name);
        bad = p->name && !q->name;
        if (!bad && p->n_nodes && !(q->nodes = (proper_sim_node *)proper_calloc(p->n_nodes, sizeof *q->nodes))) bad = 1;
        for (j = 0; !bad && j < p->n_nodes; j++) {
            q->n_nodes++;
            bad = proper__sim_node_copy(&q->nodes[j], &p->nodes[j]) != 0;
        }
    }
    if (bad) {
        proper_sim_free(&t);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    proper_sim_free(out); /* t is a full copy, so out may be m */
    *out = t;
    return PROPER_OK;
}

static int proper__sim_streq(const char *a, const char *b) {
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

PROPER_API int proper_sim_equal(const proper_sim_model *a, const proper_sim_model *b) {
    size_t i, j;
    if (a->cores != b->cores || memcmp(&a->quantum, &b->quantum, sizeof(double)) ||
        memcmp(&a->wakeup, &b->wakeup, sizeof(double)) || a->disks != b->disks ||
        a->n_queues != b->n_queues || a->n_locks != b->n_locks || a->n_pools != b->n_pools ||
        a->n_sources != b->n_sources)
        return 0;
    for (i = 0; i < a->n_queues; i++)
        if (!proper__sim_streq(a->queues[i].name, b->queues[i].name) || a->queues[i].capacity != b->queues[i].capacity)
            return 0;
    for (i = 0; i < a->n_locks; i++) {
        const proper_sim_lock *x = &a->locks[i], *y = &b->locks[i];
        if (!proper__sim_streq(x->name, y->name) || x->kind != y->kind || x->count != y->count || x->pool != y->pool)
            return 0;
    }
    for (i = 0; i < a->n_sources; i++) {
        const proper_sim_source *x = &a->sources[i], *y = &b->sources[i];
        if (!proper__sim_streq(x->name, y->name) || x->closed != y->closed || x->queue != y->queue ||
            x->count != y->count || memcmp(&x->latency, &y->latency, sizeof(double)) ||
            !proper__sim_dist_equal(&x->dist, &y->dist))
            return 0;
    }
    for (i = 0; i < a->n_pools; i++) {
        const proper_sim_pool *p = &a->pools[i], *q = &b->pools[i];
        if (!proper__sim_streq(p->name, q->name) || p->threads != q->threads || p->n_nodes != q->n_nodes) return 0;
        for (j = 0; j < p->n_nodes; j++) {
            const proper_sim_node *x = &p->nodes[j], *y = &q->nodes[j];
            if (!proper__sim_streq(x->name, y->name) || x->op != y->op || x->has_count != y->has_count ||
                x->obj != y->obj || x->obj2 != y->obj2 || memcmp(&x->timeout, &y->timeout, sizeof(double)) ||
                x->on_timeout != y->on_timeout || (x->op == PROPER_SIM_OP_LOOP && x->body != y->body) || x->n_next != y->n_next ||
                !proper__sim_dist_equal(&x->dist, &y->dist) || !proper__sim_dist_equal(&x->count, &y->count))
                return 0;
            if (x->n_next && (memcmp(x->next, y->next, x->n_next * sizeof(size_t)) ||
                              memcmp(x->prob, y->prob, x->n_next * sizeof(double))))
                return 0;
        }
    }
    return 1;
}

/* What each op needs: 0 nothing, 'Q' a queue, 'L' a lock, 'D' a distribution. */
static const char *proper__sim_op_name(proper_sim_op op) {
    static const char *names[] = {"nop", "cpu", "delay", "io", "get", "put", "done", "lock", "unlock",
                                  "rlock", "wlock", "wait", "post", "await", "cwait", "signal", "broadcast",
                                  "loop"};
    return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

static int proper__sim_op_has_dist(proper_sim_op op) {
    return op == PROPER_SIM_OP_CPU || op == PROPER_SIM_OP_DELAY || op == PROPER_SIM_OP_IO || op == PROPER_SIM_OP_LOOP;
}
static int proper__sim_op_has_queue(proper_sim_op op) { return op == PROPER_SIM_OP_GET || op == PROPER_SIM_OP_PUT; }
static int proper__sim_op_has_lock(proper_sim_op op) { return op >= PROPER_SIM_OP_LOCK && op <= PROPER_SIM_OP_BROADCAST; }
static int proper__sim_op_has_timeout(proper_sim_op op) {
    return op == PROPER_SIM_OP_GET || op == PROPER_SIM_OP_LOCK || op == PROPER_SIM_OP_RLOCK ||
           op == PROPER_SIM_OP_WLOCK || op == PROPER_SIM_OP_WAIT || op == PROPER_SIM_OP_CWAIT;
}
/* The lock kind an op needs. */
static int proper__sim_op_lock_ok(proper_sim_op op, proper_sim_lock_kind k) {
    switch (op) {
    case PROPER_SIM_OP_LOCK: return k == PROPER_SIM_MUTEX;
    case PROPER_SIM_OP_UNLOCK: return k == PROPER_SIM_MUTEX || k == PROPER_SIM_RWLOCK;
    case PROPER_SIM_OP_RLOCK: case PROPER_SIM_OP_WLOCK: return k == PROPER_SIM_RWLOCK;
    case PROPER_SIM_OP_WAIT: case PROPER_SIM_OP_POST: return k == PROPER_SIM_SEMAPHORE;
    case PROPER_SIM_OP_AWAIT: return k == PROPER_SIM_BARRIER;
    case PROPER_SIM_OP_CWAIT: case PROPER_SIM_OP_SIGNAL: case PROPER_SIM_OP_BROADCAST: return k == PROPER_SIM_COND;
    default: return 0;
    }
}

PROPER_API int proper_sim_validate(const proper_sim_model *m, proper_error *err) {
    size_t i, j, k, threads = 0, clients = 0;
    if (m->cores < 1 || m->cores > PROPER_SIM_MAX_THREADS)
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "cores must be between 1 and %d", PROPER_SIM_MAX_THREADS);
    if (!(m->quantum >= 0)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "the time slice must be >= 0");
    if (!(m->wakeup >= 0) || isinf(m->wakeup))
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "the wake-up latency must be finite and >= 0");
    if (m->disks > PROPER_SIM_MAX_THREADS) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "too many disk servers");
    for (i = 0; i < m->n_locks; i++) {
        const proper_sim_lock *l = &m->locks[i];
        if ((unsigned)l->kind > PROPER_SIM_BARRIER) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "lock %s: unknown kind", l->name);
        if (l->kind == PROPER_SIM_BARRIER) {
            if (l->pool != PROPER_SIM_NONE && l->pool >= m->n_pools)
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "lock %s: no such pool", l->name);
            if (l->pool == PROPER_SIM_NONE && l->count < 1)
                return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "barrier %s needs at least one party", l->name);
        }
        if (l->count > PROPER_SIM_MAX_CLIENTS) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "lock %s: count too large", l->name);
    }
    for (i = 0; i < m->n_sources; i++) {
        const proper_sim_source *s = &m->sources[i];
        if (s->queue >= m->n_queues) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "source %s: no such queue", s->name);
        if (proper__sim_dist_check(&s->dist, s->name ? s->name : "source", err)) return err ? err->code : PROPER_ERANGE;
        if (!(s->latency >= 0) || isinf(s->latency))
            return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "source %s: the latency must be finite and >= 0", s->name);
        if (s->closed) {
            clients += s->count;
            if (s->count > PROPER_SIM_MAX_CLIENTS || clients > PROPER_SIM_MAX_CLIENTS)
                return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "more than %d clients", PROPER_SIM_MAX_CLIENTS);
        }
    }
    for (i = 0; i < m->n_pools; i++) {
        const proper_sim_pool *p = &m->pools[i];
        threads += p->threads;
        if (p->threads > PROPER_SIM_MAX_THREADS || threads > PROPER_SIM_MAX_THREADS)
            return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "more than %d threads", PROPER_SIM_MAX_THREADS);
        if (p->n_nodes == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "pool %s has no nodes", p->name);
        for (j = 0; j < p->n_nodes; j++) {
            const proper_sim_node *n = &p->nodes[j];
            double sum = 0;
            if ((unsigned)n->op > PROPER_SIM_OP_LOOP)
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "pool %s node %s: unknown op", p->name, n->name);
            if (proper__sim_op_has_dist(n->op) && proper__sim_dist_check(&n->dist, n->name ? n->name : "node", err))
                return err ? err->code : PROPER_ERANGE;
            if (n->op == PROPER_SIM_OP_IO && n->has_count && proper__sim_dist_check(&n->count, n->name ? n->name : "node", err))
                return err ? err->code : PROPER_ERANGE;
            if (n->op == PROPER_SIM_OP_IO && m->disks == 0)
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "pool %s node %s does I/O but the model has no disk", p->name, n->name);
            if (proper__sim_op_has_queue(n->op) && n->obj >= m->n_queues)
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "pool %s node %s: no such queue", p->name, n->name);
            if (proper__sim_op_has_lock(n->op)) {
                if (n->obj >= m->n_locks || !proper__sim_op_lock_ok(n->op, m->locks[n->obj].kind))
                    return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "pool %s node %s: %s needs a lock of another kind", p->name, n->name, proper__sim_op_name(n->op));
                if (n->op == PROPER_SIM_OP_CWAIT && (n->obj2 >= m->n_locks || m->locks[n->obj2].kind != PROPER_SIM_MUTEX))
                    return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "pool %s node %s: cwait needs a mutex", p->name, n->name);
            }
            if (n->op == PROPER_SIM_OP_LOOP && n->body >= p->n_nodes)
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "pool %s node %s: a loop needs its body's first node", p->name, n->name);
            if (!(n->timeout >= 0)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "pool %s node %s: timeout must be >= 0", p->name, n->name);
            if (!isinf(n->timeout) && (!proper__sim_op_has_timeout(n->op) || n->on_timeout >= p->n_nodes))
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "pool %s node %s: bad timeout", p->name, n->name);
            for (k = 0; k < n->n_next; k++) {
                if (n->next[k] >= p->n_nodes) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "pool %s node %s: successor out of range", p->name, n->name);
                if (!(n->prob[k] >= 0 && n->prob[k] <= 1))
                    return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "pool %s node %s: probabilities must be in [0, 1]", p->name, n->name);
                sum += n->prob[k];
            }
            if (n->n_next && fabs(sum - 1) > PROPER_SIM_PROB_TOL)
                return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "pool %s node %s: successor probabilities sum to %g, not 1", p->name, n->name, sum);
        }
    }
    return PROPER_OK;
}

/* ---- the engine ------------------------------------------------------------ */

/* A ring buffer of indices (threads or tasks), FIFO. */
typedef struct proper__sim_fifo {
    size_t *d;
    size_t head, len, cap;
} proper__sim_fifo;

static int proper__sim_fifo_push(proper__sim_fifo *f, size_t x) {
    if (f->len == f->cap) {
        size_t ncap = f->cap ? 2 * f->cap : 8, i;
        size_t *nd = (size_t *)proper_calloc(ncap, sizeof(size_t));
        if (!nd) return PROPER_ENOMEM;
        for (i = 0; i < f->len; i++) nd[i] = f->d[(f->head + i) % f->cap];
        PROPER_FREE(f->d);
        f->d = nd;
        f->cap = ncap;
        f->head = 0;
    }
    f->d[(f->head + f->len) % f->cap] = x;
    f->len++;
    return PROPER_OK;
}

static size_t proper__sim_fifo_pop(proper__sim_fifo *f) {
    size_t x;
    if (f->len == 0) return PROPER_SIM_NONE;
    x = f->d[f->head];
    f->head = (f->head + 1) % f->cap;
    f->len--;
    return x;
}

static size_t proper__sim_fifo_peek(const proper__sim_fifo *f) { return f->len ? f->d[f->head] : PROPER_SIM_NONE; }

/* Remove the first x; 1 when found. */
static int proper__sim_fifo_remove(proper__sim_fifo *f, size_t x) {
    size_t i, j;
    for (i = 0; i < f->len; i++)
        if (f->d[(f->head + i) % f->cap] == x) break;
    if (i == f->len) return 0;
    for (j = i; j + 1 < f->len; j++) f->d[(f->head + j) % f->cap] = f->d[(f->head + j + 1) % f->cap];
    f->len--;
    return 1;
}

enum {
    PROPER__SIM_EV_ARRIVAL, PROPER__SIM_EV_ISSUE, PROPER__SIM_EV_CPU, PROPER__SIM_EV_PS, PROPER__SIM_EV_DISK,
    PROPER__SIM_EV_DELAY, PROPER__SIM_EV_TIMEOUT, PROPER__SIM_EV_SNAP
};

typedef struct proper__sim_ev {
    double t;
    uint64_t seq, gen;
    size_t id;
    int kind;
} proper__sim_ev;

/* Where a blocked thread waits (for timeouts). */
enum { PROPER__SIM_W_NONE, PROPER__SIM_W_GET, PROPER__SIM_W_PUT, PROPER__SIM_W_LOCK, PROPER__SIM_W_COND };

typedef struct proper__sim_thread {
    size_t pool, node, task;
    size_t core;      /* the core it runs on (round robin, FIFO) */
    double work, slice;
    double budget;    /* what is left of its time slice on that core */
    int held;         /* it finished a CPU fragment and keeps its core until it waits */
    uint64_t gen;
    long long k;      /* disk requests left */
    int write;        /* rwlock/mutex waiter wants exclusive access */
    int resume;       /* 1: draw the next node when run; 0: node already set */
    int wait_kind;
    size_t wait_obj;
    int dead;
    /* the loops the thread is inside, innermost last: node, iterations left */
    size_t loop_node[PROPER_SIM_MAX_LOOP_DEPTH];
    long long loop_left[PROPER_SIM_MAX_LOOP_DEPTH];
    int n_loops;
} proper__sim_thread;

typedef struct proper__sim_lockrt {
    size_t owner;     /* mutex holder or rwlock writer */
    size_t readers;
    size_t count;     /* semaphore permits; barrier arrivals */
    size_t parties;
    proper__sim_fifo waiters;
} proper__sim_lockrt;

typedef struct proper__sim_queuert {
    proper__sim_fifo tasks, getters, putters;
} proper__sim_queuert;

typedef struct proper__sim {
    const proper_sim_model *m;
    proper_rng rng;
    double now, horizon;
    proper__sim_ev *heap;
    size_t n_heap, cap_heap;
    uint64_t seq;
    proper__sim_thread *th;
    size_t n_th;
    /* tasks */
    double *t_created;
    size_t *t_client;  /* doubles as the free list's link */
    size_t n_tasks, cap_tasks, free_task;
    proper__sim_queuert *q;
    proper__sim_lockrt *l;
    /* CPU */
    size_t free_cores;
    proper__sim_fifo idle_cores; /* core ids, idle longest first (per-core figures only) */
    size_t n_core_acc;           /* cores with an integral (0 or m->cores) */
    proper__sim_fifo runq;
    size_t *ps;        /* processor sharing: the active threads */
    size_t n_ps;
    double ps_last;
    uint64_t ps_gen;
    /* disk */
    size_t free_disks;
    proper__sim_fifo diskq;
    proper__sim_fifo ready;
    /* closed clients */
    size_t *client_src;
    size_t n_clients;
    size_t *arrived;   /* per source */
    /* sampling tables: per pool a base into the node arrays */
    size_t *node_base;
    proper_alias *al_dist, *al_count, *al_src;
    /* time integrals: cpu, disk, locks, queues */
    size_t n_acc;
    double *acc_value, *acc_last, *acc_area, *snap;
    /* completions */
    double *c_time, *c_resp;
    size_t n_comp, cap_comp;
    double dropped;
    unsigned long long events, max_events;
    long instant;      /* zero-time steps since the last event */
    int status;
    proper_error *err;
} proper__sim;

static int proper__sim_fail(proper__sim *s, int code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int proper__sim_fail(proper__sim *s, int code, const char *fmt, ...) {
    va_list ap;
    if (s->status) return s->status;
    va_start(ap, fmt);
    proper_error_setv(s->err, code, NULL, 0, 0, fmt, ap);
    va_end(ap);
    s->status = code;
    return code;
}

static int proper__sim_ev_less(const proper__sim_ev *a, const proper__sim_ev *b) {
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void proper__sim_schedule(proper__sim *s, double t, int kind, size_t id, uint64_t gen) {
    proper__sim_ev e;
    size_t i;
    if (s->status) return;
    if (s->n_heap == s->cap_heap && proper_reserve(&s->heap, &s->cap_heap, s->n_heap + 1, sizeof *s->heap)) {
        proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
        return;
    }
    e.t = t;
    e.seq = s->seq++;
    e.gen = gen;
    e.id = id;
    e.kind = kind;
    i = s->n_heap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!proper__sim_ev_less(&e, &s->heap[p])) break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = e;
}

static proper__sim_ev proper__sim_pop(proper__sim *s) {
    proper__sim_ev top = s->heap[0], last = s->heap[--s->n_heap];
    size_t i = 0, n = s->n_heap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && proper__sim_ev_less(&s->heap[c + 1], &s->heap[c])) c++;
        if (!proper__sim_ev_less(&s->heap[c], &last)) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n) s->heap[i] = last;
    return top;
}

static double proper__sim_sample(proper__sim *s, const proper_sim_dist *d, const proper_alias *al) {
    long long k, i;
    double x = 0;
    switch (d->kind) {
    case PROPER_SIM_CONST: return d->a;
    case PROPER_SIM_EXP: return d->a > 0 ? proper_rng_exponential(&s->rng, 1.0 / d->a) : 0.0;
    case PROPER_SIM_UNIFORM: return d->a + (d->b - d->a) * proper_rng_uniform(&s->rng);
    case PROPER_SIM_ERLANG:
        k = (long long)d->b;
        if (!(d->a > 0)) return 0.0;
        for (i = 0; i < k; i++) x += proper_rng_exponential(&s->rng, (double)k / d->a);
        return x;
    case PROPER_SIM_EMPIRICAL: return d->values[al->n ? proper_alias_sample(al, &s->rng) : 0];
    }
    return 0.0;
}

/* ---- time integrals ---- */

static void proper__sim_acc_set(proper__sim *s, size_t a, double v) {
    s->acc_area[a] += s->acc_value[a] * (s->now - s->acc_last[a]);
    s->acc_last[a] = s->now;
    s->acc_value[a] = v;
}

static size_t proper__sim_acc_lock(const proper__sim *s, size_t l) { (void)s; return 2 + l; }
static size_t proper__sim_acc_queue(const proper__sim *s, size_t q) { return 2 + s->m->n_locks + q; }
static size_t proper__sim_acc_core(const proper__sim *s, size_t c) { return 2 + s->m->n_locks + s->m->n_queues + c; }

static void proper__sim_lock_acc(proper__sim *s, size_t li) {
    const proper_sim_lock *L = &s->m->locks[li];
    proper__sim_lockrt *l = &s->l[li];
    double v = 0;
    switch (L->kind) {
    case PROPER_SIM_MUTEX: v = l->owner != PROPER_SIM_NONE; break;
    case PROPER_SIM_RWLOCK: v = (double)l->readers + (l->owner != PROPER_SIM_NONE); break;
    case PROPER_SIM_SEMAPHORE: v = L->count > l->count ? (double)(L->count - l->count) : 0.0; break;
    case PROPER_SIM_COND: case PROPER_SIM_BARRIER: v = (double)l->waiters.len; break;
    }
    proper__sim_acc_set(s, proper__sim_acc_lock(s, li), v);
}

static void proper__sim_queue_acc(proper__sim *s, size_t qi) {
    proper__sim_acc_set(s, proper__sim_acc_queue(s, qi), (double)s->q[qi].tasks.len);
}

/* ---- tasks ---- */

static size_t proper__sim_task_new(proper__sim *s, size_t client) {
    size_t t;
    if (s->free_task != PROPER_SIM_NONE) {
        t = s->free_task;
        s->free_task = s->t_client[t];
    } else {
        size_t cap = s->cap_tasks;
        if (s->n_tasks == s->cap_tasks) {
            if (proper_reserve(&s->t_created, &cap, s->n_tasks + 1, sizeof(double))) {
                proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
                return PROPER_SIM_NONE;
            }
            cap = s->cap_tasks;
            if (proper_reserve(&s->t_client, &cap, s->n_tasks + 1, sizeof(size_t))) {
                proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
                return PROPER_SIM_NONE;
            }
            /* both arrays now hold at least n_tasks + 1; keep the smaller capacity */
            s->cap_tasks = cap;
        }
        t = s->n_tasks++;
    }
    s->t_created[t] = s->now;
    s->t_client[t] = client;
    return t;
}

static void proper__sim_task_release(proper__sim *s, size_t t) {
    s->t_client[t] = s->free_task;
    s->free_task = t;
}

static void proper__sim_client_next(proper__sim *s, size_t client) {
    const proper_sim_source *src = &s->m->sources[s->client_src[client]];
    proper__sim_schedule(s, s->now + proper__sim_sample(s, &src->dist, &s->al_src[s->client_src[client]]),
                         PROPER__SIM_EV_ISSUE, client, 0);
}

static void proper__sim_drop(proper__sim *s, size_t t) {
    size_t c = s->t_client[t];
    s->dropped += 1;
    if (c != PROPER_SIM_NONE) proper__sim_client_next(s, c);
    proper__sim_task_release(s, t);
}

static void proper__sim_complete(proper__sim *s, size_t t) {
    if (s->n_comp == s->cap_comp) {
        size_t cap = s->cap_comp;
        if (proper_reserve(&s->c_time, &cap, s->n_comp + 1, sizeof(double)) ||
            proper_reserve(&s->c_resp, &s->cap_comp, s->n_comp + 1, sizeof(double))) {
            proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
            return;
        }
        if (cap < s->cap_comp) s->cap_comp = cap;
    }
    s->c_time[s->n_comp] = s->now;
    s->c_resp[s->n_comp] = t == PROPER_SIM_NONE ? NAN : s->now - s->t_created[t];
    s->n_comp++;
    if (t != PROPER_SIM_NONE) {
        size_t c = s->t_client[t];
        if (c != PROPER_SIM_NONE) proper__sim_client_next(s, c);
        proper__sim_task_release(s, t);
    }
}

/* ---- thread state ---- */

static void proper__sim_ready(proper__sim *s, size_t th) {
    s->th[th].gen++;
    s->th[th].wait_kind = PROPER__SIM_W_NONE;
    if (proper__sim_fifo_push(&s->ready, th)) proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
}

static void proper__sim_block(proper__sim *s, size_t th, proper__sim_fifo *f, int kind, size_t obj) {
    proper__sim_thread *t = &s->th[th];
    const proper_sim_node *n = &s->m->pools[t->pool].nodes[t->node];
    if (proper__sim_fifo_push(f, th)) { proper__sim_fail(s, PROPER_ENOMEM, "out of memory"); return; }
    t->resume = 1;
    t->wait_kind = kind;
    t->wait_obj = obj;
    if (!isinf(n->timeout) && kind != PROPER__SIM_W_PUT)
        proper__sim_schedule(s, s->now + n->timeout, PROPER__SIM_EV_TIMEOUT, th, t->gen);
}

/* Hand a task to a thread waiting in get; one put by a thread (`woken`)
 * runs after the model's wake-up latency. */
static void proper__sim_give(proper__sim *s, size_t th, size_t task, int woken) {
    if (s->th[th].task != PROPER_SIM_NONE) proper__sim_drop(s, s->th[th].task);
    s->th[th].task = task;
    if (woken && s->m->wakeup > 0) {
        s->th[th].gen++; /* a pending timeout no longer applies */
        s->th[th].wait_kind = PROPER__SIM_W_NONE;
        proper__sim_schedule(s, s->now + s->m->wakeup, PROPER__SIM_EV_DELAY, th, s->th[th].gen);
        return;
    }
    proper__sim_ready(s, th);
}

/* A source's or a client's task enters queue qi (dropped when full). */
static void proper__sim_offer(proper__sim *s, size_t qi, size_t task) {
    proper__sim_queuert *q = &s->q[qi];
    size_t cap = s->m->queues[qi].capacity;
    if (q->getters.len) {
        proper__sim_give(s, proper__sim_fifo_pop(&q->getters), task, 0);
    } else if (cap == 0 || q->tasks.len < cap) {
        if (proper__sim_fifo_push(&q->tasks, task)) { proper__sim_fail(s, PROPER_ENOMEM, "out of memory"); return; }
        proper__sim_queue_acc(s, qi);
    } else {
        proper__sim_drop(s, task);
    }
}

static void proper__sim_grant(proper__sim *s, size_t li) {
    proper__sim_lockrt *l = &s->l[li];
    if (s->m->locks[li].kind == PROPER_SIM_MUTEX) {
        if (l->owner == PROPER_SIM_NONE && l->waiters.len) {
            l->owner = proper__sim_fifo_pop(&l->waiters);
            proper__sim_ready(s, l->owner);
        }
    } else if (s->m->locks[li].kind == PROPER_SIM_RWLOCK) {
        while (l->waiters.len && l->owner == PROPER_SIM_NONE) {
            size_t h = proper__sim_fifo_peek(&l->waiters);
            if (s->th[h].write) {
                if (l->readers) break;
                l->owner = proper__sim_fifo_pop(&l->waiters);
                proper__sim_ready(s, h);
                break;
            }
            proper__sim_fifo_pop(&l->waiters);
            l->readers++;
            proper__sim_ready(s, h);
        }
    }
    proper__sim_lock_acc(s, li);
}

/* After a signal or a cwait timeout: take the cwait's mutex back. */
static void proper__sim_reacquire(proper__sim *s, size_t th) {
    proper__sim_thread *t = &s->th[th];
    size_t mi = s->m->pools[t->pool].nodes[t->node].obj2;
    proper__sim_lockrt *l = &s->l[mi];
    t->gen++; /* the cwait timeout no longer applies */
    if (l->owner == PROPER_SIM_NONE && l->waiters.len == 0) {
        l->owner = th;
        proper__sim_lock_acc(s, mi);
        proper__sim_ready(s, th);
    } else {
        t->write = 1;
        if (proper__sim_fifo_push(&l->waiters, th)) proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
        t->wait_kind = PROPER__SIM_W_NONE; /* no timeout while re-acquiring */
    }
}

/* ---- CPU and disk ---- */

static void proper__sim_slice(proper__sim *s, size_t th) {
    proper__sim_thread *t = &s->th[th];
    if (!(t->budget > 0)) t->budget = s->m->quantum;
    t->slice = t->work < t->budget ? t->work : t->budget;
    proper__sim_schedule(s, s->now + t->slice, PROPER__SIM_EV_CPU, th, t->gen);
}

/* Per-core figures: a thread that gets a free core takes the one idle
 * longest (as an OS spreading load would); one that leaves a core to the
 * next thread of the run queue hands it over. */
static void proper__sim_core_take(proper__sim *s, size_t th) {
    if (!s->n_core_acc) return;
    s->th[th].core = proper__sim_fifo_pop(&s->idle_cores);
    proper__sim_acc_set(s, proper__sim_acc_core(s, s->th[th].core), 1);
}

static void proper__sim_core_give(proper__sim *s, size_t th) {
    if (!s->n_core_acc) return;
    proper__sim_acc_set(s, proper__sim_acc_core(s, s->th[th].core), 0);
    if (proper__sim_fifo_push(&s->idle_cores, s->th[th].core)) proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
}

static void proper__sim_ps_update(proper__sim *s) {
    size_t i;
    double r, dt = s->now - s->ps_last;
    if (s->n_ps && dt > 0) {
        r = s->n_ps <= s->m->cores ? 1.0 : (double)s->m->cores / (double)s->n_ps;
        for (i = 0; i < s->n_ps; i++) s->th[s->ps[i]].work -= r * dt;
    }
    s->ps_last = s->now;
}

static void proper__sim_ps_resched(proper__sim *s) {
    size_t i, best = 0;
    double r;
    s->ps_gen++;
    proper__sim_acc_set(s, 0, (double)(s->n_ps < s->m->cores ? s->n_ps : s->m->cores));
    /* processor sharing spreads the busy share over every core evenly */
    for (i = 0; i < s->n_core_acc; i++)
        proper__sim_acc_set(s, proper__sim_acc_core(s, i),
                            (double)(s->n_ps < s->m->cores ? s->n_ps : s->m->cores) / (double)s->m->cores);
    if (!s->n_ps) return;
    r = s->n_ps <= s->m->cores ? 1.0 : (double)s->m->cores / (double)s->n_ps;
    for (i = 1; i < s->n_ps; i++)
        if (s->th[s->ps[i]].work < s->th[s->ps[best]].work) best = i;
    proper__sim_schedule(s, s->now + (s->th[s->ps[best]].work > 0 ? s->th[s->ps[best]].work / r : 0),
                         PROPER__SIM_EV_PS, s->ps[best], s->ps_gen);
}

/* A thread gets a core: a new time slice. */
static void proper__sim_core_start(proper__sim *s, size_t th) {
    s->th[th].budget = s->m->quantum;
    proper__sim_slice(s, th);
}

/* The core of thread th goes to the run queue's first thread, or is free. */
static void proper__sim_core_release(proper__sim *s, size_t th) {
    proper__sim_thread *t = &s->th[th];
    t->held = 0;
    if (s->runq.len) {
        size_t next = proper__sim_fifo_pop(&s->runq);
        s->th[next].core = t->core;
        proper__sim_core_start(s, next);
    } else {
        s->free_cores++;
        proper__sim_acc_set(s, 0, (double)(s->m->cores - s->free_cores));
        proper__sim_core_give(s, th);
    }
}

static void proper__sim_cpu(proper__sim *s, size_t th, double w) {
    s->th[th].work = w;
    if (s->m->quantum == 0) {
        proper__sim_ps_update(s);
        s->ps[s->n_ps++] = th;
        proper__sim_ps_resched(s);
    } else if (s->th[th].held) {
        /* the next fragment of a thread that kept running: the rest of its slice */
        s->th[th].held = 0;
        proper__sim_slice(s, th);
    } else if (s->free_cores) {
        s->free_cores--;
        proper__sim_acc_set(s, 0, (double)(s->m->cores - s->free_cores));
        proper__sim_core_take(s, th);
        proper__sim_core_start(s, th);
    } else if (proper__sim_fifo_push(&s->runq, th)) {
        proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
    }
}

/* A slice ends. A thread whose fragment is done keeps its core (an OS runs
 * a thread until it waits or its slice is over): it goes on to its next
 * nodes, and proper__sim_run_thread releases the core when it comes to
 * wait; with its slice used up and threads waiting for a core, it gives the
 * core up at once. A thread with work left is preempted when others wait. */
static void proper__sim_cpu_end(proper__sim *s, size_t th) {
    proper__sim_thread *t = &s->th[th];
    int done = t->slice >= t->work;
    t->work -= t->slice;
    t->budget -= t->slice;
    if (done) {
        t->held = 1;
        if (!(t->budget > 0) && s->runq.len) proper__sim_core_release(s, th);
        t->resume = 1;
        proper__sim_ready(s, th);
    } else if (s->runq.len) {
        size_t next;
        if (proper__sim_fifo_push(&s->runq, th)) { proper__sim_fail(s, PROPER_ENOMEM, "out of memory"); return; }
        next = proper__sim_fifo_pop(&s->runq);
        s->th[next].core = t->core;
        proper__sim_core_start(s, next);
    } else {
        proper__sim_core_start(s, th);
    }
}

static void proper__sim_ps_end(proper__sim *s, size_t th) {
    size_t i = 0;
    proper__sim_ps_update(s);
    while (i < s->n_ps) {
        size_t x = s->ps[i];
        /* the thread the event was for leaves even if round-off left it a
         * sliver of work; others leave when their work is gone */
        if (x == th || s->th[x].work <= 1e-12 * (1 + s->now)) {
            s->ps[i] = s->ps[--s->n_ps];
            s->th[x].resume = 1;
            proper__sim_ready(s, x);
        } else {
            i++;
        }
    }
    proper__sim_ps_resched(s);
}

static void proper__sim_disk(proper__sim *s, size_t th) {
    proper__sim_thread *t = &s->th[th];
    const proper_sim_pool *p = &s->m->pools[t->pool];
    t->work = proper__sim_sample(s, &p->nodes[t->node].dist, &s->al_dist[s->node_base[t->pool] + t->node]);
    if (s->free_disks) {
        s->free_disks--;
        proper__sim_acc_set(s, 1, (double)(s->m->disks - s->free_disks));
        proper__sim_schedule(s, s->now + t->work, PROPER__SIM_EV_DISK, th, 0);
    } else if (proper__sim_fifo_push(&s->diskq, th)) {
        proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
    }
}

static void proper__sim_disk_end(proper__sim *s, size_t th) {
    proper__sim_thread *t = &s->th[th];
    if (s->diskq.len) {
        size_t nx = proper__sim_fifo_pop(&s->diskq);
        proper__sim_schedule(s, s->now + s->th[nx].work, PROPER__SIM_EV_DISK, nx, 0);
    } else {
        s->free_disks++;
        proper__sim_acc_set(s, 1, (double)(s->m->disks - s->free_disks));
    }
    if (--t->k > 0) {
        proper__sim_disk(s, th);
    } else {
        t->resume = 1;
        proper__sim_ready(s, th);
    }
}

/* ---- the PCG walk ---- */

static size_t proper__sim_pick(proper__sim *s, const proper_sim_node *n) {
    size_t i;
    double u, c = 0;
    if (n->n_next == 0) return PROPER_SIM_NONE;
    if (n->n_next == 1) return n->next[0];
    u = proper_rng_uniform(&s->rng);
    for (i = 0; i + 1 < n->n_next; i++) {
        c += n->prob[i];
        if (u < c) return n->next[i];
    }
    return n->next[n->n_next - 1];
}

static int proper__sim_node_error(proper__sim *s, size_t th, const char *what) {
    const proper__sim_thread *t = &s->th[th];
    const proper_sim_pool *p = &s->m->pools[t->pool];
    return proper__sim_fail(s, PROPER_ESTATE, "pool %s node %s at t=%g: %s", p->name ? p->name : "?",
                            p->nodes[t->node].name ? p->nodes[t->node].name : "?", s->now, what);
}

/* Thread th reaches its current node, a loop: the loop's depth in the
 * thread's stack of loops (-1 on a model error). If the loop is inside the
 * stack, the loops above it were left (their bodies went back to it); if not,
 * a new visit starts and draws its iteration count. */
static int proper__sim_loop_enter(proper__sim *s, size_t th, size_t base) {
    proper__sim_thread *t = &s->th[th];
    const proper_sim_node *n = &s->m->pools[t->pool].nodes[t->node];
    int d = t->n_loops;
    double k;
    while (d > 0 && t->loop_node[d - 1] != t->node) d--;
    if (d > 0) {
        t->n_loops = d;
        return d - 1;
    }
    if (t->n_loops == PROPER_SIM_MAX_LOOP_DEPTH) {
        proper__sim_node_error(s, th, "loops nested deeper than PROPER_SIM_MAX_LOOP_DEPTH");
        return -1;
    }
    k = floor(proper__sim_sample(s, &n->dist, &s->al_dist[base]) + 0.5);
    d = t->n_loops++;
    t->loop_node[d] = t->node;
    t->loop_left[d] = k > 1e18 ? (long long)1e18 : (long long)k;
    return d;
}

/* Run thread th until it waits for time or for another thread. */
static void proper__sim_step_thread(proper__sim *s, size_t th);

/* Run a ready thread until it waits (for a core, the disk, a delay, a lock,
 * a task) or ends; a core it kept from its last CPU fragment then goes on. */
static void proper__sim_run_thread(proper__sim *s, size_t th) {
    proper__sim_step_thread(s, th);
    if (s->th[th].held) proper__sim_core_release(s, th);
}

static void proper__sim_step_thread(proper__sim *s, size_t th) {
    proper__sim_thread *t = &s->th[th];
    const proper_sim_pool *p = &s->m->pools[t->pool];
    if (t->resume) {
        size_t nx = proper__sim_pick(s, &p->nodes[t->node]);
        t->resume = 0;
        if (nx == PROPER_SIM_NONE) goto end;
        t->node = nx;
    }
    for (;;) {
        const proper_sim_node *n = &p->nodes[t->node];
        size_t base = s->node_base[t->pool] + t->node, nx;
        if (s->status) return;
        if (++s->instant > PROPER_SIM_MAX_INSTANT) {
            proper__sim_node_error(s, th, "a cycle of the PCG takes no time (threads would spin forever)");
            return;
        }
        switch (n->op) {
        case PROPER_SIM_OP_NOP: break;
        case PROPER_SIM_OP_CPU: {
            double w = proper__sim_sample(s, &n->dist, &s->al_dist[base]);
            if (w > 0) { proper__sim_cpu(s, th, w); return; }
            break;
        }
        case PROPER_SIM_OP_DELAY: {
            double w = proper__sim_sample(s, &n->dist, &s->al_dist[base]);
            if (w > 0) {
                t->resume = 1;
                proper__sim_schedule(s, s->now + w, PROPER__SIM_EV_DELAY, th, t->gen);
                return;
            }
            break;
        }
        case PROPER_SIM_OP_IO: {
            double k = n->has_count ? floor(proper__sim_sample(s, &n->count, &s->al_count[base]) + 0.5) : 1.0;
            if (k >= 1) {
                t->k = k > 1e9 ? 1000000000LL : (long long)k;
                proper__sim_disk(s, th);
                return;
            }
            break;
        }
        case PROPER_SIM_OP_GET: {
            proper__sim_queuert *q = &s->q[n->obj];
            if (q->tasks.len) {
                if (t->task != PROPER_SIM_NONE) proper__sim_drop(s, t->task);
                t->task = proper__sim_fifo_pop(&q->tasks);
                if (q->putters.len) {
                    size_t w = proper__sim_fifo_pop(&q->putters);
                    if (proper__sim_fifo_push(&q->tasks, s->th[w].task)) { proper__sim_fail(s, PROPER_ENOMEM, "out of memory"); return; }
                    s->th[w].task = PROPER_SIM_NONE;
                    proper__sim_ready(s, w);
                }
                proper__sim_queue_acc(s, n->obj);
                break;
            }
            proper__sim_block(s, th, &q->getters, PROPER__SIM_W_GET, n->obj);
            return;
        }
        case PROPER_SIM_OP_PUT: {
            proper__sim_queuert *q = &s->q[n->obj];
            size_t cap = s->m->queues[n->obj].capacity;
            size_t task = t->task;
            if (task == PROPER_SIM_NONE && (task = proper__sim_task_new(s, PROPER_SIM_NONE)) == PROPER_SIM_NONE) return;
            t->task = PROPER_SIM_NONE;
            if (q->getters.len) {
                proper__sim_give(s, proper__sim_fifo_pop(&q->getters), task, 1);
            } else if (cap == 0 || q->tasks.len < cap) {
                if (proper__sim_fifo_push(&q->tasks, task)) { proper__sim_fail(s, PROPER_ENOMEM, "out of memory"); return; }
                proper__sim_queue_acc(s, n->obj);
            } else {
                t->task = task;
                proper__sim_block(s, th, &q->putters, PROPER__SIM_W_PUT, n->obj);
                return;
            }
            break;
        }
        case PROPER_SIM_OP_DONE:
            proper__sim_complete(s, t->task);
            t->task = PROPER_SIM_NONE;
            break;
        case PROPER_SIM_OP_LOCK: case PROPER_SIM_OP_WLOCK: {
            proper__sim_lockrt *l = &s->l[n->obj];
            if (l->owner == PROPER_SIM_NONE && l->readers == 0 && l->waiters.len == 0) {
                l->owner = th;
                proper__sim_lock_acc(s, n->obj);
                break;
            }
            if (l->owner == th) { proper__sim_node_error(s, th, "the thread already holds this lock (self-deadlock)"); return; }
            t->write = 1;
            proper__sim_block(s, th, &l->waiters, PROPER__SIM_W_LOCK, n->obj);
            return;
        }
        case PROPER_SIM_OP_RLOCK: {
            proper__sim_lockrt *l = &s->l[n->obj];
            if (l->owner == PROPER_SIM_NONE && l->waiters.len == 0) {
                l->readers++;
                proper__sim_lock_acc(s, n->obj);
                break;
            }
            t->write = 0;
            proper__sim_block(s, th, &l->waiters, PROPER__SIM_W_LOCK, n->obj);
            return;
        }
        case PROPER_SIM_OP_UNLOCK: {
            proper__sim_lockrt *l = &s->l[n->obj];
            if (l->owner == th) l->owner = PROPER_SIM_NONE;
            else if (s->m->locks[n->obj].kind == PROPER_SIM_RWLOCK && l->readers > 0) l->readers--;
            else { proper__sim_node_error(s, th, "unlock of a lock the thread does not hold"); return; }
            proper__sim_grant(s, n->obj);
            break;
        }
        case PROPER_SIM_OP_WAIT: {
            proper__sim_lockrt *l = &s->l[n->obj];
            if (l->count > 0 && l->waiters.len == 0) {
                l->count--;
                proper__sim_lock_acc(s, n->obj);
                break;
            }
            proper__sim_block(s, th, &l->waiters, PROPER__SIM_W_LOCK, n->obj);
            return;
        }
        case PROPER_SIM_OP_POST: {
            proper__sim_lockrt *l = &s->l[n->obj];
            if (l->waiters.len) proper__sim_ready(s, proper__sim_fifo_pop(&l->waiters));
            else l->count++;
            proper__sim_lock_acc(s, n->obj);
            break;
        }
        case PROPER_SIM_OP_AWAIT: {
            proper__sim_lockrt *l = &s->l[n->obj];
            if (++l->count >= l->parties) {
                l->count = 0;
                while (l->waiters.len) proper__sim_ready(s, proper__sim_fifo_pop(&l->waiters));
                proper__sim_lock_acc(s, n->obj);
                break;
            }
            proper__sim_block(s, th, &l->waiters, PROPER__SIM_W_LOCK, n->obj);
            proper__sim_lock_acc(s, n->obj);
            return;
        }
        case PROPER_SIM_OP_CWAIT: {
            proper__sim_lockrt *mx = &s->l[n->obj2];
            if (mx->owner != th) { proper__sim_node_error(s, th, "cwait without holding its mutex"); return; }
            mx->owner = PROPER_SIM_NONE;
            proper__sim_grant(s, n->obj2);
            proper__sim_block(s, th, &s->l[n->obj].waiters, PROPER__SIM_W_COND, n->obj);
            proper__sim_lock_acc(s, n->obj);
            return;
        }
        case PROPER_SIM_OP_SIGNAL: case PROPER_SIM_OP_BROADCAST: {
            proper__sim_lockrt *l = &s->l[n->obj];
            do {
                size_t w = proper__sim_fifo_pop(&l->waiters);
                if (w == PROPER_SIM_NONE) break;
                s->th[w].resume = 1;
                proper__sim_reacquire(s, w);
            } while (n->op == PROPER_SIM_OP_BROADCAST);
            proper__sim_lock_acc(s, n->obj);
            break;
        }
        case PROPER_SIM_OP_LOOP: {
            int d = proper__sim_loop_enter(s, th, base);
            if (d < 0) return;
            if (t->loop_left[d] > 0) {
                t->loop_left[d]--;
                t->node = n->body;
                continue;
            }
            t->n_loops = d; /* the loop is done */
            break;
        }
        }
        nx = proper__sim_pick(s, n);
        if (nx == PROPER_SIM_NONE) goto end;
        t->node = nx;
    }
end:
    t->dead = 1;
    if (t->task != PROPER_SIM_NONE) {
        proper__sim_drop(s, t->task);
        t->task = PROPER_SIM_NONE;
    }
}

static void proper__sim_timeout(proper__sim *s, size_t th) {
    proper__sim_thread *t = &s->th[th];
    const proper_sim_node *n = &s->m->pools[t->pool].nodes[t->node];
    int kind = t->wait_kind;
    size_t obj = t->wait_obj;
    if (kind == PROPER__SIM_W_GET) proper__sim_fifo_remove(&s->q[obj].getters, th);
    else if (kind == PROPER__SIM_W_LOCK || kind == PROPER__SIM_W_COND) proper__sim_fifo_remove(&s->l[obj].waiters, th);
    else return;
    t->wait_kind = PROPER__SIM_W_NONE;
    if (kind == PROPER__SIM_W_COND) {
        proper__sim_lock_acc(s, obj);
        proper__sim_reacquire(s, th);
        t->node = n->on_timeout;
        t->resume = 0;
        return;
    }
    if (kind == PROPER__SIM_W_LOCK) proper__sim_grant(s, obj);
    t->node = n->on_timeout;
    t->resume = 0;
    proper__sim_ready(s, th);
}

static void proper__sim_drain(proper__sim *s) {
    s->instant = 0;
    while (s->ready.len && !s->status) proper__sim_run_thread(s, proper__sim_fifo_pop(&s->ready));
}

/* ---- one replication ---- */

static void proper__sim_free_rt(proper__sim *s) {
    size_t i;
    if (s->q)
        for (i = 0; i < s->m->n_queues; i++) {
            PROPER_FREE(s->q[i].tasks.d);
            PROPER_FREE(s->q[i].getters.d);
            PROPER_FREE(s->q[i].putters.d);
        }
    if (s->l)
        for (i = 0; i < s->m->n_locks; i++) PROPER_FREE(s->l[i].waiters.d);
    PROPER_FREE(s->q);
    PROPER_FREE(s->l);
    PROPER_FREE(s->heap);
    PROPER_FREE(s->th);
    PROPER_FREE(s->t_created);
    PROPER_FREE(s->t_client);
    PROPER_FREE(s->runq.d);
    PROPER_FREE(s->idle_cores.d);
    PROPER_FREE(s->ps);
    PROPER_FREE(s->diskq.d);
    PROPER_FREE(s->ready.d);
    PROPER_FREE(s->client_src);
    PROPER_FREE(s->arrived);
    PROPER_FREE(s->acc_value);
    PROPER_FREE(s->acc_last);
    PROPER_FREE(s->acc_area);
    PROPER_FREE(s->snap);
    PROPER_FREE(s->c_time);
    PROPER_FREE(s->c_resp);
    s->q = NULL;
    s->l = NULL;
    s->heap = NULL;
    s->th = NULL;
    s->t_created = NULL;
    s->t_client = NULL;
    s->ps = NULL;
    s->client_src = s->arrived = NULL;
    s->acc_value = s->acc_last = s->acc_area = s->snap = NULL;
    s->c_time = s->c_resp = NULL;
    memset(&s->runq, 0, sizeof s->runq);
    memset(&s->idle_cores, 0, sizeof s->idle_cores);
    memset(&s->diskq, 0, sizeof s->diskq);
    memset(&s->ready, 0, sizeof s->ready);
}

/* Set up the state of one replication at t = 0. */
static int proper__sim_setup(proper__sim *s) {
    const proper_sim_model *m = s->m;
    size_t i, j, k, B = PROPER_SIM_BUCKETS;
    s->now = 0;
    s->n_heap = 0;
    s->cap_heap = 0;
    s->seq = 0;
    s->n_tasks = s->cap_tasks = 0;
    s->free_task = PROPER_SIM_NONE;
    s->n_ps = 0;
    s->ps_last = 0;
    s->ps_gen = 0;
    s->n_comp = s->cap_comp = 0;
    s->dropped = 0;
    s->events = 0;
    s->n_th = 0;
    for (i = 0; i < m->n_pools; i++) s->n_th += m->pools[i].threads;
    s->n_clients = 0;
    for (i = 0; i < m->n_sources; i++)
        if (m->sources[i].closed) s->n_clients += m->sources[i].count;
    s->n_core_acc = m->cores <= PROPER_SIM_CORE_STATS_MAX ? m->cores : 0;
    s->n_acc = 2 + m->n_locks + m->n_queues + s->n_core_acc;
    s->th = (proper__sim_thread *)proper_calloc(s->n_th ? s->n_th : 1, sizeof *s->th);
    s->ps = (size_t *)proper_calloc(s->n_th ? s->n_th : 1, sizeof(size_t));
    s->q = (proper__sim_queuert *)proper_calloc(m->n_queues ? m->n_queues : 1, sizeof *s->q);
    s->l = (proper__sim_lockrt *)proper_calloc(m->n_locks ? m->n_locks : 1, sizeof *s->l);
    s->client_src = (size_t *)proper_calloc(s->n_clients ? s->n_clients : 1, sizeof(size_t));
    s->arrived = (size_t *)proper_calloc(m->n_sources ? m->n_sources : 1, sizeof(size_t));
    s->acc_value = (double *)proper_calloc(s->n_acc, sizeof(double));
    s->acc_last = (double *)proper_calloc(s->n_acc, sizeof(double));
    s->acc_area = (double *)proper_calloc(s->n_acc, sizeof(double));
    s->snap = (double *)proper_calloc((B + 1) * s->n_acc, sizeof(double));
    if (!s->th || !s->ps || !s->q || !s->l || !s->client_src || !s->arrived || !s->acc_value || !s->acc_last ||
        !s->acc_area || !s->snap)
        return proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
    s->free_cores = m->cores;
    for (i = 0; i < s->n_core_acc; i++)
        if (proper__sim_fifo_push(&s->idle_cores, i)) return proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
    s->free_disks = m->disks;
    for (i = 0; i < m->n_locks; i++) {
        s->l[i].owner = PROPER_SIM_NONE;
        s->l[i].count = m->locks[i].kind == PROPER_SIM_SEMAPHORE ? m->locks[i].count : 0;
        s->l[i].parties = m->locks[i].kind != PROPER_SIM_BARRIER ? 0
                          : m->locks[i].pool != PROPER_SIM_NONE ? m->pools[m->locks[i].pool].threads
                                                                : m->locks[i].count;
    }
    for (i = 1; i <= B; i++) proper__sim_schedule(s, s->horizon * (double)i / (double)B, PROPER__SIM_EV_SNAP, i, 0);
    for (i = 0, k = 0; i < m->n_sources; i++) {
        const proper_sim_source *src = &m->sources[i];
        if (!src->closed) {
            proper__sim_schedule(s, proper__sim_sample(s, &src->dist, &s->al_src[i]), PROPER__SIM_EV_ARRIVAL, i, 0);
        } else {
            for (j = 0; j < src->count; j++, k++) {
                s->client_src[k] = i;
                proper__sim_client_next(s, k);
            }
        }
    }
    for (i = 0, k = 0; i < m->n_pools; i++)
        for (j = 0; j < m->pools[i].threads; j++, k++) {
            s->th[k].pool = i;
            s->th[k].node = 0;
            s->th[k].task = PROPER_SIM_NONE;
            s->th[k].resume = 0;
            if (proper__sim_fifo_push(&s->ready, k)) return proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
        }
    return s->status;
}

static void proper__sim_event(proper__sim *s, const proper__sim_ev *e) {
    size_t i;
    switch (e->kind) {
    case PROPER__SIM_EV_ARRIVAL: {
        const proper_sim_source *src = &s->m->sources[e->id];
        size_t t = proper__sim_task_new(s, PROPER_SIM_NONE);
        if (t == PROPER_SIM_NONE) return;
        s->t_created[t] -= src->latency; /* the task left its client that long ago */
        proper__sim_offer(s, src->queue, t);
        s->arrived[e->id]++;
        if (src->count == 0 || s->arrived[e->id] < src->count)
            proper__sim_schedule(s, s->now + proper__sim_sample(s, &src->dist, &s->al_src[e->id]),
                                 PROPER__SIM_EV_ARRIVAL, e->id, 0);
        break;
    }
    case PROPER__SIM_EV_ISSUE: {
        const proper_sim_source *src = &s->m->sources[s->client_src[e->id]];
        size_t t = proper__sim_task_new(s, e->id);
        if (t == PROPER_SIM_NONE) return;
        s->t_created[t] -= src->latency;
        proper__sim_offer(s, src->queue, t);
        break;
    }
    case PROPER__SIM_EV_CPU: proper__sim_cpu_end(s, e->id); break;
    case PROPER__SIM_EV_PS:
        if (e->gen == s->ps_gen) proper__sim_ps_end(s, e->id);
        break;
    case PROPER__SIM_EV_DISK: proper__sim_disk_end(s, e->id); break;
    case PROPER__SIM_EV_DELAY: proper__sim_ready(s, e->id); break;
    case PROPER__SIM_EV_TIMEOUT:
        if (e->gen == s->th[e->id].gen) proper__sim_timeout(s, e->id);
        break;
    case PROPER__SIM_EV_SNAP:
        for (i = 0; i < s->n_acc; i++) {
            proper__sim_acc_set(s, i, s->acc_value[i]);
            s->snap[e->id * s->n_acc + i] = s->acc_area[i];
        }
        break;
    }
}

static int proper__sim_dcmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* MSER (White 1997) on a series of batch means: the number of leading
 * points to discard, at most half of them, minimising the squared standard
 * error of the mean of the rest. */
static size_t proper__sim_mser(const double *z, size_t m) {
    size_t d, best = 0, i;
    double s1 = 0, s2 = 0, bestv = INFINITY;
    if (m < 4) return 0;
    for (i = 0; i < m; i++) { s1 += z[i]; s2 += z[i] * z[i]; }
    for (d = 0; d <= m / 2; d++) {
        double k = (double)(m - d), v = (s2 - s1 * s1 / k) / (k * k);
        if (v < bestv) { bestv = v; best = d; }
        s1 -= z[d];
        s2 -= z[d] * z[d];
    }
    return best;
}

/* Add one replication's response times (sum and count per bucket) and
 * completions per bucket to the warm-up series. */
static void proper__sim_series(const proper__sim *s, double *rsum, double *rcnt, double *comp) {
    size_t i, B = PROPER_SIM_BUCKETS;
    for (i = 0; i < s->n_comp; i++) {
        size_t b = (size_t)(s->c_time[i] / s->horizon * (double)B);
        if (b >= B) b = B - 1;
        comp[b] += 1;
        if (!isnan(s->c_resp[i])) { rsum[b] += s->c_resp[i]; rcnt[b] += 1; }
    }
}

/* The warm-up from the series summed over replications: MSER on the mean
 * response time per bucket (completions per bucket when no completion has a
 * response time), buckets without completions left out. */
static double proper__sim_warmup(const proper__sim *s, const double *rsum, const double *rcnt, const double *comp) {
    size_t B = PROPER_SIM_BUCKETS, i, n = 0, d, total = 0;
    double z[PROPER_SIM_BUCKETS];
    size_t at[PROPER_SIM_BUCKETS];
    for (i = 0; i < B; i++) total += rcnt[i] > 0;
    for (i = 0; i < B; i++) {
        if (total ? rcnt[i] > 0 : 1) {
            z[n] = total ? rsum[i] / rcnt[i] : comp[i];
            at[n++] = i;
        }
    }
    d = proper__sim_mser(z, n);
    return d ? s->horizon * (double)at[d] / (double)B : 0.0;
}

/* Outputs of one replication measured from the warm-up tw (rounded up to
 * a bucket boundary): out[0..4] throughput, mean response, response
 * quantile, cpu, disk; then locks, queues; *warm the warm-up used. */
static int proper__sim_measure(proper__sim *s, const proper_sim_opts *o, double tw, double *out, double *warm,
                               double *completed) {
    size_t B = PROPER_SIM_BUCKETS, b, i, nr = 0, first = 0;
    double H = s->horizon, span, sum = 0;
    double *r = (double *)proper_calloc(s->n_comp ? s->n_comp : 1, sizeof(double));
    if (!r) return proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
    b = (size_t)ceil(tw / (H / (double)B) - 1e-9);
    if (tw <= 0) b = 0;
    if (b >= B) b = B - 1;
    tw = H * (double)b / (double)B;
    span = H - tw;
    *warm = tw;
    while (first < s->n_comp && s->c_time[first] < tw) first++;
    for (i = first; i < s->n_comp; i++)
        if (!isnan(s->c_resp[i])) { r[nr++] = s->c_resp[i]; sum += s->c_resp[i]; }
    *completed = (double)(s->n_comp - first);
    out[0] = (double)(s->n_comp - first) / span;
    out[1] = nr ? sum / (double)nr : NAN;
    if (nr) {
        double h = o->quantile * (double)(nr - 1);
        size_t lo = (size_t)floor(h);
        qsort(r, nr, sizeof(double), proper__sim_dcmp);
        out[2] = lo + 1 < nr ? r[lo] + (h - (double)lo) * (r[lo + 1] - r[lo]) : r[nr - 1];
    } else {
        out[2] = NAN;
    }
    for (i = 0; i < s->n_acc; i++) {
        double a = (s->snap[B * s->n_acc + i] - s->snap[b * s->n_acc + i]) / span;
        if (i == 0) a /= (double)s->m->cores;
        if (i == 1) a = s->m->disks ? a / (double)s->m->disks : 0.0;
        out[3 + i] = a;
    }
    PROPER_FREE(r);
    return PROPER_OK;
}

/* ---- results ---- */

PROPER_API proper_sim_opts proper_sim_opts_default(void) {
    proper_sim_opts o;
    o.horizon = 1000;
    o.warmup = -1;
    o.replications = 10;
    o.level = 0.95;
    o.quantile = 0.95;
    o.seed = 1;
    o.max_events = 0;
    return o;
}

PROPER_API void proper_sim_result_init(proper_sim_result *r) { memset(r, 0, sizeof *r); }

PROPER_API void proper_sim_result_free(proper_sim_result *r) {
    PROPER_FREE(r->lock_util);
    PROPER_FREE(r->queue_len);
    PROPER_FREE(r->core_util);
    proper_sim_result_init(r);
}

/* The interval of the finite values x[0], x[stride], ... (n of them). */
static void proper__sim_interval(const double *x, size_t n, size_t stride, double level, proper_interval *out) {
    size_t i, k = 0;
    double mean = 0, m2 = 0;
    for (i = 0; i < n; i++) {
        double v = x[i * stride];
        if (isnan(v)) continue;
        k++;
        m2 += (v - mean) * (v - mean) * (double)(k - 1) / (double)k;
        mean += (v - mean) / (double)k;
    }
    out->estimate = k ? mean : NAN;
    out->lo = out->hi = NAN;
    if (k >= 2) {
        double sd = sqrt(m2 / (double)(k - 1));
        if (proper_stats_t_interval(mean, sd, k, level, out, NULL)) out->lo = out->hi = NAN;
        out->estimate = mean;
    }
}

static int proper__sim_tables(proper__sim *s, int build) {
    const proper_sim_model *m = s->m;
    size_t i, j, total = 0;
    if (!build) {
        if (s->node_base) {
            for (i = 0; i < m->n_pools; i++) total += m->pools[i].n_nodes;
            for (i = 0; i < total; i++) {
                proper_alias_free(&s->al_dist[i]);
                proper_alias_free(&s->al_count[i]);
            }
            for (i = 0; i < m->n_sources; i++) proper_alias_free(&s->al_src[i]);
        }
        PROPER_FREE(s->node_base);
        PROPER_FREE(s->al_dist);
        PROPER_FREE(s->al_count);
        PROPER_FREE(s->al_src);
        s->node_base = NULL;
        s->al_dist = s->al_count = s->al_src = NULL;
        return PROPER_OK;
    }
    s->node_base = (size_t *)proper_calloc(m->n_pools + 1, sizeof(size_t));
    if (!s->node_base) return proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
    for (i = 0; i < m->n_pools; i++) {
        s->node_base[i] = total;
        total += m->pools[i].n_nodes;
    }
    s->node_base[m->n_pools] = total;
    s->al_dist = (proper_alias *)proper_calloc(total + 1, sizeof(proper_alias));
    s->al_count = (proper_alias *)proper_calloc(total + 1, sizeof(proper_alias));
    s->al_src = (proper_alias *)proper_calloc(m->n_sources + 1, sizeof(proper_alias));
    if (!s->al_dist || !s->al_count || !s->al_src) return proper__sim_fail(s, PROPER_ENOMEM, "out of memory");
    for (i = 0; i < m->n_pools; i++)
        for (j = 0; j < m->pools[i].n_nodes; j++) {
            const proper_sim_node *n = &m->pools[i].nodes[j];
            if (n->dist.kind == PROPER_SIM_EMPIRICAL &&
                proper_alias_create(&s->al_dist[s->node_base[i] + j], n->dist.weights, n->dist.n, s->err))
                return s->status = s->err ? s->err->code : PROPER_EINVAL;
            if (n->has_count && n->count.kind == PROPER_SIM_EMPIRICAL &&
                proper_alias_create(&s->al_count[s->node_base[i] + j], n->count.weights, n->count.n, s->err))
                return s->status = s->err ? s->err->code : PROPER_EINVAL;
        }
    for (i = 0; i < m->n_sources; i++)
        if (m->sources[i].dist.kind == PROPER_SIM_EMPIRICAL &&
            proper_alias_create(&s->al_src[i], m->sources[i].dist.weights, m->sources[i].dist.n, s->err))
            return s->status = s->err ? s->err->code : PROPER_EINVAL;
    return PROPER_OK;
}

/* One replication from t = 0 to the horizon on s->rng. */
static int proper__sim_replicate(proper__sim *s) {
    if (proper__sim_setup(s) != PROPER_OK) return s->status;
    proper__sim_drain(s);
    while (s->n_heap && !s->status) {
        proper__sim_ev e = proper__sim_pop(s);
        if (e.t > s->horizon) break;
        s->now = e.t;
        if (++s->events > s->max_events && s->max_events) {
            proper__sim_fail(s, PROPER_ELIMIT,
                             "a replication needed more than %llu events (raise the limit or shorten the horizon)",
                             s->max_events);
            break;
        }
        proper__sim_event(s, &e);
        proper__sim_drain(s);
        if (e.kind == PROPER__SIM_EV_SNAP && e.id == PROPER_SIM_BUCKETS) break;
    }
    return s->status;
}

PROPER_API int proper_sim_run(const proper_sim_model *m, const proper_sim_opts *opts, proper_sim_result *out,
                              proper_error *err) {
    proper_sim_opts o = opts ? *opts : proper_sim_opts_default();
    proper__sim s;
    proper_sim_result res;
    size_t R, r, k, n_cores = m->cores <= PROPER_SIM_CORE_STATS_MAX ? m->cores : 0;
    size_t nout = 5 + m->n_locks + m->n_queues + n_cores;
    double *vals = NULL, *warm = NULL, tw;
    int rc;
    if ((rc = proper_sim_validate(m, err))) return rc;
    if (!(o.horizon > 0) || isinf(o.horizon)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "the horizon must be finite and > 0");
    if (o.replications < 1 || o.replications > 1000000)
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "replications must be between 1 and 1000000");
    if (!(o.level > 0 && o.level < 1)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "the level must be in (0, 1)");
    if (!(o.quantile >= 0 && o.quantile <= 1)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "the quantile must be in [0, 1]");
    if (isnan(o.warmup) || (o.warmup >= 0 && !(o.warmup < o.horizon)))
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "the warm-up must be shorter than the horizon");
    R = o.replications;
    memset(&s, 0, sizeof s);
    s.m = m;
    s.err = err;
    s.horizon = o.horizon;
    s.max_events = o.max_events;
    proper_sim_result_init(&res);
    vals = (double *)proper_calloc(R * nout, sizeof(double));
    warm = (double *)proper_calloc(R, sizeof(double));
    res.lock_util = (proper_interval *)proper_calloc(m->n_locks ? m->n_locks : 1, sizeof(proper_interval));
    res.queue_len = (proper_interval *)proper_calloc(m->n_queues ? m->n_queues : 1, sizeof(proper_interval));
    res.core_util = (proper_interval *)proper_calloc(n_cores ? n_cores : 1, sizeof(proper_interval));
    if (!vals || !warm || !res.lock_util || !res.queue_len || !res.core_util) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    res.n_locks = m->n_locks;
    res.n_queues = m->n_queues;
    res.n_cores = n_cores;
    res.replications = R;
    proper_rng_seed(&s.rng, o.seed);
    if ((rc = proper__sim_tables(&s, 1))) goto done;
    tw = o.warmup;
    if (tw < 0) {
        /* pass 1: the warm-up from the series over all replications (the
         * same streams are replayed in pass 2) */
        proper_rng keep = s.rng;
        double *series = (double *)proper_calloc(3 * PROPER_SIM_BUCKETS, sizeof(double));
        if (!series) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto done; }
        for (r = 0; r < R && !s.status; r++) {
            proper_rng next = s.rng;
            proper_rng_jump(&next);
            if (proper__sim_replicate(&s) == PROPER_OK)
                proper__sim_series(&s, series, series + PROPER_SIM_BUCKETS, series + 2 * PROPER_SIM_BUCKETS);
            res.events += s.events;
            proper__sim_free_rt(&s);
            s.rng = next;
        }
        if (!s.status) tw = proper__sim_warmup(&s, series, series + PROPER_SIM_BUCKETS, series + 2 * PROPER_SIM_BUCKETS);
        PROPER_FREE(series);
        if (s.status) { rc = s.status; goto done; }
        s.rng = keep;
    }
    for (r = 0; r < R; r++) {
        proper_rng next = s.rng;
        double completed = 0;
        proper_rng_jump(&next); /* the next replication's stream */
        if (proper__sim_replicate(&s) == PROPER_OK)
            proper__sim_measure(&s, &o, tw, vals + r * nout, &warm[r], &completed);
        res.events += s.events;
        res.dropped += s.dropped;
        res.completed += completed;
        proper__sim_free_rt(&s);
        s.rng = next;
        if (s.status) { rc = s.status; goto done; }
    }
    proper__sim_interval(vals + 0, R, nout, o.level, &res.throughput);
    proper__sim_interval(vals + 1, R, nout, o.level, &res.response);
    proper__sim_interval(vals + 2, R, nout, o.level, &res.response_q);
    proper__sim_interval(vals + 3, R, nout, o.level, &res.cpu_util);
    proper__sim_interval(vals + 4, R, nout, o.level, &res.disk_util);
    for (k = 0; k < m->n_locks; k++) proper__sim_interval(vals + 5 + k, R, nout, o.level, &res.lock_util[k]);
    for (k = 0; k < m->n_queues; k++) proper__sim_interval(vals + 5 + m->n_locks + k, R, nout, o.level, &res.queue_len[k]);
    for (k = 0; k < n_cores; k++)
        proper__sim_interval(vals + 5 + m->n_locks + m->n_queues + k, R, nout, o.level, &res.core_util[k]);
    res.warmup = 0;
    for (r = 0; r < R; r++) res.warmup += warm[r] / (double)R;
    proper_sim_result_free(out);
    *out = res;
    res.lock_util = res.queue_len = res.core_util = NULL;
    rc = PROPER_OK;
done:
    proper__sim_tables(&s, 0);
    proper__sim_free_rt(&s);
    PROPER_FREE(vals);
    PROPER_FREE(warm);
    PROPER_FREE(res.lock_util);
    PROPER_FREE(res.queue_len);
    PROPER_FREE(res.core_util);
    return rc;
}

/* ---- the model file ---------------------------------------------------------- */

typedef struct proper__sim_ref {
    size_t pool, node, slot; /* slot n_next: the timeout's else node; pool NONE: a barrier's pool */
    char *name;
    int line, col;
} proper__sim_ref;

typedef struct proper__sim_parser {
    proper_cursor c;
    proper_error *err;
    proper_sim_model m;
    proper__sim_ref *refs;
    size_t n_refs, cap_refs;
    size_t threads, clients;
} proper__sim_parser;

static int proper__sim_err(proper__sim_parser *P, int code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int proper__sim_err(proper__sim_parser *P, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    proper_error_setv(P->err, code, P->c.file, P->c.line, P->c.col, fmt, ap);
    va_end(ap);
    return code;
}

static void proper__sim_ws(proper__sim_parser *P) {
    proper_cursor_skip_blanks(&P->c);
    if (P->c.p < P->c.end && *P->c.p == '#')
        while (P->c.p < P->c.end && *P->c.p != '\n') proper_cursor_advance(&P->c);
}

static int proper__sim_eol(proper__sim_parser *P) {
    proper__sim_ws(P);
    return P->c.p >= P->c.end || *P->c.p == '\n';
}

static int proper__sim_name_start(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; }
static int proper__sim_name_char(const char *p, const char *end) {
    char ch = *p;
    if (proper__sim_name_start(ch) || (ch >= '0' && ch <= '9') || ch == '.') return 1;
    return ch == '-' && !(p + 1 < end && p[1] == '>');
}

/* A name at the cursor: its start and length (0 when there is none). */
static size_t proper__sim_word(proper__sim_parser *P, const char **s) {
    const char *p;
    proper__sim_ws(P);
    p = P->c.p;
    *s = p;
    if (p >= P->c.end || !proper__sim_name_start(*p)) return 0;
    while (p < P->c.end && proper__sim_name_char(p, P->c.end)) p++;
    return (size_t)(p - *s);
}

static void proper__sim_skip(proper__sim_parser *P, size_t n) {
    while (n--) proper_cursor_advance(&P->c);
}

/* 1 (and consume it) when the next word is kw. */
static int proper__sim_kw(proper__sim_parser *P, const char *kw) {
    const char *s;
    size_t n = proper__sim_word(P, &s);
    if (n == strlen(kw) && memcmp(s, kw, n) == 0) {
        proper__sim_skip(P, n);
        return 1;
    }
    return 0;
}

static int proper__sim_expect_kw(proper__sim_parser *P, const char *kw) {
    if (proper__sim_kw(P, kw)) return PROPER_OK;
    return proper__sim_err(P, PROPER_EPARSE, "expected '%s'", kw);
}

static int proper__sim_punct(proper__sim_parser *P, const char *tok) {
    size_t n = strlen(tok);
    proper__sim_ws(P);
    if ((size_t)(P->c.end - P->c.p) >= n && memcmp(P->c.p, tok, n) == 0) {
        proper__sim_skip(P, n);
        return 1;
    }
    return 0;
}

static int proper__sim_expect_punct(proper__sim_parser *P, const char *tok) {
    if (proper__sim_punct(P, tok)) return PROPER_OK;
    return proper__sim_err(P, PROPER_EPARSE, "expected '%s'", tok);
}

/* A new name (owned by the caller). */
static int proper__sim_name(proper__sim_parser *P, char **out, const char *what) {
    const char *s;
    size_t n = proper__sim_word(P, &s);
    if (n == 0) return proper__sim_err(P, PROPER_EPARSE, "expected %s", what);
    if (!(*out = proper_strndup(s, n))) return proper__sim_err(P, PROPER_ENOMEM, "out of memory");
    proper__sim_skip(P, n);
    return PROPER_OK;
}

static int proper__sim_number(proper__sim_parser *P, double *v) {
    int rc;
    proper__sim_ws(P);
    rc = proper_parse_double(&P->c, v, P->err);
    if (rc == PROPER_OK && *v == 0) *v = 0; /* -0 reads as 0: the printer writes no sign */
    return rc;
}

static int proper__sim_count(proper__sim_parser *P, size_t *v, size_t max, const char *what) {
    long long x;
    proper_cursor at;
    int rc;
    proper__sim_ws(P);
    at = P->c;
    if ((rc = proper_parse_int(&P->c, &x, P->err))) return rc;
    if (x < 0 || (unsigned long long)x > (unsigned long long)max)
        return proper_cursor_error(&at, P->err, PROPER_ERANGE, "%s must be between 0 and %llu", what,
                                   (unsigned long long)max);
    *v = (size_t)x;
    return PROPER_OK;
}

static int proper__sim_expect_eol(proper__sim_parser *P) {
    if (proper__sim_eol(P)) return PROPER_OK;
    return proper__sim_err(P, PROPER_EPARSE, "expected the end of the line");
}

static int proper__sim_dist(proper__sim_parser *P, proper_sim_dist *d) {
    proper_cursor at;
    proper_error e;
    const char *s;
    size_t n, cap = 0;
    int rc;
    proper_sim_dist t;
    proper__sim_ws(P);
    at = P->c;
    n = proper__sim_word(P, &s);
    proper_sim_dist_init(&t);
    if (n == 5 && !memcmp(s, "const", 5)) t.kind = PROPER_SIM_CONST;
    else if (n == 3 && !memcmp(s, "exp", 3)) t.kind = PROPER_SIM_EXP;
    else if (n == 7 && !memcmp(s, "uniform", 7)) t.kind = PROPER_SIM_UNIFORM;
    else if (n == 6 && !memcmp(s, "erlang", 6)) t.kind = PROPER_SIM_ERLANG;
    else if (n == 9 && !memcmp(s, "empirical", 9)) t.kind = PROPER_SIM_EMPIRICAL;
    else return proper__sim_err(P, PROPER_EPARSE, "expected a distribution: const, exp, uniform, erlang or empirical");
    proper__sim_skip(P, n);
    if ((rc = proper__sim_expect_punct(P, "("))) return rc;
    if (t.kind == PROPER_SIM_EMPIRICAL) {
        do {
            double v, w;
            if ((rc = proper__sim_number(P, &v)) || (rc = proper__sim_expect_punct(P, ":")) ||
                (rc = proper__sim_number(P, &w)))
                goto fail;
            if (t.n == cap) {
                size_t c2 = cap;
                if (proper_reserve(&t.values, &c2, t.n + 1, sizeof(double)) ||
                    proper_reserve(&t.weights, &cap, t.n + 1, sizeof(double))) {
                    rc = proper__sim_err(P, PROPER_ENOMEM, "out of memory");
                    goto fail;
                }
                if (c2 < cap) cap = c2;
            }
            t.values[t.n] = v;
            t.weights[t.n++] = w;
        } while (proper__sim_punct(P, ","));
    } else {
        if ((rc = proper__sim_number(P, t.kind == PROPER_SIM_ERLANG ? &t.b : &t.a))) goto fail;
        if (t.kind == PROPER_SIM_UNIFORM || t.kind == PROPER_SIM_ERLANG) {
            if ((rc = proper__sim_expect_punct(P, ",")) || (rc = proper__sim_number(P, t.kind == PROPER_SIM_ERLANG ? &t.a : &t.b)))
                goto fail;
        }
    }
    if ((rc = proper__sim_expect_punct(P, ")"))) goto fail;
    if (proper__sim_dist_check(&t, "distribution", &e)) {
        rc = proper_cursor_error(&at, P->err, e.code, "%s", e.message);
        goto fail;
    }
    proper_sim_dist_free(d);
    *d = t;
    return PROPER_OK;
fail:
    proper_sim_dist_free(&t);
    return rc;
}

/* Index of a declared object of the model named s[0..n), or NONE. */
static size_t proper__sim_find(const proper_sim_model *m, int what, const char *s, size_t n) {
    size_t i;
#define PROPER__SIM_FIND(arr, cnt)                                                                   \
    for (i = 0; i < (cnt); i++)                                                                      \
        if ((arr)[i].name && strlen((arr)[i].name) == n && memcmp((arr)[i].name, s, n) == 0) return i;
    if (what == 'q') { PROPER__SIM_FIND(m->queues, m->n_queues) }
    if (what == 'l') { PROPER__SIM_FIND(m->locks, m->n_locks) }
    if (what == 'p') { PROPER__SIM_FIND(m->pools, m->n_pools) }
    if (what == 's') { PROPER__SIM_FIND(m->sources, m->n_sources) }
#undef PROPER__SIM_FIND
    return PROPER_SIM_NONE;
}

static int proper__sim_new_name(proper__sim_parser *P, char **out, const char *what) {
    const char *s;
    size_t n = proper__sim_word(P, &s);
    if (n && (proper__sim_find(&P->m, 'q', s, n) != PROPER_SIM_NONE || proper__sim_find(&P->m, 'l', s, n) != PROPER_SIM_NONE ||
              proper__sim_find(&P->m, 'p', s, n) != PROPER_SIM_NONE || proper__sim_find(&P->m, 's', s, n) != PROPER_SIM_NONE))
        return proper__sim_err(P, PROPER_EINVAL, "'%.*s' is already declared", (int)n, s);
    return proper__sim_name(P, out, what);
}

/* A reference to a declared queue ('q') or lock ('l'). */
static int proper__sim_use(proper__sim_parser *P, int what, size_t *idx) {
    const char *s;
    size_t n = proper__sim_word(P, &s);
    if (n == 0) return proper__sim_err(P, PROPER_EPARSE, "expected a %s name", what == 'q' ? "queue" : "lock");
    *idx = proper__sim_find(&P->m, what, s, n);
    if (*idx == PROPER_SIM_NONE)
        return proper__sim_err(P, PROPER_EUNDEFINED, "unknown %s '%.*s'", what == 'q' ? "queue" : "lock", (int)n, s);
    proper__sim_skip(P, n);
    return PROPER_OK;
}

static int proper__sim_add_ref(proper__sim_parser *P, size_t pool, size_t node, size_t slot) {
    proper__sim_ref r;
    int rc;
    proper__sim_ws(P);
    r.pool = pool;
    r.node = node;
    r.slot = slot;
    r.line = P->c.line;
    r.col = P->c.col;
    if ((rc = proper__sim_name(P, &r.name, "a node name"))) return rc;
    if (proper_reserve(&P->refs, &P->cap_refs, P->n_refs + 1, sizeof r)) {
        PROPER_FREE(r.name);
        return proper__sim_err(P, PROPER_ENOMEM, "out of memory");
    }
    P->refs[P->n_refs++] = r;
    return PROPER_OK;
}

static const char *proper__sim_ops[] = {"nop", "cpu", "delay", "io", "get", "put", "done", "lock", "unlock",
                                        "rlock", "wlock", "wait", "post", "await", "cwait", "signal", "broadcast",
                                        "loop"};

/* The parser's reference slot of a loop's body (next[] slots are indices,
 * NONE is a timeout's else node). */
#define PROPER__SIM_REF_BODY (PROPER_SIM_NONE - 1)

/* One node line of pool pi (the cursor at its name). */
static int proper__sim_node_line(proper__sim_parser *P, size_t pi) {
    proper_sim_pool *p = &P->m.pools[pi];
    proper_sim_node *n;
    proper_cursor at;
    const char *s;
    size_t w, i, k, ni;
    int rc, op = -1;
    double sum = 0;
    size_t cap_next = 0;
    {
        size_t cap = p->n_nodes;
        if (proper_reserve(&p->nodes, &cap, p->n_nodes + 1, sizeof *p->nodes))
            return proper__sim_err(P, PROPER_ENOMEM, "out of memory");
    }
    ni = p->n_nodes;
    n = &p->nodes[ni];
    memset(n, 0, sizeof *n);
    proper_sim_dist_init(&n->dist);
    proper_sim_dist_init(&n->count);
    n->timeout = INFINITY;
    n->obj = n->obj2 = n->on_timeout = n->body = PROPER_SIM_NONE;
    p->n_nodes++;
    proper__sim_ws(P);
    at = P->c;
    w = proper__sim_word(P, &s);
    for (i = 0; w && i < ni; i++)
        if (strlen(p->nodes[i].name) == w && memcmp(p->nodes[i].name, s, w) == 0)
            return proper__sim_err(P, PROPER_EINVAL, "node '%.*s' is already in pool %s", (int)w, s, p->name);
    if ((rc = proper__sim_name(P, &n->name, "a node name"))) return rc;
    if ((rc = proper__sim_expect_punct(P, ":"))) return rc;
    w = proper__sim_word(P, &s);
    for (i = 0; i < sizeof proper__sim_ops / sizeof proper__sim_ops[0]; i++)
        if (strlen(proper__sim_ops[i]) == w && memcmp(proper__sim_ops[i], s, w) == 0) op = (int)i;
    if (op < 0) return proper__sim_err(P, PROPER_EPARSE, "expected an operation (cpu, io, delay, get, put, done, lock, ...)");
    proper__sim_skip(P, w);
    n->op = (proper_sim_op)op;
    if (proper__sim_op_has_dist(n->op) && (rc = proper__sim_dist(P, &n->dist))) return rc;
    if (n->op == PROPER_SIM_OP_LOOP &&
        ((rc = proper__sim_expect_kw(P, "do")) || (rc = proper__sim_add_ref(P, pi, ni, PROPER__SIM_REF_BODY))))
        return rc;
    if (n->op == PROPER_SIM_OP_IO && proper__sim_kw(P, "k")) {
        n->has_count = 1;
        if ((rc = proper__sim_dist(P, &n->count))) return rc;
    }
    if (proper__sim_op_has_queue(n->op) && (rc = proper__sim_use(P, 'q', &n->obj))) return rc;
    if (proper__sim_op_has_lock(n->op)) {
        proper__sim_ws(P);
        at = P->c;
        if ((rc = proper__sim_use(P, 'l', &n->obj))) return rc;
        if (!proper__sim_op_lock_ok(n->op, P->m.locks[n->obj].kind))
            return proper_cursor_error(&at, P->err, PROPER_EINVAL, "%s cannot be applied to lock %s",
                                       proper__sim_ops[op], P->m.locks[n->obj].name);
        if (n->op == PROPER_SIM_OP_CWAIT) {
            proper__sim_ws(P);
            at = P->c;
            if ((rc = proper__sim_use(P, 'l', &n->obj2))) return rc;
            if (P->m.locks[n->obj2].kind != PROPER_SIM_MUTEX)
                return proper_cursor_error(&at, P->err, PROPER_EINVAL, "cwait needs a mutex after its condition");
        }
    }
    proper__sim_ws(P);
    at = P->c;
    if (proper__sim_kw(P, "timeout")) {
        if (!proper__sim_op_has_timeout(n->op))
            return proper_cursor_error(&at, P->err, PROPER_EINVAL, "%s takes no timeout", proper__sim_ops[op]);
        proper__sim_ws(P);
        at = P->c;
        if ((rc = proper__sim_number(P, &n->timeout))) return rc;
        if (!(n->timeout >= 0)) return proper_cursor_error(&at, P->err, PROPER_ERANGE, "a timeout must be >= 0");
        if ((rc = proper__sim_expect_kw(P, "else"))) return rc;
        if ((rc = proper__sim_add_ref(P, pi, ni, PROPER_SIM_NONE))) return rc;
    }
    proper__sim_ws(P);
    at = P->c;
    if (proper__sim_punct(P, "->")) {
        do {
            double pr = 1;
            proper_cursor pat;
            size_t c2 = cap_next;
            n = &p->nodes[ni];
            if (proper_reserve(&n->next, &c2, n->n_next + 1, sizeof(size_t)) ||
                proper_reserve(&n->prob, &cap_next, n->n_next + 1, sizeof(double)))
                return proper__sim_err(P, PROPER_ENOMEM, "out of memory");
            if (c2 < cap_next) cap_next = c2;
            n->next[n->n_next] = PROPER_SIM_NONE;
            n->prob[n->n_next] = 1;
            k = n->n_next++;
            if ((rc = proper__sim_add_ref(P, pi, ni, k))) return rc;
            proper__sim_ws(P);
            pat = P->c;
            if (P->c.p < P->c.end && ((*P->c.p >= '0' && *P->c.p <= '9') || *P->c.p == '.' || *P->c.p == '-' || *P->c.p == '+')) {
                if ((rc = proper__sim_number(P, &pr))) return rc;
                if (!(pr >= 0 && pr <= 1)) return proper_cursor_error(&pat, P->err, PROPER_EPROB, "a probability must be in [0, 1]");
            }
            n->prob[k] = pr;
            sum += pr;
        } while (proper__sim_punct(P, ","));
        if (fabs(sum - 1) > PROPER_SIM_PROB_TOL)
            return proper_cursor_error(&at, P->err, PROPER_EPROB, "the successor probabilities sum to %.17g, not 1", sum);
    }
    return proper__sim_expect_eol(P);
}

/* Resolve the node names of pool pi (refs from `from` on). */
static int proper__sim_resolve(proper__sim_parser *P, size_t pi, size_t from) {
    size_t i, j;
    proper_sim_pool *p = &P->m.pools[pi];
    for (i = from; i < P->n_refs; i++) {
        proper__sim_ref *r = &P->refs[i];
        size_t found = PROPER_SIM_NONE;
        for (j = 0; j < p->n_nodes; j++)
            if (strcmp(p->nodes[j].name, r->name) == 0) { found = j; break; }
        if (found == PROPER_SIM_NONE)
            return proper_error_set(P->err, PROPER_EUNDEFINED, P->c.file, r->line, r->col, "no node '%s' in pool %s", r->name, p->name);
        if (r->slot == PROPER_SIM_NONE) p->nodes[r->node].on_timeout = found;
        else if (r->slot == PROPER__SIM_REF_BODY) p->nodes[r->node].body = found;
        else p->nodes[r->node].next[r->slot] = found;
    }
    return PROPER_OK;
}

static int proper__sim_pool_block(proper__sim_parser *P) {
    proper_sim_pool *p;
    proper_cursor at;
    size_t from = P->n_refs, pi;
    int rc;
    {
        size_t cap = P->m.n_pools;
        if (proper_reserve(&P->m.pools, &cap, P->m.n_pools + 1, sizeof *P->m.pools))
            return proper__sim_err(P, PROPER_ENOMEM, "out of memory");
    }
    pi = P->m.n_pools;
    p = &P->m.pools[pi];
    memset(p, 0, sizeof *p);
    if ((rc = proper__sim_new_name(P, &p->name, "a pool name"))) return rc;
    P->m.n_pools++;
    if ((rc = proper__sim_expect_kw(P, "threads"))) return rc;
    proper__sim_ws(P);
    at = P->c;
    if ((rc = proper__sim_count(P, &p->threads, PROPER_SIM_MAX_THREADS, "threads"))) return rc;
    P->threads += p->threads;
    if (P->threads > PROPER_SIM_MAX_THREADS)
        return proper_cursor_error(&at, P->err, PROPER_ELIMIT, "more than %d threads in the model", PROPER_SIM_MAX_THREADS);
    if ((rc = proper__sim_expect_eol(P))) return rc;
    for (;;) {
        if (P->c.p >= P->c.end) return proper__sim_err(P, PROPER_EPARSE, "pool %s: expected 'end'", p->name);
        proper_cursor_advance(&P->c); /* the newline */
        if (proper__sim_eol(P)) continue;
        if (proper__sim_kw(P, "end")) break;
        if ((rc = proper__sim_node_line(P, pi))) return rc;
        p = &P->m.pools[pi];
    }
    if (p->n_nodes == 0) return proper__sim_err(P, PROPER_EINVAL, "pool %s has no nodes", p->name);
    if ((rc = proper__sim_resolve(P, pi, from))) return rc;
    while (P->n_refs > from) PROPER_FREE(P->refs[--P->n_refs].name);
    return proper__sim_expect_eol(P);
}

static int proper__sim_statement(proper__sim_parser *P) {
    proper_sim_model *m = &P->m;
    proper_cursor at;
    int rc;
    if (proper__sim_kw(P, "cpu")) {
        if ((rc = proper__sim_expect_kw(P, "cores"))) return rc;
        proper__sim_ws(P);
        at = P->c;
        if ((rc = proper__sim_count(P, &m->cores, PROPER_SIM_MAX_THREADS, "cores"))) return rc;
        if (m->cores < 1) return proper_cursor_error(&at, P->err, PROPER_ERANGE, "at least one core");
        proper__sim_ws(P);
        at = P->c;
        if (proper__sim_kw(P, "ps")) m->quantum = 0;
        else if (proper__sim_kw(P, "fifo")) m->quantum = INFINITY;
        else if (proper__sim_kw(P, "quantum")) {
            proper__sim_ws(P);
            at = P->c;
            if ((rc = proper__sim_number(P, &m->quantum))) return rc;
            if (!(m->quantum > 0) || isinf(m->quantum))
                return proper_cursor_error(&at, P->err, PROPER_ERANGE, "the time slice must be finite and > 0 (or say ps or fifo)");
        } else return proper__sim_err(P, PROPER_EPARSE, "expected 'quantum', 'ps' or 'fifo'");
        if (proper__sim_kw(P, "wakeup")) {
            proper__sim_ws(P);
            at = P->c;
            if ((rc = proper__sim_number(P, &m->wakeup))) return rc;
            if (!(m->wakeup >= 0) || isinf(m->wakeup))
                return proper_cursor_error(&at, P->err, PROPER_ERANGE, "the wake-up latency must be finite and >= 0");
        }
    } else if (proper__sim_kw(P, "disk")) {
        if ((rc = proper__sim_expect_kw(P, "servers"))) return rc;
        if ((rc = proper__sim_count(P, &m->disks, PROPER_SIM_MAX_THREADS, "disk servers"))) return rc;
    } else if (proper__sim_kw(P, "queue")) {
        proper_sim_queue q;
        size_t cap = m->n_queues;
        memset(&q, 0, sizeof q);
        if ((rc = proper__sim_new_name(P, &q.name, "a queue name"))) return rc;
        if (proper__sim_kw(P, "capacity") && (rc = proper__sim_count(P, &q.capacity, (size_t)1 << 40, "capacity"))) {
            PROPER_FREE(q.name);
            return rc;
        }
        if (proper_reserve(&m->queues, &cap, m->n_queues + 1, sizeof q)) {
            PROPER_FREE(q.name);
            return proper__sim_err(P, PROPER_ENOMEM, "out of memory");
        }
        m->queues[m->n_queues++] = q;
    } else if (proper__sim_kw(P, "lock")) {
        proper_sim_lock l;
        size_t cap = m->n_locks;
        memset(&l, 0, sizeof l);
        l.pool = PROPER_SIM_NONE;
        if ((rc = proper__sim_new_name(P, &l.name, "a lock name"))) return rc;
        if (proper_reserve(&m->locks, &cap, m->n_locks + 1, sizeof l)) {
            PROPER_FREE(l.name);
            return proper__sim_err(P, PROPER_ENOMEM, "out of memory");
        }
        m->locks[m->n_locks++] = l;
        if (proper__sim_kw(P, "mutex")) l.kind = PROPER_SIM_MUTEX;
        else if (proper__sim_kw(P, "rwlock")) l.kind = PROPER_SIM_RWLOCK;
        else if (proper__sim_kw(P, "cond")) l.kind = PROPER_SIM_COND;
        else if (proper__sim_kw(P, "semaphore")) {
            l.kind = PROPER_SIM_SEMAPHORE;
            if ((rc = proper__sim_count(P, &l.count, PROPER_SIM_MAX_CLIENTS, "permits"))) return rc;
        } else if (proper__sim_kw(P, "barrier")) {
            l.kind = PROPER_SIM_BARRIER;
            if (proper__sim_kw(P, "pool")) {
                if ((rc = proper__sim_add_ref(P, PROPER_SIM_NONE, m->n_locks - 1, 0))) return rc;
            } else {
                proper__sim_ws(P);
                at = P->c;
                if ((rc = proper__sim_count(P, &l.count, PROPER_SIM_MAX_CLIENTS, "parties"))) return rc;
                if (l.count < 1) return proper_cursor_error(&at, P->err, PROPER_ERANGE, "a barrier needs at least one party");
            }
        } else return proper__sim_err(P, PROPER_EPARSE, "expected mutex, rwlock, cond, semaphore or barrier");
        m->locks[m->n_locks - 1].kind = l.kind;
        m->locks[m->n_locks - 1].count = l.count;
    } else if (proper__sim_kw(P, "source")) {
        proper_sim_source *src;
        size_t cap = m->n_sources;
        if (proper_reserve(&m->sources, &cap, m->n_sources + 1, sizeof *src)) return proper__sim_err(P, PROPER_ENOMEM, "out of memory");
        src = &m->sources[m->n_sources];
        memset(src, 0, sizeof *src);
        proper_sim_dist_init(&src->dist);
        if ((rc = proper__sim_new_name(P, &src->name, "a source name"))) return rc;
        m->n_sources++;
        if (proper__sim_kw(P, "open")) {
            proper_cursor dat;
            if ((rc = proper__sim_use(P, 'q', &src->queue)) || (rc = proper__sim_expect_kw(P, "interarrival"))) return rc;
            proper__sim_ws(P);
            dat = P->c;
            if ((rc = proper__sim_dist(P, &src->dist))) return rc;
            if (!(proper_sim_dist_mean(&src->dist) > 0))
                return proper_cursor_error(&dat, P->err, PROPER_ERANGE, "the mean inter-arrival time must be > 0");
            proper__sim_ws(P);
            at = P->c;
            if (proper__sim_kw(P, "count")) {
                proper__sim_ws(P);
                at = P->c;
                if ((rc = proper__sim_count(P, &src->count, (size_t)1 << 50, "count"))) return rc;
                if (src->count == 0) return proper_cursor_error(&at, P->err, PROPER_ERANGE, "count must be >= 1 (leave it out for no limit)");
            }
        } else if (proper__sim_kw(P, "closed")) {
            if ((rc = proper__sim_use(P, 'q', &src->queue)) || (rc = proper__sim_expect_kw(P, "clients"))) return rc;
            proper__sim_ws(P);
            at = P->c;
            src->closed = 1;
            if ((rc = proper__sim_count(P, &src->count, PROPER_SIM_MAX_CLIENTS, "clients"))) return rc;
            P->clients += src->count;
            if (P->clients > PROPER_SIM_MAX_CLIENTS)
                return proper_cursor_error(&at, P->err, PROPER_ELIMIT, "more than %d clients", PROPER_SIM_MAX_CLIENTS);
            if ((rc = proper__sim_expect_kw(P, "think")) || (rc = proper__sim_dist(P, &src->dist))) return rc;
        } else return proper__sim_err(P, PROPER_EPARSE, "expected 'open' or 'closed'");
        if (proper__sim_kw(P, "latency")) {
            proper__sim_ws(P);
            at = P->c;
            if ((rc = proper__sim_number(P, &src->latency))) return rc;
            if (!(src->latency >= 0) || isinf(src->latency))
                return proper_cursor_error(&at, P->err, PROPER_ERANGE, "the latency must be finite and >= 0");
        }
    } else if (proper__sim_kw(P, "pool")) {
        return proper__sim_pool_block(P);
    } else {
        return proper__sim_err(P, PROPER_EPARSE, "expected cpu, disk, queue, lock, source or pool");
    }
    return proper__sim_expect_eol(P);
}

PROPER_API int proper_sim_parse(proper_sim_model *out, const char *text, size_t len, const char *name,
                                proper_error *err) {
    proper__sim_parser P;
    size_t i;
    int rc = PROPER_OK;
    memset(&P, 0, sizeof P);
    proper_cursor_init(&P.c, text, len, name);
    P.err = err;
    proper_sim_init(&P.m);
    /* the header */
    while (proper__sim_eol(&P) && P.c.p < P.c.end) proper_cursor_advance(&P.c);
    if (!proper__sim_kw(&P, "proper-sim")) { rc = proper__sim_err(&P, PROPER_EPARSE, "expected the header 'proper-sim 1'"); goto done; }
    {
        proper_cursor at;
        double v;
        proper__sim_ws(&P);
        at = P.c;
        if ((rc = proper__sim_number(&P, &v))) goto done;
        if (v != 1) { rc = proper_cursor_error(&at, err, PROPER_EUNSUPPORTED, "unsupported model version (this reader knows 1)"); goto done; }
        if ((rc = proper__sim_expect_eol(&P))) goto done;
    }
    while (P.c.p < P.c.end) {
        proper_cursor_advance(&P.c); /* the newline */
        if (proper__sim_eol(&P)) continue;
        if ((rc = proper__sim_statement(&P))) goto done;
    }
    /* barriers sized by a pool */
    for (i = 0; i < P.n_refs; i++) {
        proper__sim_ref *r = &P.refs[i];
        size_t pi = proper__sim_find(&P.m, 'p', r->name, strlen(r->name));
        if (pi == PROPER_SIM_NONE) {
            rc = proper_error_set(err, PROPER_EUNDEFINED, name, r->line, r->col, "unknown pool '%s'", r->name);
            goto done;
        }
        P.m.locks[r->node].pool = pi;
    }
    if ((rc = proper_sim_validate(&P.m, err))) {
        if (err) {
            char msg[PROPER_ERROR_MESSAGE_MAX];
            memcpy(msg, err->message, sizeof msg);
            msg[sizeof msg - 1] = '\0';
            proper_error_set(err, rc, name, P.c.line, P.c.col, "%s", msg);
        }
        goto done;
    }
    proper_sim_free(out);
    *out = P.m;
    proper_sim_init(&P.m);
done:
    for (i = 0; i < P.n_refs; i++) PROPER_FREE(P.refs[i].name);
    PROPER_FREE(P.refs);
    proper_sim_free(&P.m);
    return rc;
}

PROPER_API int proper_sim_read(proper_sim_model *out, const char *path, proper_error *err) {
    char *text;
    size_t len;
    int rc = proper_read_file(path, &text, &len, err);
    if (rc) return rc;
    rc = proper_sim_parse(out, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

/* ---- printing ---- */

static int proper__sim_valid_name(const char *s) {
    const char *e;
    if (!s || !proper__sim_name_start(*s)) return 0;
    e = s + strlen(s);
    for (; *s; s++)
        if (!proper__sim_name_char(s, e)) return 0;
    return 1;
}

static void proper__sim_put_num(proper_strbuf *b, double v) {
    char buf[PROPER_DOUBLE_CHARS];
    proper_strbuf_puts(b, proper_format_double(buf, v));
}

static void proper__sim_put_dist(proper_strbuf *b, const proper_sim_dist *d) {
    size_t i;
    switch (d->kind) {
    case PROPER_SIM_CONST: proper_strbuf_puts(b, "const("); proper__sim_put_num(b, d->a); break;
    case PROPER_SIM_EXP: proper_strbuf_puts(b, "exp("); proper__sim_put_num(b, d->a); break;
    case PROPER_SIM_UNIFORM:
        proper_strbuf_puts(b, "uniform(");
        proper__sim_put_num(b, d->a);
        proper_strbuf_puts(b, ", ");
        proper__sim_put_num(b, d->b);
        break;
    case PROPER_SIM_ERLANG:
        proper_strbuf_puts(b, "erlang(");
        proper__sim_put_num(b, d->b);
        proper_strbuf_puts(b, ", ");
        proper__sim_put_num(b, d->a);
        break;
    case PROPER_SIM_EMPIRICAL:
        proper_strbuf_puts(b, "empirical(");
        for (i = 0; i < d->n; i++) {
            if (i) proper_strbuf_puts(b, ", ");
            proper__sim_put_num(b, d->values[i]);
            proper_strbuf_puts(b, ":");
            proper__sim_put_num(b, d->weights[i]);
        }
        break;
    }
    proper_strbuf_puts(b, ")");
}

PROPER_API int proper_sim_format(const proper_sim_model *m, proper_strbuf *b, proper_error *err) {
    size_t i, j, k;
    int rc;
    static const char *kinds[] = {"mutex", "rwlock", "semaphore", "cond", "barrier"};
    if ((rc = proper_sim_validate(m, err))) return rc;
#define PROPER__SIM_NAMECHECK(x, what)                                                                       \
    if (!proper__sim_valid_name(x)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s has no valid name", what);
    for (i = 0; i < m->n_queues; i++) { PROPER__SIM_NAMECHECK(m->queues[i].name, "a queue") }
    for (i = 0; i < m->n_locks; i++) { PROPER__SIM_NAMECHECK(m->locks[i].name, "a lock") }
    for (i = 0; i < m->n_sources; i++) { PROPER__SIM_NAMECHECK(m->sources[i].name, "a source") }
    for (i = 0; i < m->n_pools; i++) {
        PROPER__SIM_NAMECHECK(m->pools[i].name, "a pool")
        for (j = 0; j < m->pools[i].n_nodes; j++) { PROPER__SIM_NAMECHECK(m->pools[i].nodes[j].name, "a node") }
    }
#undef PROPER__SIM_NAMECHECK
    proper_strbuf_puts(b, "proper-sim 1\n");
    proper_strbuf_printf(b, "cpu cores %lu ", (unsigned long)m->cores);
    if (m->quantum == 0) proper_strbuf_puts(b, "ps");
    else if (isinf(m->quantum)) proper_strbuf_puts(b, "fifo");
    else {
        proper_strbuf_puts(b, "quantum ");
        proper__sim_put_num(b, m->quantum);
    }
    if (m->wakeup > 0) {
        proper_strbuf_puts(b, " wakeup ");
        proper__sim_put_num(b, m->wakeup);
    }
    proper_strbuf_puts(b, "\n");
    proper_strbuf_printf(b, "disk servers %lu\n", (unsigned long)m->disks);
    for (i = 0; i < m->n_queues; i++) {
        proper_strbuf_printf(b, "queue %s", m->queues[i].name);
        if (m->queues[i].capacity) proper_strbuf_printf(b, " capacity %llu", (unsigned long long)m->queues[i].capacity);
        proper_strbuf_puts(b, "\n");
    }
    for (i = 0; i < m->n_locks; i++) {
        const proper_sim_lock *l = &m->locks[i];
        proper_strbuf_printf(b, "lock %s %s", l->name, kinds[l->kind]);
        if (l->kind == PROPER_SIM_SEMAPHORE || (l->kind == PROPER_SIM_BARRIER && l->pool == PROPER_SIM_NONE))
            proper_strbuf_printf(b, " %llu", (unsigned long long)l->count);
        else if (l->kind == PROPER_SIM_BARRIER)
            proper_strbuf_printf(b, " pool %s", m->pools[l->pool].name);
        proper_strbuf_puts(b, "\n");
    }
    for (i = 0; i < m->n_sources; i++) {
        const proper_sim_source *s = &m->sources[i];
        if (s->closed) {
            proper_strbuf_printf(b, "source %s closed %s clients %llu think ", s->name, m->queues[s->queue].name,
                                 (unsigned long long)s->count);
            proper__sim_put_dist(b, &s->dist);
        } else {
            proper_strbuf_printf(b, "source %s open %s interarrival ", s->name, m->queues[s->queue].name);
            proper__sim_put_dist(b, &s->dist);
            if (s->count) proper_strbuf_printf(b, " count %llu", (unsigned long long)s->count);
        }
        if (s->latency > 0) {
            proper_strbuf_puts(b, " latency ");
            proper__sim_put_num(b, s->latency);
        }
        proper_strbuf_puts(b, "\n");
    }
    for (i = 0; i < m->n_pools; i++) {
        const proper_sim_pool *p = &m->pools[i];
        proper_strbuf_printf(b, "pool %s threads %llu\n", p->name, (unsigned long long)p->threads);
        for (j = 0; j < p->n_nodes; j++) {
            const proper_sim_node *n = &p->nodes[j];
            proper_strbuf_printf(b, "  %s: %s", n->name, proper__sim_op_name(n->op));
            if (proper__sim_op_has_dist(n->op)) {
                proper_strbuf_puts(b, " ");
                proper__sim_put_dist(b, &n->dist);
            }
            if (n->op == PROPER_SIM_OP_LOOP) proper_strbuf_printf(b, " do %s", p->nodes[n->body].name);
            if (n->op == PROPER_SIM_OP_IO && n->has_count) {
                proper_strbuf_puts(b, " k ");
                proper__sim_put_dist(b, &n->count);
            }
            if (proper__sim_op_has_queue(n->op)) proper_strbuf_printf(b, " %s", m->queues[n->obj].name);
            if (proper__sim_op_has_lock(n->op)) proper_strbuf_printf(b, " %s", m->locks[n->obj].name);
            if (n->op == PROPER_SIM_OP_CWAIT) proper_strbuf_printf(b, " %s", m->locks[n->obj2].name);
            if (!isinf(n->timeout)) {
                proper_strbuf_puts(b, " timeout ");
                proper__sim_put_num(b, n->timeout);
                proper_strbuf_printf(b, " else %s", p->nodes[n->on_timeout].name);
            }
            for (k = 0; k < n->n_next; k++) {
                proper_strbuf_printf(b, "%s%s", k ? ", " : " -> ", p->nodes[n->next[k]].name);
                if (!(n->n_next == 1 && n->prob[k] == 1)) {
                    proper_strbuf_puts(b, " ");
                    proper__sim_put_num(b, n->prob[k]);
                }
            }
            proper_strbuf_puts(b, "\n");
        }
        proper_strbuf_puts(b, "end\n");
    }
    return PROPER_OK;
}

PROPER_API int proper_sim_write(const proper_sim_model *m, FILE *f, proper_error *err) {
    proper_strbuf b;
    int rc;
    proper_strbuf_init(&b);
    if ((rc = proper_sim_format(m, &b, err)) == PROPER_OK && b.len && fwrite(b.data, 1, b.len, f) != b.len)
        rc = proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error");
    proper_strbuf_free(&b);
    return rc;
}

/* ---- what-if ---- */

PROPER_API int proper_sim_set(proper_sim_model *m, const char *assignment, proper_error *err) {
    const char *eq = strchr(assignment, '=');
    char key[256];
    const char *dot, *obj = NULL, *val;
    double v;
    size_t klen, i = PROPER_SIM_NONE, hit = 0;
    int rc;
    if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof key)
        return proper_error_set(err, PROPER_EPARSE, NULL, 0, 0, "expected key=value, got '%s'", assignment);
    klen = (size_t)(eq - assignment);
    memcpy(key, assignment, klen);
    key[klen] = '\0';
    val = eq + 1;
    dot = strchr(key, '.');
    if (dot) {
        key[dot - key] = '\0';
        obj = dot + 1;
    }
    if (strcmp(key, "quantum") == 0 && !obj && (strcmp(val, "ps") == 0 || strcmp(val, "fifo") == 0)) {
        m->quantum = val[0] == 'p' ? 0 : INFINITY;
        return PROPER_OK;
    }
    if ((rc = proper_parse_double_str(val, &v, key, err))) return rc;
    if (!(v >= 0) || isinf(v)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "%s: the value must be finite and >= 0", key);
#define PROPER__SIM_INT(x)                                                                                      \
    if (v != floor(v) || v > (double)PROPER_SIM_MAX_CLIENTS)                                                     \
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "%s: expected a whole number up to %d", key, PROPER_SIM_MAX_CLIENTS);
    if (!obj && strcmp(key, "cores") == 0) {
        PROPER__SIM_INT(v)
        if (v < 1) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "cores: at least 1");
        m->cores = (size_t)v;
        return PROPER_OK;
    }
    if (!obj && strcmp(key, "disks") == 0) { PROPER__SIM_INT(v) m->disks = (size_t)v; return PROPER_OK; }
    if (!obj && strcmp(key, "quantum") == 0) {
        if (!(v > 0)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "quantum: > 0 (or ps, fifo)");
        m->quantum = v;
        return PROPER_OK;
    }
    if (!obj && strcmp(key, "wakeup") == 0) { m->wakeup = v; return PROPER_OK; }
    if (strcmp(key, "threads") == 0 || (!obj && (i = proper__sim_find(m, 'p', key, klen)) != PROPER_SIM_NONE) ||
        (!obj && strcmp(key, "workers") == 0)) {
        PROPER__SIM_INT(v)
        if (strcmp(key, "workers") == 0) {
            /* every pool that takes tasks from a queue and completes them */
            size_t p, j;
            for (p = 0; p < m->n_pools; p++) {
                int gets = 0, completes = 0;
                for (j = 0; j < m->pools[p].n_nodes; j++) {
                    gets |= m->pools[p].nodes[j].op == PROPER_SIM_OP_GET;
                    completes |= m->pools[p].nodes[j].op == PROPER_SIM_OP_DONE;
                }
                if (gets && completes) { m->pools[p].threads = (size_t)v; hit++; }
            }
            if (!hit) return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "workers: no pool gets tasks from a queue and completes them");
            return PROPER_OK;
        }
        if (!obj && strcmp(key, "threads") == 0)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "threads: say which pool (threads.POOL=N)");
        if (obj) i = proper__sim_find(m, 'p', obj, strlen(obj));
        if (i == PROPER_SIM_NONE) return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "no pool '%s'", obj ? obj : key);
        m->pools[i].threads = (size_t)v;
        return PROPER_OK;
    }
    if (strcmp(key, "capacity") == 0 && obj) {
        PROPER__SIM_INT(v)
        if ((i = proper__sim_find(m, 'q', obj, strlen(obj))) == PROPER_SIM_NONE)
            return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "no queue '%s'", obj);
        m->queues[i].capacity = (size_t)v;
        return PROPER_OK;
    }
    if (strcmp(key, "permits") == 0 && obj) {
        PROPER__SIM_INT(v)
        if ((i = proper__sim_find(m, 'l', obj, strlen(obj))) == PROPER_SIM_NONE ||
            (m->locks[i].kind != PROPER_SIM_SEMAPHORE && m->locks[i].kind != PROPER_SIM_BARRIER))
            return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "no semaphore or barrier '%s'", obj);
        if (m->locks[i].kind == PROPER_SIM_BARRIER && v < 1) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "a barrier needs a party");
        m->locks[i].count = (size_t)v;
        m->locks[i].pool = PROPER_SIM_NONE;
        return PROPER_OK;
    }
    if (strcmp(key, "rate") == 0 || strcmp(key, "clients") == 0 || strcmp(key, "think") == 0) {
        size_t s;
        int closed = key[0] != 'r';
        if (key[0] == 'r' && !(v > 0)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "rate: > 0");
        if (key[0] == 'c') { PROPER__SIM_INT(v) }
        for (s = 0; s < m->n_sources; s++) {
            proper_sim_source *src = &m->sources[s];
            double mean;
            if (src->closed != closed || (obj && strcmp(src->name, obj) != 0)) continue;
            hit++;
            if (key[0] == 'c') { src->count = (size_t)v; continue; }
            mean = proper_sim_dist_mean(&src->dist);
            if (key[0] == 't' && v == 0) {
                proper_sim_dist_free(&src->dist);
                continue; /* const(0) */
            }
            if (!(mean > 0)) {
                /* no scale to multiply: an exponential of the asked mean */
                proper_sim_dist_free(&src->dist);
                src->dist.kind = PROPER_SIM_EXP;
                src->dist.a = key[0] == 'r' ? 1.0 / v : v;
                continue;
            }
            proper_sim_dist_scale(&src->dist, (key[0] == 'r' ? 1.0 / v : v) / mean);
        }
#undef PROPER__SIM_INT
        if (!hit) return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "%s: no such %s source", key, closed ? "closed" : "open");
        return PROPER_OK;
    }
    return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0,
                            "unknown parameter '%s' (cores, quantum, wakeup, disks, threads.POOL, workers, capacity.QUEUE, permits.LOCK, rate, clients, think)", key);
}

/* ---- thread-event traces ------------------------------------------------------ */

static const char *const proper__sim_tev_words[PROPER_SIM_TEV_COUNT] = {
    "start", "exit", "begin", "end", "arrive", "done", "get.req", "get", "get.timeout", "put",
    "lock.req", "lock", "rlock.req", "rlock", "wlock.req", "wlock", "unlock", "wait.req", "wait", "post",
    "await.req", "await", "cwait.req", "cwait", "signal", "broadcast", "io.req", "io", "lock.timeout",
    "wait.timeout"};
/* names each event takes */
static const char proper__sim_tev_nnames[PROPER_SIM_TEV_COUNT] = {1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                                                  1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1};
/* the integer argument: 0 none, 1 optional, 2 required */
static const char proper__sim_tev_int[PROPER_SIM_TEV_COUNT] = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
                                                               0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0, 0};
/* the family of object an event's first name is: q queue, m mutex, r
 * rwlock, u mutex or rwlock, s semaphore, b barrier, c cond, 0 none */
static const char proper__sim_tev_family[PROPER_SIM_TEV_COUNT] = {0,   0,   0,   0,   'q', 0,   'q', 'q', 'q', 'q',
                                                                  'm', 'm', 'r', 'r', 'r', 'r', 'u', 's', 's', 's',
                                                                  'b', 'b', 'c', 'c', 'c', 'c', 0,   0,   'm', 's'};

/* The completion event of a request, or -1. */
static int proper__sim_tev_completion(int kind) {
    switch (kind) {
    case PROPER_SIM_TEV_GET_REQ: return PROPER_SIM_TEV_GET;
    case PROPER_SIM_TEV_LOCK_REQ: return PROPER_SIM_TEV_LOCK;
    case PROPER_SIM_TEV_RLOCK_REQ: return PROPER_SIM_TEV_RLOCK;
    case PROPER_SIM_TEV_WLOCK_REQ: return PROPER_SIM_TEV_WLOCK;
    case PROPER_SIM_TEV_WAIT_REQ: return PROPER_SIM_TEV_WAIT;
    case PROPER_SIM_TEV_AWAIT_REQ: return PROPER_SIM_TEV_AWAIT;
    case PROPER_SIM_TEV_CWAIT_REQ: return PROPER_SIM_TEV_CWAIT;
    case PROPER_SIM_TEV_IO_REQ: return PROPER_SIM_TEV_IO;
    default: return -1;
    }
}

/* The timeout event of a request that may carry a timeout, or -1. */
static int proper__sim_tev_timeout(int kind) {
    switch (kind) {
    case PROPER_SIM_TEV_GET_REQ: return PROPER_SIM_TEV_GET_TIMEOUT;
    case PROPER_SIM_TEV_LOCK_REQ: return PROPER_SIM_TEV_LOCK_TIMEOUT;
    case PROPER_SIM_TEV_WAIT_REQ: return PROPER_SIM_TEV_WAIT_TIMEOUT;
    default: return -1;
    }
}

static int proper__sim_tev_is_completion(int kind) {
    return kind == PROPER_SIM_TEV_GET || kind == PROPER_SIM_TEV_GET_TIMEOUT || kind == PROPER_SIM_TEV_LOCK_TIMEOUT ||
           kind == PROPER_SIM_TEV_WAIT_TIMEOUT || kind == PROPER_SIM_TEV_LOCK ||
           kind == PROPER_SIM_TEV_RLOCK || kind == PROPER_SIM_TEV_WLOCK || kind == PROPER_SIM_TEV_WAIT ||
           kind == PROPER_SIM_TEV_AWAIT || kind == PROPER_SIM_TEV_CWAIT || kind == PROPER_SIM_TEV_IO;
}

/* The largest latency a trace may declare: 1000 s. */
#define PROPER__SIM_MAX_LATENCY_NS 1000000000000LL

PROPER_API void proper_sim_trace_init(proper_sim_trace *t) {
    memset(t, 0, sizeof *t);
    t->latency = -1;
    proper_intern_init(&t->names);
    proper_sim_init(&t->decl);
}

PROPER_API void proper_sim_trace_free(proper_sim_trace *t) {
    proper_intern_free(&t->names);
    PROPER_FREE(t->ev);
    PROPER_FREE(t->tids);
    proper_sim_free(&t->decl);
    proper_sim_trace_init(t);
}

/* Per-thread state while reading. */
typedef struct proper__sim_tstate {
    int64_t last_t;
    int started, exited, has_cpu, no_cpu;
    int pending;          /* the open request's kind, or -1 */
    size_t pa, pb;        /* its names */
    int64_t parg;
    size_t *open_cf;      /* begin names without their end */
    size_t n_cf, cap_cf;
    size_t *held;         /* locks held (a name per hold) */
    size_t n_held, cap_held;
} proper__sim_tstate;

static int proper__sim_hold(proper__sim_tstate *s, size_t name) {
    if (proper_reserve(&s->held, &s->cap_held, s->n_held + 1, sizeof(size_t))) return PROPER_ENOMEM;
    s->held[s->n_held++] = name;
    return PROPER_OK;
}

static int proper__sim_release(proper__sim_tstate *s, size_t name) {
    size_t i;
    for (i = s->n_held; i-- > 0;)
        if (s->held[i] == name) {
            s->held[i] = s->held[--s->n_held];
            return 1;
        }
    return 0;
}

PROPER_API int proper_sim_trace_parse(proper_sim_trace *out, const char *text, size_t len, const char *name,
                                      proper_error *err) {
    proper__sim_parser P;
    proper_sim_trace T;
    proper__sim_tstate *st = NULL;
    size_t *sorted = NULL, cap_sorted = 0, cap_st = 0, cap_fam = 0, i, n_st = 0;
    char *family = NULL;
    int rc = PROPER_OK;
    memset(&P, 0, sizeof P);
    proper_cursor_init(&P.c, text, len, name);
    P.err = err;
    proper_sim_init(&P.m);
    proper_sim_trace_init(&T);
    while (proper__sim_eol(&P) && P.c.p < P.c.end) proper_cursor_advance(&P.c);
    if (!proper__sim_kw(&P, "proper-threads")) { rc = proper__sim_err(&P, PROPER_EPARSE, "expected the header 'proper-threads 1'"); goto done; }
    {
        proper_cursor at;
        double v;
        proper__sim_ws(&P);
        at = P.c;
        if ((rc = proper__sim_number(&P, &v))) goto done;
        if (v != 1) { rc = proper_cursor_error(&at, err, PROPER_EUNSUPPORTED, "unsupported trace version (this reader knows 1)"); goto done; }
        if ((rc = proper__sim_expect_eol(&P))) goto done;
    }
    while (P.c.p < P.c.end) {
        proper_cursor at;
        const char *w;
        size_t wn, k, lo, hi, ti;
        long long tid, tt;
        proper_sim_tev e;
        proper__sim_tstate *s;
        int kind = -1;
        proper_cursor_advance(&P.c);
        if (proper__sim_eol(&P)) continue;
        proper__sim_ws(&P);
        at = P.c;
        if (proper__sim_name_start(*P.c.p)) {
            /* a declaration */
            if (proper__sim_kw(&P, "cores") || proper__sim_kw(&P, "disks")) {
                int is_cores = at.p[0] == 'c';
                size_t v = 0;
                proper__sim_ws(&P);
                at = P.c;
                if ((rc = proper__sim_count(&P, &v, PROPER_SIM_MAX_THREADS, is_cores ? "cores" : "disks"))) goto done;
                if (is_cores && v < 1) { rc = proper_cursor_error(&at, err, PROPER_ERANGE, "at least one core"); goto done; }
                if (is_cores) { T.cores = v; T.has_cores = 1; }
                else { T.disks = v; T.has_disks = 1; }
                if ((rc = proper__sim_expect_eol(&P))) goto done;
                continue;
            }
            if (proper__sim_kw(&P, "overhead")) {
                long long v;
                int k;
                for (k = 0; k < 2; k++) {
                    proper__sim_ws(&P);
                    if (k == 1 && (P.c.p >= P.c.end || !((*P.c.p >= '0' && *P.c.p <= '9') || *P.c.p == '-'))) break;
                    at = P.c;
                    if ((rc = proper_parse_int(&P.c, &v, err))) goto done;
                    if (v < 0 || v > 1000000) {
                        rc = proper_cursor_error(&at, err, PROPER_ERANGE, "an overhead must be 0 to 1000000 ns");
                        goto done;
                    }
                    if (k == 0) T.overhead = v;
                    else T.overhead_io = v;
                }
                if ((rc = proper__sim_expect_eol(&P))) goto done;
                continue;
            }
            if (proper__sim_kw(&P, "latency")) {
                long long v;
                proper__sim_ws(&P);
                at = P.c;
                if ((rc = proper_parse_int(&P.c, &v, err))) goto done;
                if (v < 0 || v > PROPER__SIM_MAX_LATENCY_NS) {
                    rc = proper_cursor_error(&at, err, PROPER_ERANGE, "the latency must be 0 to %lld ns", (long long)PROPER__SIM_MAX_LATENCY_NS);
                    goto done;
                }
                T.latency = v;
                if ((rc = proper__sim_expect_eol(&P))) goto done;
                continue;
            }
            wn = proper__sim_word(&P, &w);
            if (!((wn == 5 && !memcmp(w, "queue", 5)) || (wn == 4 && !memcmp(w, "lock", 4)))) {
                rc = proper__sim_err(&P, PROPER_EPARSE, "expected a declaration (cores, disks, latency, overhead, queue, lock) or an event");
                goto done;
            }
            {
                const char *s2;
                size_t n2;
                proper__sim_skip(&P, wn);
                n2 = proper__sim_word(&P, &s2);
                if (wn == 4) {
                    proper_cursor save = P.c;
                    const char *s3;
                    size_t n3;
                    proper__sim_skip(&P, n2);
                    n3 = proper__sim_word(&P, &s3);
                    if (n3 == 7 && !memcmp(s3, "barrier", 7)) {
                        proper__sim_skip(&P, n3);
                        proper__sim_ws(&P);
                        if (proper__sim_kw(&P, "pool")) { rc = proper__sim_err(&P, PROPER_EUNSUPPORTED, "a traced barrier declares its parties as a number"); goto done; }
                    }
                    P.c = save;
                }
                (void)s2;
            }
            P.c = at;
            if ((rc = proper__sim_statement(&P))) goto done;
            continue;
        }
        /* an event */
        memset(&e, 0, sizeof e);
        e.a = e.b = PROPER_SIM_NONE;
        e.arg = e.cpu = e.blocks = -1;
        e.line = P.c.line;
        if ((rc = proper_parse_int(&P.c, &tid, err))) goto done;
        proper__sim_ws(&P);
        at = P.c;
        if ((rc = proper_parse_int(&P.c, &tt, err))) goto done;
        if (tt < 0) { rc = proper_cursor_error(&at, err, PROPER_ERANGE, "a negative time"); goto done; }
        e.t = tt;
        proper__sim_ws(&P);
        at = P.c;
        wn = proper__sim_word(&P, &w);
        for (k = 0; k < PROPER_SIM_TEV_COUNT; k++)
            if (strlen(proper__sim_tev_words[k]) == wn && memcmp(proper__sim_tev_words[k], w, wn) == 0) kind = (int)k;
        if (kind < 0) { rc = proper__sim_err(&P, PROPER_EPARSE, "expected an event (start, get.req, get, lock.req, ...)"); goto done; }
        proper__sim_skip(&P, wn);
        e.kind = kind;
        for (k = 0; k < (size_t)proper__sim_tev_nnames[kind]; k++) {
            const char *nm;
            size_t nn = proper__sim_word(&P, &nm), idx;
            if (nn == 0) { rc = proper__sim_err(&P, PROPER_EPARSE, "%s needs a name", proper__sim_tev_words[kind]); goto done; }
            if (proper_intern_add(&T.names, nm, nn, &idx, NULL)) { rc = proper__sim_err(&P, PROPER_ENOMEM, "out of memory"); goto done; }
            if (k == 0) e.a = idx; else e.b = idx;
            proper__sim_skip(&P, nn);
        }
        proper__sim_ws(&P);
        if (proper__sim_tev_int[kind] && P.c.p < P.c.end && ((*P.c.p >= '0' && *P.c.p <= '9') || *P.c.p == '-')) {
            long long v;
            at = P.c;
            if ((rc = proper_parse_int(&P.c, &v, err))) goto done;
            if (v < 0) { rc = proper_cursor_error(&at, err, PROPER_ERANGE, "a negative %s", proper__sim_tev_timeout(kind) >= 0 ? "timeout" : "byte count"); goto done; }
            e.arg = v;
            proper__sim_ws(&P);
            if (kind == PROPER_SIM_TEV_IO && P.c.p < P.c.end && ((*P.c.p >= '0' && *P.c.p <= '9') || *P.c.p == '-')) {
                /* the blocks the operation read from the device */
                at = P.c;
                if ((rc = proper_parse_int(&P.c, &v, err))) goto done;
                if (v < 0) { rc = proper_cursor_error(&at, err, PROPER_ERANGE, "a negative block count"); goto done; }
                e.blocks = v;
            }
        } else if (proper__sim_tev_int[kind] == 2) {
            rc = proper__sim_err(&P, PROPER_EPARSE, "%s needs a number", proper__sim_tev_words[kind]);
            goto done;
        }
        if (proper__sim_punct(&P, "@")) {
            long long v;
            proper__sim_ws(&P);
            at = P.c;
            if ((rc = proper_parse_int(&P.c, &v, err))) goto done;
            if (v < 0) { rc = proper_cursor_error(&at, err, PROPER_ERANGE, "a negative CPU time"); goto done; }
            e.cpu = v;
        }
        if ((rc = proper__sim_expect_eol(&P))) goto done;
        /* the thread: binary search in the sorted ids */
        lo = 0;
        hi = T.n_threads;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (T.tids[sorted[mid]] < tid) lo = mid + 1;
            else hi = mid;
        }
        if (lo < T.n_threads && T.tids[sorted[lo]] == tid) {
            ti = sorted[lo];
        } else {
            size_t c1 = T.cap_threads;
            if (T.n_threads >= PROPER_SIM_MAX_THREADS) { rc = proper_error_set(err, PROPER_ELIMIT, name, e.line, 1, "more than %d threads", PROPER_SIM_MAX_THREADS); goto done; }
            if (proper_reserve(&T.tids, &T.cap_threads, T.n_threads + 1, sizeof *T.tids) ||
                proper_reserve(&sorted, &cap_sorted, T.n_threads + 1, sizeof *sorted) ||
                proper_reserve(&st, &cap_st, T.n_threads + 1, sizeof *st)) {
                rc = proper__sim_err(&P, PROPER_ENOMEM, "out of memory");
                goto done;
            }
            (void)c1;
            ti = T.n_threads++;
            T.tids[ti] = tid;
            memmove(sorted + lo + 1, sorted + lo, (T.n_threads - 1 - lo) * sizeof *sorted);
            sorted[lo] = ti;
            memset(&st[ti], 0, sizeof st[ti]);
            st[ti].pending = -1;
            n_st = T.n_threads;
        }
        e.thread = ti;
        s = &st[ti];
#define PROPER__SIM_TERR(...)                                                        \
    do {                                                                             \
        rc = proper_error_set(err, PROPER_EINVAL, name, e.line, 1, __VA_ARGS__);     \
        goto done;                                                                   \
    } while (0)
        if (!s->started && kind != PROPER_SIM_TEV_START) PROPER__SIM_TERR("thread %lld: the first event must be 'start POOL'", tid);
        if (s->started && kind == PROPER_SIM_TEV_START) PROPER__SIM_TERR("thread %lld starts twice", tid);
        if (s->exited) PROPER__SIM_TERR("thread %lld has an event after its exit", tid);
        if (s->started && e.t < s->last_t)
            PROPER__SIM_TERR("time goes backwards in thread %lld (%lld after %lld)", tid, (long long)e.t, (long long)s->last_t);
        if (e.cpu >= 0) s->has_cpu = 1; else s->no_cpu = 1;
        s->started = 1;
        s->last_t = e.t;
        /* requests and completions pair up */
        if (s->pending >= 0 && kind == PROPER_SIM_TEV_EXIT) {
            s->pending = -1; /* a thread may end while it waits (shutdown) */
        } else if (s->pending >= 0) {
            int want = proper__sim_tev_completion(s->pending);
            int timed_out = kind >= 0 && kind == proper__sim_tev_timeout(s->pending);
            int ok = (kind == want || timed_out) && e.a == s->pa;
            if (!ok)
                PROPER__SIM_TERR("thread %lld: expected '%s %s' after '%s'", tid, proper__sim_tev_words[want],
                                 T.names.names[s->pa], proper__sim_tev_words[s->pending]);
            if (timed_out && s->parg < 0)
                PROPER__SIM_TERR("thread %lld: %s without a timeout on its %s", tid, proper__sim_tev_words[kind],
                                 proper__sim_tev_words[s->pending]);
        } else if (proper__sim_tev_is_completion(kind)) {
            PROPER__SIM_TERR("thread %lld: '%s' without its request", tid, proper__sim_tev_words[kind]);
        }
        if (proper__sim_tev_completion(kind) >= 0) {
            s->pending = kind;
            s->pa = e.a;
            s->pb = e.b;
            s->parg = e.arg;
        } else {
            s->pending = -1;
        }
        /* the family of the object */
        if (proper__sim_tev_family[kind]) {
            char f = proper__sim_tev_family[kind], *have;
            size_t j;
            if (cap_fam < T.names.len) {
                size_t old = cap_fam;
                if (proper_reserve(&family, &cap_fam, T.names.len, 1)) { rc = proper__sim_err(&P, PROPER_ENOMEM, "out of memory"); goto done; }
                memset(family + old, 0, cap_fam - old);
            }
            have = &family[e.a];
            if (*have == 0) {
                /* a declaration fixes it */
                size_t qi = proper__sim_find(&P.m, 'q', T.names.names[e.a], strlen(T.names.names[e.a]));
                size_t li = proper__sim_find(&P.m, 'l', T.names.names[e.a], strlen(T.names.names[e.a]));
                static const char kinds[] = {'m', 'r', 's', 'c', 'b'};
                if (qi != PROPER_SIM_NONE) *have = 'q';
                else if (li != PROPER_SIM_NONE) *have = kinds[P.m.locks[li].kind];
            }
            if (f == 'u') {
                if (*have != 'm' && *have != 'r') PROPER__SIM_TERR("thread %lld: unlock of %s, which is not a mutex or rwlock in use", tid, T.names.names[e.a]);
            } else if (*have == 0) {
                *have = f;
            } else if (*have != f) {
                PROPER__SIM_TERR("thread %lld: %s is used by '%s' but is a %s", tid, T.names.names[e.a], proper__sim_tev_words[kind],
                                 *have == 'q' ? "queue" : *have == 'm' ? "mutex" : *have == 'r' ? "rwlock" : *have == 's' ? "semaphore"
                                 : *have == 'b' ? "barrier" : "condition variable");
            }
            if (kind == PROPER_SIM_TEV_CWAIT_REQ) {
                char *hm;
                if (cap_fam < T.names.len) {
                    size_t old = cap_fam;
                    if (proper_reserve(&family, &cap_fam, T.names.len, 1)) { rc = proper__sim_err(&P, PROPER_ENOMEM, "out of memory"); goto done; }
                    memset(family + old, 0, cap_fam - old);
                }
                hm = &family[e.b];
                if (*hm != 'm') PROPER__SIM_TERR("thread %lld: cwait.req needs a mutex after its condition", tid);
            }
            (void)j;
        }
        /* ownership */
        switch (kind) {
        case PROPER_SIM_TEV_LOCK: case PROPER_SIM_TEV_RLOCK: case PROPER_SIM_TEV_WLOCK:
            if (proper__sim_hold(s, e.a)) { rc = proper__sim_err(&P, PROPER_ENOMEM, "out of memory"); goto done; }
            break;
        case PROPER_SIM_TEV_UNLOCK:
            if (!proper__sim_release(s, e.a)) PROPER__SIM_TERR("thread %lld: unlock of %s, which it does not hold", tid, T.names.names[e.a]);
            break;
        case PROPER_SIM_TEV_CWAIT_REQ:
            if (!proper__sim_release(s, e.b)) PROPER__SIM_TERR("thread %lld: cwait.req without holding %s", tid, T.names.names[e.b]);
            break;
        case PROPER_SIM_TEV_CWAIT:
            if (proper__sim_hold(s, s->pb)) { rc = proper__sim_err(&P, PROPER_ENOMEM, "out of memory"); goto done; }
            e.b = s->pb;
            break;
        case PROPER_SIM_TEV_BEGIN:
            for (i = 0; i < s->n_cf; i++)
                if (s->open_cf[i] == e.a) PROPER__SIM_TERR("thread %lld: begin %s inside itself", tid, T.names.names[e.a]);
            if (proper_reserve(&s->open_cf, &s->cap_cf, s->n_cf + 1, sizeof(size_t))) { rc = proper__sim_err(&P, PROPER_ENOMEM, "out of memory"); goto done; }
            s->open_cf[s->n_cf++] = e.a;
            break;
        case PROPER_SIM_TEV_END:
            if (s->n_cf == 0 || s->open_cf[s->n_cf - 1] != e.a) PROPER__SIM_TERR("thread %lld: end %s without its begin", tid, T.names.names[e.a]);
            s->n_cf--;
            break;
        case PROPER_SIM_TEV_EXIT:
            s->exited = 1;
            break;
        default: break;
        }
#undef PROPER__SIM_TERR
        if (proper_reserve(&T.ev, &T.cap_ev, T.n_ev + 1, sizeof *T.ev)) { rc = proper__sim_err(&P, PROPER_ENOMEM, "out of memory"); goto done; }
        T.ev[T.n_ev++] = e;
    }
    /* CPU times count only when a thread has them on every event */
    for (i = 0; i < T.n_ev; i++)
        if (st[T.ev[i].thread].no_cpu) T.ev[i].cpu = -1;
    proper_sim_free(&T.decl);
    T.decl = P.m;
    proper_sim_init(&P.m);
    proper_sim_trace_free(out);
    *out = T;
    proper_sim_trace_init(&T);
done:
    for (i = 0; st && i < n_st; i++) {
        PROPER_FREE(st[i].open_cf);
        PROPER_FREE(st[i].held);
    }
    PROPER_FREE(st);
    PROPER_FREE(sorted);
    PROPER_FREE(family);
    for (i = 0; i < P.n_refs; i++) PROPER_FREE(P.refs[i].name);
    PROPER_FREE(P.refs);
    proper_sim_free(&P.m);
    proper_sim_trace_free(&T);
    return rc;
}

PROPER_API int proper_sim_trace_read(proper_sim_trace *out, const char *path, proper_error *err) {
    char *text;
    size_t len;
    int rc = proper_read_file(path, &text, &len, err);
    if (rc) return rc;
    rc = proper_sim_trace_parse(out, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

PROPER_API int proper_sim_trace_append(proper_sim_trace *t, const proper_sim_trace *more, proper_error *err) {
    proper_sim_trace T;
    size_t i, *map = NULL, runs = 0;
    int rc = PROPER_OK;
    if (t == more) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a trace cannot be appended to itself");
    proper_sim_trace_init(&T);
    /* T = a copy of t, then more's events with its names, threads and run
     * numbers shifted */
    for (i = 0; i < t->names.len; i++) {
        size_t idx;
        if (proper_intern_add(&T.names, t->names.names[i], strlen(t->names.names[i]), &idx, NULL)) goto nomem;
    }
    map = (size_t *)proper_calloc(more->names.len + 1, sizeof(size_t));
    if (!map) goto nomem;
    for (i = 0; i < more->names.len; i++)
        if (proper_intern_add(&T.names, more->names.names[i], strlen(more->names.names[i]), &map[i], NULL)) goto nomem;
    for (i = 0; i < t->n_ev; i++)
        if (t->ev[i].run + 1 > runs) runs = t->ev[i].run + 1;
    if (proper_reserve(&T.ev, &T.cap_ev, t->n_ev + more->n_ev + 1, sizeof *T.ev) ||
        proper_reserve(&T.tids, &T.cap_threads, t->n_threads + more->n_threads + 1, sizeof *T.tids))
        goto nomem;
    if (t->n_ev) memcpy(T.ev, t->ev, t->n_ev * sizeof *T.ev);
    for (i = 0; i < more->n_ev; i++) {
        proper_sim_tev e = more->ev[i];
        e.thread += t->n_threads;
        e.run += runs;
        if (e.a != PROPER_SIM_NONE) e.a = map[e.a];
        if (e.b != PROPER_SIM_NONE) e.b = map[e.b];
        T.ev[t->n_ev + i] = e;
    }
    T.n_ev = t->n_ev + more->n_ev;
    if (t->n_threads) memcpy(T.tids, t->tids, t->n_threads * sizeof *T.tids);
    if (more->n_threads) memcpy(T.tids + t->n_threads, more->tids, more->n_threads * sizeof *T.tids);
    T.n_threads = t->n_threads + more->n_threads;
    T.cores = t->cores > more->cores ? t->cores : more->cores;
    T.has_cores = t->has_cores || more->has_cores;
    T.disks = t->has_disks ? t->disks : more->disks;
    T.latency = t->latency >= 0 ? t->latency : more->latency;
    /* one overhead for the events of both: the larger (runs of one program
     * on one machine, measured the same way) */
    T.overhead = t->overhead > more->overhead ? t->overhead : more->overhead;
    T.overhead_io = t->overhead_io > more->overhead_io ? t->overhead_io : more->overhead_io;
    T.has_disks = t->has_disks || more->has_disks;
    if ((rc = proper_sim_copy(&T.decl, &t->decl, err))) goto done;
    for (i = 0; i < more->decl.n_queues; i++) {
        const proper_sim_queue *q = &more->decl.queues[i];
        size_t j = proper__sim_find(&T.decl, 'q', q->name, strlen(q->name)), cap = T.decl.n_queues;
        if (j != PROPER_SIM_NONE) {
            if (T.decl.queues[j].capacity != q->capacity) {
                rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "queue %s is declared with two capacities", q->name);
                goto done;
            }
            continue;
        }
        if (proper__sim_find(&T.decl, 'l', q->name, strlen(q->name)) != PROPER_SIM_NONE) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s is a queue in one trace and a lock in another", q->name);
            goto done;
        }
        if (proper_reserve(&T.decl.queues, &cap, T.decl.n_queues + 1, sizeof *T.decl.queues)) goto nomem;
        T.decl.queues[T.decl.n_queues] = *q;
        if (!(T.decl.queues[T.decl.n_queues].name = proper_strdup(q->name))) goto nomem;
        T.decl.n_queues++;
    }
    for (i = 0; i < more->decl.n_locks; i++) {
        const proper_sim_lock *l = &more->decl.locks[i];
        size_t j = proper__sim_find(&T.decl, 'l', l->name, strlen(l->name)), cap = T.decl.n_locks;
        if (j != PROPER_SIM_NONE) {
            if (T.decl.locks[j].kind != l->kind || T.decl.locks[j].count != l->count) {
                rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "lock %s is declared differently in two traces", l->name);
                goto done;
            }
            continue;
        }
        if (proper__sim_find(&T.decl, 'q', l->name, strlen(l->name)) != PROPER_SIM_NONE) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s is a queue in one trace and a lock in another", l->name);
            goto done;
        }
        if (proper_reserve(&T.decl.locks, &cap, T.decl.n_locks + 1, sizeof *T.decl.locks)) goto nomem;
        T.decl.locks[T.decl.n_locks] = *l;
        if (!(T.decl.locks[T.decl.n_locks].name = proper_strdup(l->name))) goto nomem;
        T.decl.n_locks++;
    }
    proper_sim_trace_free(t);
    *t = T;
    proper_sim_trace_init(&T);
    goto done;
nomem:
    rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
done:
    PROPER_FREE(map);
    proper_sim_trace_free(&T);
    return rc;
}

/* ---- building a model from a trace ---------------------------------------------- */

#ifndef PROPER_SIM_BUILD_MAX_NODES
/* Most distinct PCG nodes one pool may have before merging (the merge works
 * on a dense count matrix of this side). */
#define PROPER_SIM_BUILD_MAX_NODES 2048
#endif

PROPER_API proper_sim_build_opts proper_sim_build_opts_default(void) {
    proper_sim_build_opts o;
    o.merge = 0.03;
    o.io_hit = 5e-5;
    o.points = 32;
    o.cores = 0;
    o.quantum = PROPER_SIM_DEFAULT_QUANTUM;
    o.loops = 1;
    o.wakeup = 1;
    return o;
}

typedef struct proper__sim_succ {
    size_t to;
    double count;
} proper__sim_succ;

typedef struct proper__sim_bnode {
    int op;              /* proper_sim_op */
    int marker, nofetch;
    size_t a, b;         /* trace names */
    double *x;           /* samples, seconds */
    size_t n, cap;
    double total, bytes, hits, misses, timeout;
    size_t nofetch_node;
    proper__sim_succ *succ;
    size_t n_succ, cap_succ;
} proper__sim_bnode;

typedef struct proper__sim_bpool {
    size_t name;         /* trace name of the pool */
    size_t threads;
    proper_intern keys;
    proper__sim_bnode *nodes;
    size_t n_nodes, cap_nodes;
    size_t model_index;
    int workload;        /* a thread of it records arrivals */
    size_t *walk;        /* the nodes each thread visited, threads ended by NONE */
    size_t n_walk, cap_walk;
} proper__sim_bpool;

static void proper__sim_bpool_free(proper__sim_bpool *p) {
    size_t i;
    for (i = 0; i < p->n_nodes; i++) {
        PROPER_FREE(p->nodes[i].x);
        PROPER_FREE(p->nodes[i].succ);
    }
    PROPER_FREE(p->nodes);
    PROPER_FREE(p->walk);
    proper_intern_free(&p->keys);
}

/* The node of `key` in pool p (created with op if new), or NONE on ENOMEM. */
static size_t proper__sim_bnode_get(proper__sim_bpool *p, const char *key, int op, size_t a, size_t b, int marker) {
    size_t idx;
    int added;
    if (proper_intern_add(&p->keys, key, strlen(key), &idx, &added)) return PROPER_SIM_NONE;
    if (added) {
        proper__sim_bnode *n;
        if (proper_reserve(&p->nodes, &p->cap_nodes, p->n_nodes + 1, sizeof *p->nodes)) return PROPER_SIM_NONE;
        n = &p->nodes[p->n_nodes++];
        memset(n, 0, sizeof *n);
        n->op = op;
        n->a = a;
        n->b = b;
        n->marker = marker;
        n->timeout = -1;
        n->nofetch_node = PROPER_SIM_NONE;
    }
    return idx;
}

static int proper__sim_bnode_edge(proper__sim_bpool *p, size_t from, size_t to) {
    proper__sim_bnode *n = &p->nodes[from];
    size_t i;
    for (i = 0; i < n->n_succ; i++)
        if (n->succ[i].to == to) {
            n->succ[i].count += 1;
            return PROPER_OK;
        }
    if (proper_reserve(&n->succ, &n->cap_succ, n->n_succ + 1, sizeof *n->succ)) return PROPER_ENOMEM;
    n->succ[n->n_succ].to = to;
    n->succ[n->n_succ++].count = 1;
    return PROPER_OK;
}

/* The walk of a thread goes from node `from` to `to` (an edge, and a visit
 * of `to` in the pool's walk record). */
static int proper__sim_bnode_step(proper__sim_bpool *p, size_t from, size_t to) {
    if (proper__sim_bnode_edge(p, from, to) || proper_reserve(&p->walk, &p->cap_walk, p->n_walk + 1, sizeof(size_t)))
        return PROPER_ENOMEM;
    p->walk[p->n_walk++] = to;
    return PROPER_OK;
}

static int proper__sim_bnode_sample(proper__sim_bnode *n, double v) {
    if (proper_reserve(&n->x, &n->cap, n->n + 1, sizeof(double))) return PROPER_ENOMEM;
    n->x[n->n++] = v;
    return PROPER_OK;
}

/* An empirical distribution of the samples x[0..n) (sorted in place): the
 * distinct values with their counts, or `points` equally likely values, the
 * means of equal-count groups of the sorted samples (the mean is kept). */
static int proper__sim_empirical(proper_sim_dist *d, double *x, size_t n, size_t points) {
    proper_sim_dist t;
    size_t i, cap = 0, m = n <= points ? n : points;
    proper_sim_dist_init(&t);
    t.kind = PROPER_SIM_EMPIRICAL;
    if (n == 0) return PROPER_EINVAL;
    qsort(x, n, sizeof(double), proper__sim_dcmp);
    for (i = 0; i < m; i++) {
        /* n > points: the mean of each of `points` groups of consecutive
         * order statistics, so that the distribution keeps the sample mean */
        double v = floor(x[i] * 1e9 + 0.5) / 1e9; /* to the trace's ns */
        if (n > points) {
            size_t lo = i * n / points, hi = (i + 1) * n / points, j;
            double sum = 0;
            for (j = lo; j < hi; j++) sum += x[j];
            v = floor(sum / (double)(hi - lo) * 1e9 + 0.5) / 1e9; /* to the trace's ns */
        }
        if (t.n && t.values[t.n - 1] == v) {
            t.weights[t.n - 1] += 1;
            continue;
        }
        if (t.n == cap) {
            size_t c2 = cap;
            if (proper_reserve(&t.values, &c2, t.n + 1, sizeof(double)) ||
                proper_reserve(&t.weights, &cap, t.n + 1, sizeof(double))) {
                proper_sim_dist_free(&t);
                return PROPER_ENOMEM;
            }
            if (c2 < cap) cap = c2;
        }
        t.values[t.n] = v;
        t.weights[t.n++] = 1;
    }
    proper_sim_dist_free(d);
    *d = t;
    return PROPER_OK;
}

/* Order (run, time) pairs. */
static int proper__sim_pcmp(const void *a, const void *b) {
    const double *x = (const double *)a, *y = (const double *)b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* A model-file name from a site key: spaces become '.', " > " ".to.". */
static char *proper__sim_node_name(const char *key, const proper_sim_pool *p, size_t n_done) {
    proper_strbuf b;
    size_t i, k;
    char *s;
    proper_strbuf_init(&b);
    if (!proper__sim_name_start(key[0])) proper_strbuf_puts(&b, "n_");
    for (i = 0; key[i]; i++) {
        char ch = key[i];
        if (ch == ' ' && key[i + 1] == '>' && key[i + 2] == ' ') { proper_strbuf_puts(&b, ".to."); i += 2; continue; }
        if (!(proper__sim_name_start(ch) || (ch >= '0' && ch <= '9') || ch == '.')) ch = ch == ' ' ? '.' : '_';
        proper_strbuf_append(&b, &ch, 1);
    }
    for (k = 1;; k++) {
        int clash = 0;
        char *cand;
        if (k == 1) cand = proper_strdup(b.data ? b.data : "n");
        else {
            proper_strbuf c;
            proper_strbuf_init(&c);
            proper_strbuf_printf(&c, "%s_%lu", b.data ? b.data : "n", (unsigned long)k);
            cand = proper_strbuf_take(&c);
        }
        if (!cand) { proper_strbuf_free(&b); return NULL; }
        for (i = 0; i < n_done; i++)
            if (strcmp(p->nodes[i].name, cand) == 0) clash = 1;
        if (!clash) { s = cand; break; }
        PROPER_FREE(cand);
    }
    proper_strbuf_free(&b);
    return s;
}

typedef struct proper__sim_builder {
    const proper_sim_trace *tr;
    proper_sim_build_opts o;
    proper__sim_bpool *pools;
    size_t n_pools, cap_pools;
    double **arrivals;   /* per trace name: arrival times (ns) */
    size_t *n_arr, *cap_arr;
    proper_error *err;
} proper__sim_builder;

/* A completion of a request that may carry a timeout (get, lock, wait). */
static int proper__sim_timed_op(int kind) {
    return kind == PROPER_SIM_TEV_GET || kind == PROPER_SIM_TEV_GET_TIMEOUT || kind == PROPER_SIM_TEV_LOCK ||
           kind == PROPER_SIM_TEV_LOCK_TIMEOUT || kind == PROPER_SIM_TEV_WAIT || kind == PROPER_SIM_TEV_WAIT_TIMEOUT;
}

static int proper__sim_build_thread(proper__sim_builder *B, const size_t *evs, size_t n, size_t *running) {
    const proper_sim_trace *tr = B->tr;
    const proper_sim_tev *e0 = &tr->ev[evs[0]];
    proper__sim_bpool *p = NULL;
    size_t i, prev, pi;
    double last_t, last_cpu, req_t = 0, req_cpu = -1;
    double ovh = 0; /* the recorder's own ns since the last reading that starts a CF */
    int64_t req_arg = -1;
    proper_strbuf site, key;
    int rc = PROPER_OK;
    /* the pool */
    for (pi = 0; pi < B->n_pools; pi++)
        if (B->pools[pi].name == e0->a) break;
    if (pi == B->n_pools) {
        if (proper_reserve(&B->pools, &B->cap_pools, B->n_pools + 1, sizeof *B->pools)) return PROPER_ENOMEM;
        memset(&B->pools[pi], 0, sizeof B->pools[pi]);
        proper_intern_init(&B->pools[pi].keys);
        B->pools[pi].name = e0->a;
        B->n_pools++;
    }
    p = &B->pools[pi];
    p->threads++;
    proper_strbuf_init(&site);
    proper_strbuf_init(&key);
    prev = proper__sim_bnode_get(p, "start", PROPER_SIM_OP_NOP, PROPER_SIM_NONE, PROPER_SIM_NONE, 1);
    if (prev == PROPER_SIM_NONE || proper_reserve(&p->walk, &p->cap_walk, p->n_walk + 1, sizeof(size_t))) {
        rc = PROPER_ENOMEM;
        goto done;
    }
    p->walk[p->n_walk++] = prev;
    proper_strbuf_puts(&site, "start");
    last_t = (double)e0->t;
    last_cpu = (double)e0->cpu;
    if (n == 0 || tr->ev[evs[n - 1]].kind != PROPER_SIM_TEV_EXIT) (*running)++;
    for (i = 1; i < n; i++) {
        const proper_sim_tev *e = &tr->ev[evs[i]];
        const char *an = e->a != PROPER_SIM_NONE ? tr->names.names[e->a] : "";
        const char *word = proper__sim_tev_words[e->kind];
        int op = -1, marker = 0, seg = 1, node = 1;
        size_t idx;
        /* the site this event reaches: its word without ".req", and its names */
        proper_strbuf_free(&key);
        proper_strbuf_init(&key);
        /* recording the previous event (and its block count) cost this much */
        ovh += (double)tr->overhead;
        if (tr->ev[evs[i - 1]].kind == PROPER_SIM_TEV_IO_REQ || tr->ev[evs[i - 1]].kind == PROPER_SIM_TEV_IO)
            ovh += (double)tr->overhead_io;
        switch (e->kind) {
        case PROPER_SIM_TEV_ARRIVE: {
            size_t *na = &B->n_arr[e->a], *ca = &B->cap_arr[e->a];
            if (proper_reserve(&B->arrivals[e->a], ca, *na + 2, sizeof(double))) { rc = PROPER_ENOMEM; goto done; }
            /* (run, time in ns) pairs: differences stay exact and never
             * cross two runs */
            B->arrivals[e->a][(*na)++] = (double)e->run;
            B->arrivals[e->a][(*na)++] = (double)e->t;
            p->workload = 1;
            last_t = (double)e->t;
            last_cpu = (double)e->cpu;
            ovh = 0;
            continue;
        }
        case PROPER_SIM_TEV_EXIT: goto done; /* shutdown is not simulated: no edge, no CF */
        case PROPER_SIM_TEV_BEGIN: case PROPER_SIM_TEV_END:
            proper_strbuf_printf(&key, "%s %s", word, an);
            op = PROPER_SIM_OP_NOP;
            marker = 1;
            break;
        case PROPER_SIM_TEV_DONE: proper_strbuf_puts(&key, "done"); op = PROPER_SIM_OP_DONE; break;
        case PROPER_SIM_TEV_GET_REQ: case PROPER_SIM_TEV_LOCK_REQ: case PROPER_SIM_TEV_RLOCK_REQ:
        case PROPER_SIM_TEV_WLOCK_REQ: case PROPER_SIM_TEV_WAIT_REQ: case PROPER_SIM_TEV_AWAIT_REQ:
        case PROPER_SIM_TEV_IO_REQ:
            proper_strbuf_printf(&key, "%s %s", proper__sim_tev_words[proper__sim_tev_completion(e->kind)], an);
            node = 0;
            req_t = (double)e->t;
            req_cpu = (double)e->cpu;
            req_arg = e->arg;
            break;
        case PROPER_SIM_TEV_CWAIT_REQ:
            proper_strbuf_printf(&key, "cwait %s %s", an, tr->names.names[e->b]);
            node = 0;
            req_cpu = (double)e->cpu;
            break;
        case PROPER_SIM_TEV_GET: case PROPER_SIM_TEV_GET_TIMEOUT:
            proper_strbuf_printf(&key, "get %s", an);
            op = PROPER_SIM_OP_GET;
            seg = 0;
            break;
        case PROPER_SIM_TEV_LOCK_TIMEOUT:
            proper_strbuf_printf(&key, "lock %s", an);
            op = PROPER_SIM_OP_LOCK;
            seg = 0;
            break;
        case PROPER_SIM_TEV_WAIT_TIMEOUT:
            proper_strbuf_printf(&key, "wait %s", an);
            op = PROPER_SIM_OP_WAIT;
            seg = 0;
            break;
        case PROPER_SIM_TEV_LOCK: op = PROPER_SIM_OP_LOCK; seg = 0; break;
        case PROPER_SIM_TEV_RLOCK: op = PROPER_SIM_OP_RLOCK; seg = 0; break;
        case PROPER_SIM_TEV_WLOCK: op = PROPER_SIM_OP_WLOCK; seg = 0; break;
        case PROPER_SIM_TEV_WAIT: op = PROPER_SIM_OP_WAIT; seg = 0; break;
        case PROPER_SIM_TEV_AWAIT: op = PROPER_SIM_OP_AWAIT; seg = 0; break;
        case PROPER_SIM_TEV_IO: op = PROPER_SIM_OP_IO; seg = 0; break;
        case PROPER_SIM_TEV_CWAIT:
            proper_strbuf_printf(&key, "cwait %s %s", an, tr->names.names[e->b]);
            op = PROPER_SIM_OP_CWAIT;
            seg = 0;
            break;
        case PROPER_SIM_TEV_PUT: op = PROPER_SIM_OP_PUT; break;
        case PROPER_SIM_TEV_UNLOCK: op = PROPER_SIM_OP_UNLOCK; break;
        case PROPER_SIM_TEV_POST: op = PROPER_SIM_OP_POST; break;
        case PROPER_SIM_TEV_SIGNAL: op = PROPER_SIM_OP_SIGNAL; break;
        case PROPER_SIM_TEV_BROADCAST: op = PROPER_SIM_OP_BROADCAST; break;
        default: break;
        }
        if (key.len == 0) proper_strbuf_printf(&key, "%s %s", word, an);
        if (seg) {
            /* the computation since the last site: a c_cpu node, less the
             * recorder's own time */
            double v = ((e->cpu >= 0 && last_cpu >= 0 ? (double)e->cpu - last_cpu : (double)e->t - last_t) - ovh) / 1e9;
            proper_strbuf cb;
            const char *ls = site.data ? site.data : "";
            proper_strbuf_init(&cb);
            if (strncmp(ls, "begin ", 6) == 0 && strncmp(key.data, "end ", 4) == 0 && strcmp(ls + 6, key.data + 4) == 0)
                proper_strbuf_printf(&cb, "cpu %s", ls + 6);
            else
                proper_strbuf_printf(&cb, "cpu %s > %s", ls, key.data);
            idx = proper__sim_bnode_get(p, cb.data, PROPER_SIM_OP_CPU, PROPER_SIM_NONE, PROPER_SIM_NONE, 0);
            proper_strbuf_free(&cb);
            ovh = 0;
            if (idx == PROPER_SIM_NONE || proper__sim_bnode_step(p, prev, idx) ||
                proper__sim_bnode_sample(&p->nodes[idx], v < 0 ? 0 : v)) { rc = PROPER_ENOMEM; goto done; }
            p->nodes[idx].total += v < 0 ? 0 : v;
            prev = idx;
        }
        if (node) {
            idx = proper__sim_bnode_get(p, key.data, op, e->a, e->b, marker);
            if (idx == PROPER_SIM_NONE || proper__sim_bnode_step(p, prev, idx)) { rc = PROPER_ENOMEM; goto done; }
            prev = idx;
            if (e->kind == PROPER_SIM_TEV_IO) {
                proper__sim_bnode *nd = &p->nodes[idx];
                double d = ((double)e->t - req_t) / 1e9;
                /* the device's share: the CPU used inside is computation */
                double used = e->cpu >= 0 && req_cpu >= 0 ? ((double)e->cpu - req_cpu) / 1e9 : 0;
                int hit = e->blocks >= 0 ? e->blocks == 0 : d < B->o.io_hit;
                nd->bytes += (double)(e->arg > 0 ? e->arg : 0);
                if (hit) nd->hits += 1;
                else {
                    nd->misses += 1;
                    if (proper__sim_bnode_sample(nd, d - used > 0 ? d - used : 0)) { rc = PROPER_ENOMEM; goto done; }
                }
            }
            if (proper__sim_timed_op(e->kind) && req_arg >= 0) {
                double to = (double)req_arg / 1e9;
                if (to > p->nodes[idx].timeout) p->nodes[idx].timeout = to;
            }
            if (e->kind == PROPER_SIM_TEV_GET_TIMEOUT || e->kind == PROPER_SIM_TEV_LOCK_TIMEOUT ||
                e->kind == PROPER_SIM_TEV_WAIT_TIMEOUT) {
                size_t get = idx;
                proper_strbuf_free(&key);
                proper_strbuf_init(&key);
                /* where a timed-out request goes on: the paper's c_in^nofetch
                 * for a get, "timeout lock L" / "timeout wait S" */
                if (e->kind == PROPER_SIM_TEV_GET_TIMEOUT) proper_strbuf_printf(&key, "nofetch get %s", an);
                else proper_strbuf_printf(&key, "timeout %s %s", e->kind == PROPER_SIM_TEV_LOCK_TIMEOUT ? "lock" : "wait", an);
                idx = proper__sim_bnode_get(p, key.data, PROPER_SIM_OP_NOP, PROPER_SIM_NONE, PROPER_SIM_NONE, 0);
                if (idx == PROPER_SIM_NONE || proper__sim_bnode_step(p, prev, idx)) { rc = PROPER_ENOMEM; goto done; }
                p->nodes[idx].nofetch = 1;
                p->nodes[get].nofetch_node = idx;
                prev = idx;
            }
        }
        if (node || seg == 0) {
            proper_strbuf_free(&site);
            proper_strbuf_init(&site);
            proper_strbuf_puts(&site, key.data);
            last_t = (double)e->t;
            /* an io completion: the CPU since its request counts in the next CF */
            if (e->kind == PROPER_SIM_TEV_IO && e->cpu >= 0 && req_cpu >= 0) {
                last_cpu = req_cpu;
            } else {
                last_cpu = (double)e->cpu;
                ovh = 0;
            }
        }
    }
done:
    if (!rc && proper_reserve(&p->walk, &p->cap_walk, p->n_walk + 1, sizeof(size_t))) rc = PROPER_ENOMEM;
    if (!rc) p->walk[p->n_walk++] = PROPER_SIM_NONE; /* the end of this thread's walk */
    proper_strbuf_free(&site);
    proper_strbuf_free(&key);
    return rc;
}

/* The model index of lock/queue name `nm` of family f, added when new. */
static int proper__sim_build_obj(proper_sim_model *m, const proper_sim_trace *tr, size_t nm, char f, size_t pool,
                                 size_t *out, proper_error *err) {
    const char *s = tr->names.names[nm];
    size_t i = proper__sim_find(m, f == 'q' ? 'q' : 'l', s, strlen(s));
    if (i == PROPER_SIM_NONE) {
        if (f == 'q') {
            size_t cap = m->n_queues;
            if (proper_reserve(&m->queues, &cap, m->n_queues + 1, sizeof *m->queues)) return PROPER_ENOMEM;
            memset(&m->queues[m->n_queues], 0, sizeof *m->queues);
            if (!(m->queues[m->n_queues].name = proper_strdup(s))) return PROPER_ENOMEM;
            i = m->n_queues++;
        } else {
            proper_sim_lock *l;
            size_t cap = m->n_locks;
            if (f == 's') return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "semaphore %s: declare its permits in the trace ('lock %s semaphore N')", s, s);
            if (proper_reserve(&m->locks, &cap, m->n_locks + 1, sizeof *m->locks)) return PROPER_ENOMEM;
            l = &m->locks[m->n_locks];
            memset(l, 0, sizeof *l);
            l->pool = PROPER_SIM_NONE;
            l->kind = f == 'm' ? PROPER_SIM_MUTEX : f == 'r' ? PROPER_SIM_RWLOCK : f == 'c' ? PROPER_SIM_COND : PROPER_SIM_BARRIER;
            if (f == 'b') l->pool = pool;
            if (!(l->name = proper_strdup(s))) return PROPER_ENOMEM;
            i = m->n_locks++;
        }
    }
    *out = i;
    return PROPER_OK;
}

/* A cycle of a pool's PCG made an explicit loop (§4.3.1): the walk reaches
 * `head`, goes round head -> body -> ... -> head a counted number of times,
 * then leaves head for `exit`. */
typedef struct proper__sim_bloop {
    size_t head, body, exit; /* builder node indices */
    double *count;           /* the iterations of each visit, as observed */
    size_t n, cap;
} proper__sim_bloop;

/* The one successor of node i in the merged counts C (N x N). */
static size_t proper__sim_only_succ(const double *C, size_t N, size_t i) {
    size_t k;
    for (k = 0; k < N; k++)
        if (C[i * N + k] > 0) return k;
    return PROPER_SIM_NONE;
}

/* Does the chain from `x` return to `head` through nodes with exactly one
 * successor and one predecessor each (no start, no timeout)? Such a chain
 * is the body of a loop: once entered, it is walked to its end. */
static int proper__sim_chain_returns(const proper__sim_bpool *bp, const double *C, size_t N, const size_t *nsucc,
                                     const size_t *npred, size_t x, size_t head) {
    size_t steps = 0;
    while (x != head) {
        if (x == 0 || nsucc[x] != 1 || npred[x] != 1 || bp->nodes[x].timeout >= 0 || ++steps > N) return 0;
        x = proper__sim_only_succ(C, N, x);
    }
    return 1;
}

/* The iteration counts of loop L in the pool's walks (merged-away nodes
 * skipped): a visit starts when the walk reaches the head other than by
 * going round, each head -> body step is one iteration, head -> exit ends
 * the visit. A visit cut short (the thread ended) is not counted. */
static int proper__sim_loop_counts(const proper__sim_bpool *bp, const unsigned char *gone, proper__sim_bloop *L) {
    size_t i, prev = PROPER_SIM_NONE;
    int active = 0;
    double c = 0;
    for (i = 0; i < bp->n_walk; i++) {
        size_t v = bp->walk[i];
        if (v == PROPER_SIM_NONE) { active = 0; prev = v; continue; }
        if (gone[v]) continue;
        if (active && prev == L->head) {
            if (v == L->body) c += 1;
            else {
                if (v == L->exit) {
                    if (proper_reserve(&L->count, &L->cap, L->n + 1, sizeof(double))) return PROPER_ENOMEM;
                    L->count[L->n++] = c;
                }
                active = 0;
            }
        }
        if (v == L->head && !active) { active = 1; c = 0; }
        prev = v;
    }
    return PROPER_OK;
}

/* The loops of a pool after merging: every node with two successors of
 * which exactly one starts a chain back to it. */
static int proper__sim_find_loops(const proper__sim_bpool *bp, const double *C, size_t N, const unsigned char *gone,
                                  proper__sim_bloop **out, size_t *n_out) {
    size_t *nsucc = (size_t *)proper_calloc(N, sizeof(size_t)), *npred = (size_t *)proper_calloc(N, sizeof(size_t));
    size_t h, k, cap = 0;
    int rc = PROPER_OK;
    *out = NULL;
    *n_out = 0;
    if (!nsucc || !npred) { rc = PROPER_ENOMEM; goto done; }
    for (h = 0; h < N; h++)
        for (k = 0; k < N; k++)
            if (C[h * N + k] > 0) { nsucc[h]++; npred[k]++; }
    for (h = 1; h < N; h++) {
        size_t a = PROPER_SIM_NONE, b = PROPER_SIM_NONE;
        int ra, rb;
        proper__sim_bloop L;
        if (gone[h] || nsucc[h] != 2 || bp->nodes[h].timeout >= 0) continue;
        for (k = 0; k < N; k++)
            if (C[h * N + k] > 0) { if (a == PROPER_SIM_NONE) a = k; else b = k; }
        ra = proper__sim_chain_returns(bp, C, N, nsucc, npred, a, h);
        rb = proper__sim_chain_returns(bp, C, N, nsucc, npred, b, h);
        if (ra == rb) continue;
        memset(&L, 0, sizeof L);
        L.head = h;
        L.body = ra ? a : b;
        L.exit = ra ? b : a;
        if ((rc = proper__sim_loop_counts(bp, gone, &L))) { PROPER_FREE(L.count); goto done; }
        if (L.n == 0) { PROPER_FREE(L.count); continue; }
        if (proper_reserve(out, &cap, *n_out + 1, sizeof **out)) { PROPER_FREE(L.count); rc = PROPER_ENOMEM; goto done; }
        (*out)[(*n_out)++] = L;
    }
done:
    PROPER_FREE(nsucc);
    PROPER_FREE(npred);
    return rc;
}

static void proper__sim_free_loops(proper__sim_bloop *loops, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) PROPER_FREE(loops[i].count);
    PROPER_FREE(loops);
}

/* The distribution of observed iteration counts: exact (each count with its
 * frequency) when there are at most `points` distinct counts, else the
 * equal-count group means of proper__sim_empirical. */
static int proper__sim_count_dist(proper_sim_dist *d, double *x, size_t n, size_t points) {
    size_t i, distinct = 0;
    qsort(x, n, sizeof(double), proper__sim_dcmp);
    for (i = 0; i < n; i++) distinct += i == 0 || x[i] != x[i - 1];
    if (distinct > points) return proper__sim_empirical(d, x, n, points);
    proper_sim_dist_free(d);
    d->kind = PROPER_SIM_EMPIRICAL;
    d->values = (double *)proper_calloc(distinct, sizeof(double));
    d->weights = (double *)proper_calloc(distinct, sizeof(double));
    if (!d->values || !d->weights) return PROPER_ENOMEM;
    for (i = 0; i < n; i++) {
        if (i == 0 || x[i] != x[i - 1]) d->values[d->n++] = x[i];
        d->weights[d->n - 1] += 1;
    }
    return PROPER_OK;
}

/* Add loop L to model pool mp (room for it allocated): a loop node after
 * the head, whose body is the cycle and whose one successor is the exit; the
 * head's only successor becomes the loop node. */
static int proper__sim_emit_loop(proper_sim_pool *mp, const proper__sim_bpool *bp, const size_t *newidx,
                                 proper__sim_bloop *L, size_t points) {
    proper_sim_node *head = &mp->nodes[newidx[L->head]], *ln = &mp->nodes[mp->n_nodes];
    proper_strbuf key;
    int rc;
    memset(ln, 0, sizeof *ln);
    proper_sim_dist_init(&ln->dist);
    proper_sim_dist_init(&ln->count);
    ln->timeout = INFINITY;
    ln->obj = ln->obj2 = ln->on_timeout = PROPER_SIM_NONE;
    ln->op = PROPER_SIM_OP_LOOP;
    ln->body = newidx[L->body];
    mp->n_nodes++;
    proper_strbuf_init(&key);
    proper_strbuf_printf(&key, "loop %s", bp->keys.names[L->head]);
    if (!key.data) return PROPER_ENOMEM;
    ln->name = proper__sim_node_name(key.data, mp, mp->n_nodes - 1);
    proper_strbuf_free(&key);
    if (!ln->name) return PROPER_ENOMEM;
    if ((rc = proper__sim_count_dist(&ln->dist, L->count, L->n, points))) return rc;
    ln->next = (size_t *)proper_calloc(1, sizeof(size_t));
    ln->prob = (double *)proper_calloc(1, sizeof(double));
    if (!ln->next || !ln->prob) return PROPER_ENOMEM;
    ln->next[0] = newidx[L->exit];
    ln->prob[0] = 1;
    ln->n_next = 1;
    /* the head had two successors (body, exit): now the loop node only */
    head->next[0] = mp->n_nodes - 1;
    head->prob[0] = 1;
    head->n_next = 1;
    return PROPER_OK;
}

/* Order (run, queue, time) triples. */
static int proper__sim_rqt_cmp(const void *a, const void *b) {
    const double *x = (const double *)a, *y = (const double *)b;
    int i;
    for (i = 0; i < 3; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* The mean wake-up latency of hand-offs between threads. In each run, a
 * queue that no `arrive` feeds gives its k-th put to its k-th get (FIFO, in
 * time order); a get whose thread was already waiting when that put came
 * measures how long a woken thread took to run: get - put. 0 when the trace
 * has no such hand-off. (Arrivals are left out: a program records them when
 * its own thread has taken them.) */
static int proper__sim_build_wakeup(const proper_sim_trace *tr, double *out) {
    double *puts = NULL, *gets = NULL, *req = NULL, *fed = NULL, sum = 0;
    size_t np = 0, ng = 0, nf = 0, i, a, b, hits = 0;
    int rc = PROPER_OK;
    *out = 0;
    puts = (double *)proper_calloc(3 * tr->n_ev + 3, sizeof(double));
    gets = (double *)proper_calloc(4 * tr->n_ev + 4, sizeof(double));
    fed = (double *)proper_calloc(3 * tr->n_ev + 3, sizeof(double));
    req = (double *)proper_calloc(tr->n_threads + 1, sizeof(double));
    if (!puts || !gets || !fed || !req) { rc = PROPER_ENOMEM; goto done; }
    for (i = 0; i < tr->n_ev; i++) {
        const proper_sim_tev *e = &tr->ev[i];
        double *row;
        if (e->kind == PROPER_SIM_TEV_GET_REQ) req[e->thread] = (double)e->t;
        if (e->kind == PROPER_SIM_TEV_PUT) row = &puts[3 * np++];
        else if (e->kind == PROPER_SIM_TEV_GET) row = &gets[4 * ng++];
        else if (e->kind == PROPER_SIM_TEV_ARRIVE) row = &fed[3 * nf++];
        else continue;
        row[0] = (double)e->run;
        row[1] = (double)e->a;
        row[2] = (double)e->t;
        if (e->kind == PROPER_SIM_TEV_GET) row[3] = req[e->thread];
    }
    qsort(puts, np, 3 * sizeof(double), proper__sim_rqt_cmp);
    qsort(gets, ng, 4 * sizeof(double), proper__sim_rqt_cmp);
    qsort(fed, nf, 3 * sizeof(double), proper__sim_rqt_cmp);
    /* walk the (run, queue) groups of puts and gets side by side */
    for (a = 0, b = 0; a < np;) {
        size_t a1 = a, k, f;
        int arrivals = 0;
        while (a1 < np && puts[3 * a1] == puts[3 * a] && puts[3 * a1 + 1] == puts[3 * a + 1]) a1++;
        while (b < ng && (gets[4 * b] < puts[3 * a] || (gets[4 * b] == puts[3 * a] && gets[4 * b + 1] < puts[3 * a + 1]))) b++;
        {   /* does an arrival feed this (run, queue)? fed is sorted: the first not below it */
            size_t lo = 0, hi = nf;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (fed[3 * mid] < puts[3 * a] || (fed[3 * mid] == puts[3 * a] && fed[3 * mid + 1] < puts[3 * a + 1])) lo = mid + 1;
                else hi = mid;
            }
            f = lo;
            arrivals = f < nf && fed[3 * f] == puts[3 * a] && fed[3 * f + 1] == puts[3 * a + 1];
        }
        for (k = 0; !arrivals && a + k < a1 && b + k < ng && gets[4 * (b + k)] == puts[3 * a] &&
                    gets[4 * (b + k) + 1] == puts[3 * a + 1];
             k++) {
            double put_t = puts[3 * (a + k) + 2], get_t = gets[4 * (b + k) + 2], req_t = gets[4 * (b + k) + 3];
            if (req_t <= put_t && get_t >= put_t) {
                sum += get_t - put_t;
                hits++;
            }
        }
        a = a1;
    }
    if (hits) *out = sum / (double)hits / 1e9;
done:
    PROPER_FREE(puts);
    PROPER_FREE(gets);
    PROPER_FREE(fed);
    PROPER_FREE(req);
    return rc;
}

PROPER_API int proper_sim_build(proper_sim_model *out, const proper_sim_trace *tr, const proper_sim_build_opts *opts,
                                proper_sim_build_stats *stats, proper_error *err) {
    proper__sim_builder B;
    proper__sim_bloop *loops = NULL;
    size_t n_loops = 0;
    proper_sim_model m;
    proper_sim_build_stats S;
    size_t *order = NULL, *start = NULL, i, j, k, pi;
    double *C = NULL, cpu_all = 0, cpu_kept = 0;
    unsigned char *gone = NULL;
    size_t *newidx = NULL;
    int rc = PROPER_OK;
    memset(&B, 0, sizeof B);
    memset(&S, 0, sizeof S);
    B.tr = tr;
    B.o = opts ? *opts : proper_sim_build_opts_default();
    B.err = err;
    proper_sim_init(&m);
    if (!(B.o.merge >= 0 && B.o.merge < 1) || !(B.o.io_hit >= 0) || B.o.points < 1 || !(B.o.quantum >= 0))
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "build options: merge in [0, 1), io_hit >= 0, points >= 1, quantum >= 0");
    if (tr->n_threads == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "the trace has no thread events");
    if ((rc = proper_sim_copy(&m, &tr->decl, err))) return rc;
    m.cores = B.o.cores ? B.o.cores : tr->has_cores ? tr->cores : 1;
    m.disks = tr->has_disks ? tr->disks : 1;
    m.quantum = B.o.quantum;
    if (B.o.wakeup && (rc = proper__sim_build_wakeup(tr, &m.wakeup))) goto done;
    /* events grouped by thread, in order */
    order = (size_t *)proper_calloc(tr->n_ev ? tr->n_ev : 1, sizeof(size_t));
    start = (size_t *)proper_calloc(tr->n_threads + 1, sizeof(size_t));
    B.arrivals = (double **)proper_calloc(tr->names.len + 1, sizeof(double *));
    B.n_arr = (size_t *)proper_calloc(tr->names.len + 1, sizeof(size_t));
    B.cap_arr = (size_t *)proper_calloc(tr->names.len + 1, sizeof(size_t));
    if (!order || !start || !B.arrivals || !B.n_arr || !B.cap_arr) { rc = PROPER_ENOMEM; goto done; }
    for (i = 0; i < tr->n_ev; i++) start[tr->ev[i].thread + 1]++;
    for (i = 0; i < tr->n_threads; i++) start[i + 1] += start[i];
    {
        size_t *fill = (size_t *)proper_calloc(tr->n_threads + 1, sizeof(size_t));
        if (!fill) { rc = PROPER_ENOMEM; goto done; }
        for (i = 0; i < tr->n_ev; i++) order[start[tr->ev[i].thread] + fill[tr->ev[i].thread]++] = i;
        PROPER_FREE(fill);
    }
    for (i = 0; i < tr->n_threads; i++)
        if (start[i + 1] > start[i] && (rc = proper__sim_build_thread(&B, order + start[i], start[i + 1] - start[i], &S.threads_running)))
            goto done;
    /* per pool: merge, then emit */
    for (pi = 0; pi < B.n_pools; pi++) {
        proper__sim_bpool *bp = &B.pools[pi];
        size_t N = bp->n_nodes, kept = 0;
        double pool_cpu = 0, pool_bytes = 0;
        proper_sim_pool *mp;
        S.nodes_before += N;
        if (N > PROPER_SIM_BUILD_MAX_NODES) {
            rc = proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "pool %s has %lu distinct code fragments (more than %d)",
                                  tr->names.names[bp->name], (unsigned long)N, PROPER_SIM_BUILD_MAX_NODES);
            goto done;
        }
        PROPER_FREE(C);
        PROPER_FREE(gone);
        PROPER_FREE(newidx);
        C = (double *)proper_calloc(N * N, sizeof(double));
        gone = (unsigned char *)proper_calloc(N, 1);
        newidx = (size_t *)proper_calloc(N, sizeof(size_t));
        if (!C || !gone || !newidx) { rc = PROPER_ENOMEM; goto done; }
        for (i = 0; i < N; i++) {
            const proper__sim_bnode *nd = &bp->nodes[i];
            for (k = 0; k < nd->n_succ; k++)
                if (!(nd->nofetch_node == nd->succ[k].to)) C[i * N + nd->succ[k].to] += nd->succ[k].count;
            if (nd->op == PROPER_SIM_OP_CPU) pool_cpu += nd->total;
            if (nd->op == PROPER_SIM_OP_IO) pool_bytes += nd->bytes;
        }
        cpu_all += pool_cpu;
        /* merge the insignificant CFs and the markers (not the start) */
        for (i = 1; i < N; i++) {
            const proper__sim_bnode *nd = &bp->nodes[i];
            double outc = 0;
            size_t p2, s2;
            int drop = nd->marker || (nd->op == PROPER_SIM_OP_CPU && nd->total < B.o.merge * pool_cpu) ||
                       (nd->op == PROPER_SIM_OP_IO && pool_bytes > 0 && nd->bytes < B.o.merge * pool_bytes);
            if (!drop) continue;
            gone[i] = 1;
            for (s2 = 0; s2 < N; s2++)
                if (s2 != i) outc += C[i * N + s2];
            for (p2 = 0; p2 < N; p2++) {
                double in = C[p2 * N + i];
                if (p2 == i || in <= 0) continue;
                if (outc > 0)
                    for (s2 = 0; s2 < N; s2++)
                        if (s2 != i) C[p2 * N + s2] += in * C[i * N + s2] / outc;
                C[p2 * N + i] = 0;
            }
            for (s2 = 0; s2 < N; s2++) C[i * N + s2] = C[s2 * N + i] = 0;
        }
        for (i = 0; i < N; i++) {
            if (gone[i]) continue;
            newidx[i] = kept++;
            if (bp->nodes[i].op == PROPER_SIM_OP_CPU) cpu_kept += bp->nodes[i].total;
        }
        S.nodes_after += kept;
        proper__sim_free_loops(loops, n_loops);
        loops = NULL;
        n_loops = 0;
        if (B.o.loops && !bp->workload && (rc = proper__sim_find_loops(bp, C, N, gone, &loops, &n_loops))) goto done;
        /* a pool that only started threads (e.g. an acceptor that only
         * records arrivals) has nothing to simulate */
        if (kept <= 1 || bp->workload) { bp->model_index = PROPER_SIM_NONE; S.nodes_after -= kept; continue; }
        {
            size_t cap = m.n_pools;
            if (proper_reserve(&m.pools, &cap, m.n_pools + 1, sizeof *m.pools)) { rc = PROPER_ENOMEM; goto done; }
        }
        bp->model_index = m.n_pools;
        mp = &m.pools[m.n_pools];
        memset(mp, 0, sizeof *mp);
        m.n_pools++;
        if (!(mp->name = proper__sim_node_name(tr->names.names[bp->name], mp, 0))) { rc = PROPER_ENOMEM; goto done; }
        for (j = 0; j < m.n_pools - 1; j++)
            if (strcmp(m.pools[j].name, mp->name) == 0) { rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "two pools named %s", mp->name); goto done; }
        mp->threads = bp->threads;
        mp->nodes = (proper_sim_node *)proper_calloc(kept + n_loops, sizeof *mp->nodes);
        if (!mp->nodes) { rc = PROPER_ENOMEM; goto done; }
        for (i = 0; i < N; i++) {
            proper__sim_bnode *nd = &bp->nodes[i];
            proper_sim_node *mn;
            double tot = 0;
            size_t ns = 0;
            if (gone[i]) continue;
            mn = &mp->nodes[mp->n_nodes];
            memset(mn, 0, sizeof *mn);
            proper_sim_dist_init(&mn->dist);
            proper_sim_dist_init(&mn->count);
            mn->timeout = INFINITY;
            mn->obj = mn->obj2 = mn->on_timeout = mn->body = PROPER_SIM_NONE;
            mp->n_nodes++;
            if (!(mn->name = proper__sim_node_name(bp->keys.names[i], mp, mp->n_nodes - 1))) { rc = PROPER_ENOMEM; goto done; }
            mn->op = (proper_sim_op)nd->op;
            if (nd->op == PROPER_SIM_OP_CPU && (rc = proper__sim_empirical(&mn->dist, nd->x, nd->n, B.o.points))) goto done;
            if (nd->op == PROPER_SIM_OP_IO) {
                mn->has_count = 1;
                if (nd->n && (rc = proper__sim_empirical(&mn->dist, nd->x, nd->n, B.o.points))) goto done;
                if (nd->hits > 0 && nd->misses > 0) {
                    double v[2] = {0, 1}, w[2];
                    w[0] = nd->hits;
                    w[1] = nd->misses;
                    mn->count.kind = PROPER_SIM_EMPIRICAL;
                    mn->count.values = (double *)proper_calloc(2, sizeof(double));
                    mn->count.weights = (double *)proper_calloc(2, sizeof(double));
                    if (!mn->count.values || !mn->count.weights) { rc = PROPER_ENOMEM; goto done; }
                    memcpy(mn->count.values, v, sizeof v);
                    memcpy(mn->count.weights, w, sizeof w);
                    mn->count.n = 2;
                } else {
                    mn->count.a = nd->misses > 0 ? 1 : 0;
                }
            }
            if (nd->op == PROPER_SIM_OP_GET || nd->op == PROPER_SIM_OP_PUT) {
                if ((rc = proper__sim_build_obj(&m, tr, nd->a, 'q', bp->model_index, &mn->obj, err))) goto done;
            } else if (nd->op >= PROPER_SIM_OP_LOCK) {
                char f = nd->op == PROPER_SIM_OP_LOCK ? 'm' : nd->op == PROPER_SIM_OP_RLOCK || nd->op == PROPER_SIM_OP_WLOCK ? 'r'
                       : nd->op == PROPER_SIM_OP_WAIT || nd->op == PROPER_SIM_OP_POST ? 's' : nd->op == PROPER_SIM_OP_AWAIT ? 'b'
                       : nd->op == PROPER_SIM_OP_UNLOCK ? 'm' : 'c';
                if (nd->op == PROPER_SIM_OP_UNLOCK) {
                    /* a mutex unless some thread read- or write-locks it */
                    size_t q, r2;
                    for (q = 0; q < B.n_pools; q++)
                        for (r2 = 0; r2 < B.pools[q].n_nodes; r2++)
                            if (B.pools[q].nodes[r2].a == nd->a && (B.pools[q].nodes[r2].op == PROPER_SIM_OP_RLOCK ||
                                                                    B.pools[q].nodes[r2].op == PROPER_SIM_OP_WLOCK))
                                f = 'r';
                }
                if ((rc = proper__sim_build_obj(&m, tr, nd->a, f, bp->model_index, &mn->obj, err))) goto done;
                if (nd->op == PROPER_SIM_OP_CWAIT && (rc = proper__sim_build_obj(&m, tr, nd->b, 'm', bp->model_index, &mn->obj2, err)))
                    goto done;
            }
            for (k = 0; k < N; k++) tot += C[i * N + k];
            for (k = 0; k < N; k++) ns += C[i * N + k] > 0;
            if (ns) {
                mn->next = (size_t *)proper_calloc(ns, sizeof(size_t));
                mn->prob = (double *)proper_calloc(ns, sizeof(double));
                if (!mn->next || !mn->prob) { rc = PROPER_ENOMEM; goto done; }
                for (k = 0; k < N; k++)
                    if (C[i * N + k] > 0) {
                        mn->next[mn->n_next] = newidx[k];
                        mn->prob[mn->n_next++] = C[i * N + k] / tot;
                    }
            }
            if (nd->nofetch_node != PROPER_SIM_NONE && !gone[nd->nofetch_node] && nd->timeout >= 0) {
                mn->timeout = nd->timeout;
                mn->on_timeout = newidx[nd->nofetch_node];
            }
        }
        for (j = 0; j < n_loops; j++)
            if ((rc = proper__sim_emit_loop(mp, bp, newidx, &loops[j], B.o.points))) goto done;
        S.loops += n_loops;
        S.nodes_after += n_loops;
    }
    /* a declared barrier with as many parties as the one pool awaiting it
     * has threads follows that pool's size (a what-if on the threads keeps
     * the barrier consistent) */
    for (i = 0; i < m.n_locks; i++) {
        size_t user = PROPER_SIM_NONE, users = 0, q;
        if (m.locks[i].kind != PROPER_SIM_BARRIER || m.locks[i].pool != PROPER_SIM_NONE) continue;
        for (q = 0; q < m.n_pools; q++)
            for (k = 0; k < m.pools[q].n_nodes; k++)
                if (m.pools[q].nodes[k].op == PROPER_SIM_OP_AWAIT && m.pools[q].nodes[k].obj == i) {
                    if (user != q) users++;
                    user = q;
                    break;
                }
        if (users == 1 && m.pools[user].threads == m.locks[i].count) {
            m.locks[i].pool = user;
            m.locks[i].count = 0; /* as the model file reads "barrier pool P" */
        }
    }
    /* the open workload: arrivals per queue */
    for (i = 0; i < tr->names.len; i++) {
        proper_sim_source *src;
        size_t q, cap = m.n_sources;
        char *nm;
        proper_strbuf b;
        size_t nd = 0;
        if (B.n_arr[i] < 4) continue;
        qsort(B.arrivals[i], B.n_arr[i] / 2, 2 * sizeof(double), proper__sim_pcmp);
        for (k = 0; k + 1 < B.n_arr[i] / 2; k++)
            if (B.arrivals[i][2 * k] == B.arrivals[i][2 * k + 2])
                B.arrivals[i][nd++] = (B.arrivals[i][2 * k + 3] - B.arrivals[i][2 * k + 1]) / 1e9;
        if (nd == 0) continue;
        if ((rc = proper__sim_build_obj(&m, tr, i, 'q', PROPER_SIM_NONE, &q, err))) goto done;
        if (proper_reserve(&m.sources, &cap, m.n_sources + 1, sizeof *m.sources)) { rc = PROPER_ENOMEM; goto done; }
        src = &m.sources[m.n_sources];
        memset(src, 0, sizeof *src);
        proper_sim_dist_init(&src->dist);
        m.n_sources++;
        proper_strbuf_init(&b);
        proper_strbuf_printf(&b, "arrivals.%s", tr->names.names[i]);
        nm = proper_strbuf_take(&b);
        if (!nm) { rc = PROPER_ENOMEM; goto done; }
        src->name = nm;
        src->queue = q;
        if (tr->latency > 0) src->latency = (double)tr->latency / 1e9;
        if ((rc = proper__sim_empirical(&src->dist, B.arrivals[i], nd, B.o.points))) goto done;
        if (!(proper_sim_dist_mean(&src->dist) > 0)) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "queue %s: all arrivals at the same instant", tr->names.names[i]);
            goto done;
        }
    }
    if (m.n_pools == 0) { rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no thread of the trace does anything to simulate"); goto done; }
    /* one namespace in the model file: a pool or source whose name is taken
     * (a pool named like a queue) gets a suffix */
    for (k = 0; k < m.n_pools + m.n_sources; k++) {
        char **nm = k < m.n_pools ? &m.pools[k].name : &m.sources[k - m.n_pools].name;
        unsigned long suffix = 1;
        for (;;) {
            size_t len = strlen(*nm), q, taken = 0;
            taken = proper__sim_find(&m, 'q', *nm, len) != PROPER_SIM_NONE || proper__sim_find(&m, 'l', *nm, len) != PROPER_SIM_NONE;
            for (q = 0; q < k && !taken; q++) {
                const char *other = q < m.n_pools ? m.pools[q].name : m.sources[q - m.n_pools].name;
                taken = strcmp(other, *nm) == 0;
            }
            if (!taken) break;
            {
                proper_strbuf b;
                char *fresh;
                proper_strbuf_init(&b);
                proper_strbuf_printf(&b, "%s_%lu", *nm, ++suffix);
                if (!(fresh = proper_strbuf_take(&b))) { rc = PROPER_ENOMEM; goto done; }
                /* strip the previous suffix we added */
                if (suffix > 2) {
                    char *us = strrchr(*nm, '_');
                    if (us) {
                        *us = '\0';
                        PROPER_FREE(fresh);
                        proper_strbuf_init(&b);
                        proper_strbuf_printf(&b, "%s_%lu", *nm, suffix);
                        if (!(fresh = proper_strbuf_take(&b))) { rc = PROPER_ENOMEM; goto done; }
                    }
                }
                PROPER_FREE(*nm);
                *nm = fresh;
            }
        }
    }
    if ((rc = proper_sim_validate(&m, err))) goto done;
    S.cpu_kept = cpu_all > 0 ? cpu_kept / cpu_all : 1;
    if (stats) *stats = S;
    proper_sim_free(out);
    *out = m;
    proper_sim_init(&m);
done:
    if (rc == PROPER_ENOMEM) proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    proper__sim_free_loops(loops, n_loops);
    for (i = 0; i < B.n_pools; i++) proper__sim_bpool_free(&B.pools[i]);
    PROPER_FREE(B.pools);
    if (B.arrivals)
        for (i = 0; i < tr->names.len; i++) PROPER_FREE(B.arrivals[i]);
    PROPER_FREE(B.arrivals);
    PROPER_FREE(B.n_arr);
    PROPER_FREE(B.cap_arr);
    PROPER_FREE(order);
    PROPER_FREE(start);
    PROPER_FREE(C);
    PROPER_FREE(gone);
    PROPER_FREE(newidx);
    proper_sim_free(&m);
    return rc;
}

/* ---- the recorder (POSIX) ---- */
#ifndef PROPER_SIM_NO_RECORDER
#include <pthread.h>
#include <sys/resource.h>
#include <time.h>

struct proper_sim_writer {
    FILE *out;
    pthread_mutex_t lock; /* guards everything below and writes to `out` */
    proper_intern names;
    long long next_tid;
    int flags;
    int status;
};

/* The calling thread's block-input count (ru_inblock), -1 where the system
 * has no per-thread figure. */
static int64_t proper__sim_inblock(void) {
#if defined(__linux__)
    struct rusage u;
#ifdef RUSAGE_THREAD
    int who = RUSAGE_THREAD;
#else
    int who = 1; /* Linux's RUSAGE_THREAD, hidden without _GNU_SOURCE */
#endif
    if (getrusage(who, &u) != 0) return -1;
    return (int64_t)u.ru_inblock;
#else
    return -1;
#endif
}

static int64_t proper__sim_clock(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
}

/* The recorder's own CPU time (ns) per event (its clock readings) and per
 * block count (two getrusage calls), measured on the calling thread. */
static void proper__sim_calibrate(int flags, int64_t *per_event, int64_t *per_io) {
    enum { N = 4000 };
    volatile int64_t sink = 0;
    int64_t c0, c1;
    int i;
    c0 = proper__sim_clock(CLOCK_THREAD_CPUTIME_ID);
    for (i = 0; i < N; i++) {
        sink += proper__sim_clock(CLOCK_MONOTONIC);
        if (flags & PROPER_SIM_REC_CPU) sink += proper__sim_clock(CLOCK_THREAD_CPUTIME_ID);
    }
    c1 = proper__sim_clock(CLOCK_THREAD_CPUTIME_ID);
    *per_event = (c1 - c0) / N;
    *per_io = 0;
    if (flags & PROPER_SIM_REC_IO_BLOCKS) {
        c0 = proper__sim_clock(CLOCK_THREAD_CPUTIME_ID);
        for (i = 0; i < N; i++) sink += proper__sim_inblock();
        c1 = proper__sim_clock(CLOCK_THREAD_CPUTIME_ID);
        *per_io = (c1 - c0) / N;
    }
    (void)sink;
}

PROPER_API int proper_sim_writer_open(proper_sim_writer **w, FILE *out, int flags, proper_error *err) {
    int64_t per_event, per_io;
    proper_sim_writer *nw = (proper_sim_writer *)proper_calloc(1, sizeof *nw);
    *w = NULL;
    if (!nw) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if (pthread_mutex_init(&nw->lock, NULL) != 0) {
        PROPER_FREE(nw);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "cannot create the writer's mutex");
    }
    nw->out = out;
    nw->flags = flags;
    proper_intern_init(&nw->names);
    proper__sim_calibrate(flags, &per_event, &per_io);
    if (fprintf(out, "proper-threads 1\noverhead %lld %lld\n", (long long)per_event, (long long)per_io) < 0)
        nw->status = PROPER_EIO;
    *w = nw;
    return PROPER_OK;
}

PROPER_API int proper_sim_writer_name(proper_sim_writer *w, const char *name, proper_error *err) {
    size_t idx;
    int rc;
    if (!proper__sim_valid_name(name)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "'%s' is not a valid name", name);
    pthread_mutex_lock(&w->lock);
    rc = proper_intern_add(&w->names, name, strlen(name), &idx, NULL);
    pthread_mutex_unlock(&w->lock);
    if (rc) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if (idx > 0x7fffffff) return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "too many names");
    return (int)idx;
}

PROPER_API int proper_sim_writer_declare(proper_sim_writer *w, const char *decl, proper_error *err) {
    int bad;
    if (strchr(decl, '\n')) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a declaration is one line");
    pthread_mutex_lock(&w->lock);
    bad = fprintf(w->out, "%s\n", decl) < 0;
    if (bad && !w->status) w->status = PROPER_EIO;
    pthread_mutex_unlock(&w->lock);
    return bad ? proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error") : PROPER_OK;
}

PROPER_API int proper_sim_writer_close(proper_sim_writer *w, proper_error *err) {
    int st;
    if (!w) return PROPER_OK;
    st = w->status;
    if (fflush(w->out) != 0) st = PROPER_EIO;
    proper_intern_free(&w->names);
    pthread_mutex_destroy(&w->lock);
    PROPER_FREE(w);
    return st ? proper_error_set(err, st, NULL, 0, 0, "error writing the thread trace") : PROPER_OK;
}

/* Decimal digits of v at p; returns the end. */
static char *proper__sim_utoa(char *p, unsigned long long v) {
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

static char *proper__sim_puts(char *p, const char *s) {
    while (*s) *p++ = *s++;
    return p;
}

/* Format the buffered events (names are read under the writer's lock) and
 * write them with one fwrite per 8 KiB. */
static void proper__sim_flush(proper_sim_recorder *r) {
    proper_sim_writer *w = r->w;
    char buf[8192];
    size_t i, used = 0;
    int bad = 0;
    pthread_mutex_lock(&w->lock);
    for (i = 0; i < r->len; i++) {
        const proper_sim_slot *s = &r->slots[i];
        const char *na = s->a >= 0 && (size_t)s->a < w->names.len ? w->names.names[s->a] : NULL;
        const char *nb = s->b >= 0 && (size_t)s->b < w->names.len ? w->names.names[s->b] : NULL;
        size_t need = 128 + (na ? strlen(na) : 0) + (nb ? strlen(nb) : 0);
        char *p;
        if (used + need > sizeof buf) {
            bad |= fwrite(buf, 1, used, w->out) != used;
            used = 0;
        }
        if (need > sizeof buf) { /* a name longer than 8 KiB: the slow path */
            bad |= fprintf(w->out, "%lld %lld %s%s%s%s%s\n", r->tid, (long long)s->t, proper__sim_tev_words[s->kind],
                           na ? " " : "", na ? na : "", nb ? " " : "", nb ? nb : "") < 0;
            continue;
        }
        p = buf + used;
        if (r->tid < 0) *p++ = '-';
        p = proper__sim_utoa(p, (unsigned long long)(r->tid < 0 ? -r->tid : r->tid));
        *p++ = ' ';
        p = proper__sim_utoa(p, (unsigned long long)(s->t < 0 ? 0 : s->t));
        *p++ = ' ';
        p = proper__sim_puts(p, proper__sim_tev_words[s->kind]);
        if (na) { *p++ = ' '; p = proper__sim_puts(p, na); }
        if (nb) { *p++ = ' '; p = proper__sim_puts(p, nb); }
        if (s->arg >= 0) { *p++ = ' '; p = proper__sim_utoa(p, (unsigned long long)s->arg); }
        if (s->arg >= 0 && s->blocks >= 0) { *p++ = ' '; p = proper__sim_utoa(p, (unsigned long long)s->blocks); }
        if (s->cpu >= 0) { *p++ = ' '; *p++ = '@'; p = proper__sim_utoa(p, (unsigned long long)s->cpu); }
        *p++ = '\n';
        used = (size_t)(p - buf);
    }
    if (used) bad |= fwrite(buf, 1, used, w->out) != used;
    pthread_mutex_unlock(&w->lock);
    if (bad && !r->status) r->status = PROPER_EIO;
    r->len = 0;
}

PROPER_API int proper_sim_recorder_init(proper_sim_recorder *r, proper_sim_writer *w, int pool, proper_error *err) {
    memset(r, 0, sizeof *r);
    if (pool < 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a pool name id is needed");
    r->slots = (proper_sim_slot *)proper_calloc(PROPER_SIM_RECORDER_BUFFER, sizeof *r->slots);
    if (!r->slots) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    r->w = w;
    r->cap = PROPER_SIM_RECORDER_BUFFER;
    r->cpu_clock = (w->flags & PROPER_SIM_REC_CPU) != 0;
    r->io_blocks = (w->flags & PROPER_SIM_REC_IO_BLOCKS) != 0;
    r->inblock = -1;
    pthread_mutex_lock(&w->lock);
    r->tid = w->next_tid++;
    pthread_mutex_unlock(&w->lock);
    return proper_sim_record(r, PROPER_SIM_TEV_START, pool, -1, -1);
}

PROPER_API int proper_sim_record(proper_sim_recorder *r, int kind, int a, int b, int64_t arg) {
    proper_sim_slot *s;
    if (r->status) return r->status;
    if ((unsigned)kind >= PROPER_SIM_TEV_COUNT) return r->status = PROPER_EINVAL;
    if (r->len == r->cap) proper__sim_flush(r);
    s = &r->slots[r->len++];
    s->t = proper__sim_clock(CLOCK_MONOTONIC);
    s->cpu = r->cpu_clock ? proper__sim_clock(CLOCK_THREAD_CPUTIME_ID) : -1;
    s->kind = kind;
    s->a = a;
    s->b = b;
    s->arg = arg;
    s->blocks = -1;
    if (r->io_blocks && kind == PROPER_SIM_TEV_IO_REQ) r->inblock = proper__sim_inblock();
    if (r->io_blocks && kind == PROPER_SIM_TEV_IO && arg >= 0 && r->inblock >= 0) {
        int64_t now = proper__sim_inblock();
        s->blocks = now >= r->inblock ? now - r->inblock : -1;
    }
    return PROPER_OK;
}

PROPER_API int proper_sim_recorder_free(proper_sim_recorder *r, proper_error *err) {
    int st;
    if (!r->slots) return PROPER_OK;
    proper_sim_record(r, PROPER_SIM_TEV_EXIT, -1, -1, -1);
    proper__sim_flush(r);
    st = r->status;
    PROPER_FREE(r->slots);
    memset(r, 0, sizeof *r);
    return st ? proper_error_set(err, st, NULL, 0, 0, "error recording thread events") : PROPER_OK;
}
#endif /* PROPER_SIM_NO_RECORDER */

#endif /* PROPER_SIM_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
#endif /* PROPER_SIM_H */
