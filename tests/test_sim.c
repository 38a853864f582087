/* Tests for sim.h: the simulator against closed forms (M/M/1, M/M/c with
 * Erlang C, M/D/1 with Pollaczek-Khinchine, a closed network against qn.h's
 * exact MVA; explicit loops, fixed, variable and nested, against
 * Pollaczek-Khinchine), each exact value inside the simulator's own
 * confidence interval; loops built from traces with a fixed and a variable
 * read count (the response time's spread tells them from a PCG cycle); the lock semantics on deterministic models whose throughput is
 * known exactly; determinism for a seed; the model file (round trip,
 * errors with line:col) and the what-if assignments; a source's latency,
 * the wake-up latency and a thread keeping its core between CPU fragments
 * on deterministic models; a model built from a hand-written acceptor and
 * worker trace (latency, wake-up, block counts, the recorder's overhead)
 * checked exactly; the recorder writing what the reader reads.
 *
 * Stochastic checks use fixed seeds and 99% intervals over 20 replications
 * (t quantile with 19 degrees of freedom): the check "exact value inside
 * the interval" is deterministic for the seed and would fail for a correct
 * simulator on about 1 seed in 100 per check. */
#define PROPER_IMPLEMENTATION
#include "../src/qn.h"
#include "../src/sim.h"
#include "test.h"

static int parse(proper_sim_model *m, const char *text) {
    proper_error e;
    int rc;
    proper_sim_init(m);
    rc = proper_sim_parse(m, text, strlen(text), "t.sim", &e);
    if (rc) printf("  parse: %s:%d:%d: %s\n", e.file, e.line, e.col, e.message);
    return rc;
}

static int run(const proper_sim_model *m, double horizon, size_t reps, proper_sim_result *r) {
    proper_sim_opts o = proper_sim_opts_default();
    proper_error e;
    int rc;
    o.horizon = horizon;
    o.replications = reps;
    o.level = 0.99;
    o.seed = 12345;
    proper_sim_result_init(r);
    rc = proper_sim_run(m, &o, r, &e);
    if (rc) printf("  run: %s\n", e.message);
    return rc;
}

static void check_in(const char *what, proper_interval iv, double exact) {
    printf("  %-22s %.5f  99%% CI [%.5f, %.5f]  exact %.5f\n", what, iv.estimate, iv.lo, iv.hi, exact);
    CHECK(iv.lo <= exact && exact <= iv.hi);
}

static const char *mm1_text =
    "proper-sim 1\n"
    "cpu cores 1 fifo\n"
    "queue q\n"
    "source arrivals open q interarrival exp(2)   # lambda = 0.5\n"
    "pool server threads 1\n"
    "  take: get q -> serve\n"
    "  serve: cpu exp(1) -> out                  # mu = 1\n"
    "  out: done -> take\n"
    "end\n";

static void test_mm1(void) {
    proper_sim_model m;
    proper_sim_result r;
    CHECK_INT(parse(&m, mm1_text), 0);
    CHECK_INT(run(&m, 4000, 20, &r), 0);
    /* rho = 0.5: W = 1/(mu - lambda) = 2, Lq = rho^2/(1 - rho) = 0.5, the
     * response time is exponential with rate mu - lambda: q95 = ln(20)/0.5 */
    check_in("throughput", r.throughput, 0.5);
    check_in("mean response", r.response, 2.0);
    check_in("p95 response", r.response_q, log(20.0) / 0.5);
    check_in("utilisation", r.cpu_util, 0.5);
    check_in("queue length", r.queue_len[0], 0.5);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
}

/* Erlang C: probability of waiting in M/M/c with offered load a = lambda/mu. */
static double erlang_c(int c, double a) {
    double term = 1, sum = 1, rho = a / c, top;
    int k;
    for (k = 1; k < c; k++) {
        term *= a / k;
        sum += term;
    }
    top = term * a / c / (1 - rho);
    return top / (sum + top);
}

static void test_mmc(void) {
    proper_sim_model m;
    proper_sim_result r;
    const char *text =
        "proper-sim 1\n"
        "cpu cores 3 quantum 0.004\n"
        "queue q\n"
        "source arrivals open q interarrival exp(0.5)   # lambda = 2\n"
        "pool server threads 3\n"
        "  take: get q -> serve\n"
        "  serve: cpu exp(1) -> out\n"
        "  out: done -> take\n"
        "end\n";
    double C = erlang_c(3, 2.0), W = C / (3 * 1.0 - 2.0) + 1.0;
    CHECK_INT(parse(&m, text), 0);
    CHECK_INT(run(&m, 2000, 20, &r), 0);
    check_in("throughput", r.throughput, 2.0);
    check_in("mean response (C)", r.response, W);
    check_in("utilisation", r.cpu_util, 2.0 / 3.0);
    check_in("queue length", r.queue_len[0], C * (2.0 / 3.0) / (1 - 2.0 / 3.0));
    proper_sim_result_free(&r);
    proper_sim_free(&m);
}

static void test_md1(void) {
    proper_sim_model m;
    proper_sim_result r;
    const char *text =
        "proper-sim 1\n"
        "cpu cores 1 fifo\n"
        "queue q\n"
        "source arrivals open q interarrival exp(1.25)   # lambda = 0.8\n"
        "pool server threads 1\n"
        "  take: get q -> serve\n"
        "  serve: cpu const(1) -> out\n"
        "  out: done -> take\n"
        "end\n";
    /* Pollaczek-Khinchine: Wq = lambda E[S^2] / (2 (1 - rho)) = 0.8/(2*0.2) = 2 */
    CHECK_INT(parse(&m, text), 0);
    CHECK_INT(run(&m, 10000, 20, &r), 0);
    check_in("throughput", r.throughput, 0.8);
    check_in("mean response (P-K)", r.response, 3.0);
    check_in("queue length", r.queue_len[0], 0.8 * 2.0);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
}

/* N clients think (delay), then use the CPU (one core, processor sharing or
 * round robin) and the disk (FIFO): a product-form closed network whose
 * exact throughput comes from qn.h's MVA. */
static void closed_case(const char *sched, unsigned long N) {
    proper_sim_model m;
    proper_sim_result r;
    proper_qn q;
    double ql[3], tput[3], R;
    char text[1024];
    snprintf(text, sizeof text,
             "proper-sim 1\n"
             "cpu cores 1 %s\n"
             "disk servers 1\n"
             "queue q\n"
             "source users closed q clients %lu think exp(2)\n"
             "pool worker threads %lu\n"
             "  take: get q -> compute\n"
             "  compute: cpu exp(0.5) -> read\n"
             "  read: io exp(0.4) -> out\n"
             "  out: done -> take\n"
             "end\n",
             sched, N, N);
    proper_qn_init(&q);
    CHECK_INT(proper_qn_create(&q, 3, NULL), 0);
    q.servers[0] = INFINITY;
    q.rates[0] = 0.5;
    q.rates[1] = 2.0;
    q.rates[2] = 2.5;
    q.routing[0 * 3 + 1] = q.routing[1 * 3 + 2] = q.routing[2 * 3 + 0] = 1;
    CHECK_INT(proper_qn_mva(&q, N, ql, tput, NULL), 0);
    R = (double)N / tput[0] - 2.0; /* response time law */
    CHECK_INT(parse(&m, text), 0);
    CHECK_INT(run(&m, 3000, 20, &r), 0);
    printf("  closed network, %s, N = %lu:\n", sched, N);
    check_in("throughput (MVA)", r.throughput, tput[0]);
    check_in("mean response (MVA)", r.response, R);
    check_in("cpu utilisation", r.cpu_util, tput[1] / 2.0);
    check_in("disk utilisation", r.disk_util, tput[2] / 2.5);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
    proper_qn_free(&q);
}

static void test_closed_vs_mva(void) {
    closed_case("ps", 5);
    closed_case("quantum 0.01", 3);
}

/* Deterministic models: the throughput is known exactly. */
static double det_throughput(const char *text, double horizon) {
    proper_sim_model m;
    proper_sim_result r;
    proper_sim_opts o = proper_sim_opts_default();
    proper_error e;
    double x = NAN;
    o.horizon = horizon;
    o.warmup = 0;
    o.replications = 2;
    if (parse(&m, text) == 0) {
        proper_sim_result_init(&r);
        if (proper_sim_run(&m, &o, &r, &e) == 0) x = r.throughput.estimate;
        else printf("  run: %s\n", e.message);
        proper_sim_result_free(&r);
    }
    proper_sim_free(&m);
    return x;
}

static void test_locks(void) {
    /* a mutex serialises: one critical section of 1 s at a time */
    CHECK_ABS(det_throughput("proper-sim 1\ncpu cores 2 fifo\nlock m mutex\npool p threads 2\n"
                             "  a: lock m -> b\n  b: cpu const(1) -> c\n  c: unlock m -> d\n  d: done -> a\nend\n",
                             100),
              1.0, 0.011);
    /* readers share a rwlock, writers do not */
    CHECK_ABS(det_throughput("proper-sim 1\ncpu cores 4 fifo\nlock l rwlock\npool p threads 4\n"
                             "  a: rlock l -> b\n  b: cpu const(1) -> c\n  c: unlock l -> d\n  d: done -> a\nend\n",
                             100),
              4.0, 0.041);
    CHECK_ABS(det_throughput("proper-sim 1\ncpu cores 4 fifo\nlock l rwlock\npool p threads 4\n"
                             "  a: wlock l -> b\n  b: cpu const(1) -> c\n  c: unlock l -> d\n  d: done -> a\nend\n",
                             100),
              1.0, 0.011);
    /* a semaphore of 2 permits */
    CHECK_ABS(det_throughput("proper-sim 1\ncpu cores 4 fifo\nlock s semaphore 2\npool p threads 4\n"
                             "  a: wait s -> b\n  b: cpu const(1) -> c\n  c: post s -> d\n  d: done -> a\nend\n",
                             100),
              2.0, 0.021);
    /* 4 threads of 1 s on 2 cores meet at a barrier: a round every 2 s,
     * 4 completions per round, under FIFO and under round robin */
    CHECK_ABS(det_throughput("proper-sim 1\ncpu cores 2 fifo\nlock b barrier pool p\npool p threads 4\n"
                             "  a: cpu const(1) -> b\n  b: await b -> c\n  c: done -> a\nend\n",
                             100),
              2.0, 0.041);
    CHECK_ABS(det_throughput("proper-sim 1\ncpu cores 2 quantum 0.01\nlock b barrier 4\npool p threads 4\n"
                             "  a: cpu const(1) -> b\n  b: await b -> c\n  c: done -> a\nend\n",
                             100),
              2.0, 0.041);
    /* a condition variable: one waiter, signalled once a second */
    CHECK_ABS(det_throughput("proper-sim 1\nlock m mutex\nlock c cond\n"
                             "pool waiter threads 1\n  a: lock m -> b\n  b: cwait c m -> u\n  u: unlock m -> d\n  d: done -> a\nend\n"
                             "pool signaller threads 1\n  s: delay const(1) -> l\n  l: lock m -> g\n  g: signal c -> v\n  v: unlock m -> s\nend\n",
                             100),
              1.0, 0.011);
    /* a get that times out after 0.5 s (the c_in^nofetch branch) */
    CHECK_ABS(det_throughput("proper-sim 1\nqueue q\npool p threads 1\n"
                             "  g: get q timeout 0.5 else n -> g\n  n: done -> g\nend\n",
                             100),
              2.0, 0.021);
    /* a lock timeout of 0.3 s against a holder of 1 s: the waiter gives up
     * three times a second, then gets the lock handed over; the two threads
     * take turns, so three give-ups a second in all */
    CHECK_ABS(det_throughput("proper-sim 1\ncpu cores 2 fifo\nlock m mutex\npool p threads 2\n"
                             "  a: lock m timeout 0.3 else gaveup -> b\n  b: cpu const(1) -> c\n  c: unlock m -> a\n"
                             "  gaveup: done -> a\nend\n",
                             100),
              3.0, 0.05);
}

static void test_page_cache_and_disk(void) {
    /* io with k = 0 (a cache hit) half the time: one disk, service 1 s,
     * a closed loop of one thread: mean cycle 0.5 s */
    CHECK_ABS(det_throughput("proper-sim 1\ndisk servers 1\npool p threads 1\n"
                             "  r: io const(1) k empirical(0:1, 1:1) -> d\n  d: done -> r\nend\n",
                             4000),
              2.0, 0.06);
    /* two disk servers, four threads, 1 s each: 2 per second */
    CHECK_ABS(det_throughput("proper-sim 1\ndisk servers 2\npool p threads 4\n"
                             "  r: io const(1) -> d\n  d: done -> r\nend\n",
                             100),
              2.0, 0.021);
}

static void test_deterministic_for_seed(void) {
    proper_sim_model m;
    proper_sim_result a, b, c;
    proper_sim_opts o = proper_sim_opts_default();
    CHECK_INT(parse(&m, mm1_text), 0);
    o.horizon = 500;
    o.replications = 3;
    proper_sim_result_init(&a);
    proper_sim_result_init(&b);
    proper_sim_result_init(&c);
    CHECK_INT(proper_sim_run(&m, &o, &a, NULL), 0);
    CHECK_INT(proper_sim_run(&m, &o, &b, NULL), 0);
    o.seed = 2;
    CHECK_INT(proper_sim_run(&m, &o, &c, NULL), 0);
    CHECK(a.response.estimate == b.response.estimate && a.events == b.events);
    CHECK(a.response.estimate != c.response.estimate);
    proper_sim_result_free(&a);
    proper_sim_result_free(&b);
    proper_sim_result_free(&c);
    proper_sim_free(&m);
}

static const char *full_text =
    "proper-sim 1\n"
    "# every construct of the grammar\n"
    "cpu cores 2 quantum 0.004 wakeup 2e-05\n"
    "disk servers 1\n"
    "queue incoming\n"
    "queue conn capacity 64\n"
    "lock cache mutex\n"
    "lock index rwlock\n"
    "lock slots semaphore 3\n"
    "lock ready cond\n"
    "lock round barrier pool worker\n"
    "lock round2 barrier 2\n"
    "source net open incoming interarrival empirical(0.001:2, 0.0025:1) count 100000 latency 0.0003\n"
    "source users closed conn clients 10 think erlang(2, 0.5) latency 1e-05\n"
    "pool acceptor threads 1\n"
    "  accept: get incoming -> parse\n"
    "  parse: cpu uniform(1e-05, 3e-05) -> hand\n"
    "  hand: put conn -> accept\n"
    "end\n"
    "pool worker threads 4\n"
    "  take: get conn timeout 0.5 else idle -> look\n"
    "  idle: nop -> take\n"
    "  look: rlock index -> lookup\n"
    "  lookup: cpu exp(0.0002) -> unl\n"
    "  unl: unlock index -> hit 0.25, miss 0.75\n"
    "  hit: lock cache -> served\n"
    "  served: unlock cache -> reply\n"
    "  miss: io exp(0.004) k empirical(0:1, 1:3) -> reply\n"
    "  reply: delay const(0.0001) -> out\n"
    "  out: done -> take\n"
    "end\n";

static void test_round_trip(void) {
    proper_sim_model m, n;
    proper_strbuf a, b;
    proper_error e;
    CHECK_INT(parse(&m, full_text), 0);
    proper_strbuf_init(&a);
    proper_strbuf_init(&b);
    CHECK_INT(proper_sim_format(&m, &a, &e), 0);
    proper_sim_init(&n);
    CHECK_INT(proper_sim_parse(&n, a.data, a.len, "printed", &e), 0);
    CHECK(proper_sim_equal(&m, &n));
    CHECK_INT(proper_sim_format(&n, &b, &e), 0);
    CHECK_STR(a.data, b.data);
    /* copy, and the what-if assignments */
    CHECK_INT(proper_sim_copy(&n, &m, &e), 0);
    CHECK(proper_sim_equal(&m, &n));
    CHECK_INT(proper_sim_set(&n, "workers=16", &e), 0);
    CHECK_INT(n.pools[1].threads, 16);
    CHECK_INT(n.pools[0].threads, 1); /* the acceptor passes tasks on: not a worker */
    CHECK_INT(proper_sim_set(&n, "threads.acceptor=2", &e), 0);
    CHECK_INT(n.pools[0].threads, 2);
    CHECK_INT(proper_sim_set(&n, "cores=8", &e), 0);
    CHECK_INT(n.cores, 8);
    CHECK_INT(proper_sim_set(&n, "rate=2000", &e), 0);
    CHECK_REL(proper_sim_dist_mean(&n.sources[0].dist), 1.0 / 2000, 1e-12);
    CHECK_INT(proper_sim_set(&n, "clients=3", &e), 0);
    CHECK_INT(n.sources[1].count, 3);
    CHECK_INT(proper_sim_set(&n, "quantum=ps", &e), 0);
    CHECK(n.quantum == 0);
    CHECK_INT(proper_sim_set(&n, "capacity.conn=8", &e), 0);
    CHECK_INT(n.queues[1].capacity, 8);
    CHECK(proper_sim_set(&n, "bogus=1", &e) == PROPER_EUNDEFINED);
    CHECK(proper_sim_set(&n, "threads=2", &e) == PROPER_EINVAL);
    CHECK(proper_sim_set(&n, "threads.nope=2", &e) == PROPER_EUNDEFINED);
    CHECK(proper_sim_set(&n, "capacity.nope=2", &e) == PROPER_EUNDEFINED);
    CHECK(proper_sim_set(&n, "permits.cache=2", &e) == PROPER_EUNDEFINED); /* a mutex has no permits */
    CHECK_INT(proper_sim_set(&n, "permits.slots=5", &e), 0);
    CHECK_INT(n.locks[2].count, 5);
    CHECK(proper_sim_set(&n, "rate.users=3", &e) == PROPER_EUNDEFINED); /* users is closed */
    CHECK_INT(proper_sim_set(&n, "think.users=2", &e), 0);
    CHECK_REL(proper_sim_dist_mean(&n.sources[1].dist), 2, 1e-12);
    CHECK(proper_sim_set(&n, "noequals", &e) == PROPER_EPARSE);
    CHECK(proper_sim_set(&n, "cores=0", &e) == PROPER_ERANGE);
    CHECK(proper_sim_set(&n, "cores=x", &e) != 0);
    CHECK(!proper_sim_equal(&m, &n));
    /* the full model runs */
    {
        proper_sim_result r;
        proper_sim_opts o = proper_sim_opts_default();
        o.horizon = 20;
        o.replications = 2;
        proper_sim_result_init(&r);
        CHECK_INT(proper_sim_run(&m, &o, &r, &e), 0);
        CHECK(r.throughput.estimate > 0);
        CHECK_INT(r.n_locks, 6);
        proper_sim_result_free(&r);
    }
    proper_strbuf_free(&a);
    proper_strbuf_free(&b);
    proper_sim_free(&m);
    proper_sim_free(&n);
}

static void bad(const char *text, int line, int col, const char *needle) {
    proper_sim_model m;
    proper_error e;
    int rc;
    proper_sim_init(&m);
    memset(&e, 0, sizeof e);
    rc = proper_sim_parse(&m, text, strlen(text), "bad.sim", &e);
    CHECK(rc != 0);
    if (rc == 0) { proper_sim_free(&m); return; }
    if (e.line != line || e.col != col || !strstr(e.message, needle))
        printf("  got %s:%d:%d: %s (wanted %d:%d, '%s')\n", e.file, e.line, e.col, e.message, line, col, needle);
    CHECK_INT(e.line, line);
    CHECK_INT(e.col, col);
    CHECK(strstr(e.message, needle) != NULL);
    CHECK_STR(e.file, "bad.sim");
    CHECK_INT(m.n_pools, 0); /* the output is unchanged */
}

static void test_parse_errors(void) {
    bad("", 1, 1, "header");
    bad("proper-sim 2\n", 1, 12, "version");
    bad("proper-sim 1\nqueue q\nqueue q\n", 3, 7, "already declared");
    bad("proper-sim 1\npool p threads 1\n  a: get q -> a\nend\n", 3, 10, "unknown queue 'q'");
    bad("proper-sim 1\npool p threads 1\n  a: cpu exp(1) -> b\nend\n", 3, 20, "no node 'b'");
    bad("proper-sim 1\npool p threads 1\n  a: cpu exp(1) -> a 0.5, a 0.4\nend\n", 3, 17, "sum to");
    bad("proper-sim 1\npool p threads 1\n  a: cpu exp(-1) -> a\nend\n", 3, 10, ">= 0");
    bad("proper-sim 1\npool p threads 1\n  a: cpu exp(1) -> a\n", 4, 1, "expected 'end'");
    bad("proper-sim 1\nlock m mutex\npool p threads 1\n  a: wait m -> a\nend\n", 4, 11, "cannot be applied");
    bad("proper-sim 1\nlock m mutex\npool p threads 1\n  a: unlock m timeout 1 else a -> a\nend\n", 4, 15, "takes no timeout");
    bad("proper-sim 1\ncpu cores 0 ps\n", 2, 11, "at least one core");
    bad("proper-sim 1\nlock b barrier pool nope\n", 2, 21, "unknown pool");
    bad("proper-sim 1\nqueue q\nsource s open q interarrival const(0)\n", 3, 30, "inter-arrival");
    bad("proper-sim 1\nfrobnicate\n", 2, 1, "expected cpu");
    bad("proper-sim 1\npool p threads 1\n  a: cpu empirical() -> a\nend\n", 3, 20, "expected a number");
    bad("proper-sim 1\npool p threads 1\n  a: loop const(2) -> b\n  b: cpu exp(1) -> a\nend\n", 3, 20, "expected 'do'");
    bad("proper-sim 1\npool p threads 1\n  a: loop const(2) do c -> b\n  b: cpu exp(1) -> a\nend\n", 3, 23, "no node 'c'");
    bad("proper-sim 1\npool p threads 1\n  a: loop const(-2) do b\n  b: cpu exp(1) -> a\nend\n", 3, 11, ">= 0");
    bad("proper-sim 1\nqueue q\nsource s open q interarrival exp(1) latency -1\n", 3, 45, "latency");
    bad("proper-sim 1\nqueue q\nsource s open q interarrival exp(1) latency\n", 3, 44, "expected a number");
}

static void test_run_errors(void) {
    proper_sim_model m;
    proper_sim_result r;
    proper_sim_opts o = proper_sim_opts_default();
    proper_error e;
    o.horizon = 10;
    o.replications = 1;
    /* a PCG cycle that takes no time */
    CHECK_INT(parse(&m, "proper-sim 1\npool p threads 1\n  a: nop -> b\n  b: done -> a\nend\n"), 0);
    proper_sim_result_init(&r);
    CHECK(proper_sim_run(&m, &o, &r, &e) == PROPER_ESTATE);
    CHECK(strstr(e.message, "no time") != NULL);
    CHECK_INT(r.replications, 0); /* unchanged */
    proper_sim_free(&m);
    /* loops nested one deeper than PROPER_SIM_MAX_LOOP_DEPTH */
    {
        proper_strbuf b;
        int i;
        proper_strbuf_init(&b);
        proper_strbuf_puts(&b, "proper-sim 1\npool p threads 1\n");
        for (i = 0; i <= PROPER_SIM_MAX_LOOP_DEPTH; i++) proper_strbuf_printf(&b, "  l%d: loop const(1) do l%d\n", i, i + 1);
        proper_strbuf_printf(&b, "  l%d: cpu const(1) -> l0\nend\n", PROPER_SIM_MAX_LOOP_DEPTH + 1);
        CHECK_INT(parse(&m, b.data), 0);
        proper_strbuf_free(&b);
        CHECK(proper_sim_run(&m, &o, &r, &e) == PROPER_ESTATE);
        CHECK(strstr(e.message, "nested deeper") != NULL);
        proper_sim_free(&m);
    }
    /* unlocking a mutex the thread does not hold */
    CHECK_INT(parse(&m, "proper-sim 1\nlock m mutex\npool p threads 1\n  a: cpu const(1) -> b\n  b: unlock m -> a\nend\n"), 0);
    CHECK(proper_sim_run(&m, &o, &r, &e) == PROPER_ESTATE);
    CHECK(strstr(e.message, "does not hold") != NULL);
    proper_sim_free(&m);
    /* the event limit */
    CHECK_INT(parse(&m, mm1_text), 0);
    o.max_events = 100;
    CHECK(proper_sim_run(&m, &o, &r, &e) == PROPER_ELIMIT);
    o.max_events = 0;
    o.warmup = 10;
    CHECK(proper_sim_run(&m, &o, &r, &e) == PROPER_ERANGE);
    proper_sim_free(&m);
    /* a thread that stops holding a lock: the other one waits to the end, no error */
    CHECK_INT(parse(&m, "proper-sim 1\nlock m mutex\npool p threads 2\n  a: lock m -> b\n  b: cpu const(1)\nend\n"), 0);
    o.warmup = 0;
    CHECK_INT(proper_sim_run(&m, &o, &r, &e), 0);
    CHECK_ABS(r.lock_util[0].estimate, 1.0, 1e-12);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
}

/* A synthetic thread-event trace: an acceptor records 200 arrivals 10 us
 * apart into conn; two workers take them, compute 1 us, lock m for 0.1 us,
 * compute 10 ns (an insignificant CF), read file f (a 1 ms miss on every
 * other request, a 1 us hit otherwise), compute 0.5 us and are done. */
static char *synthetic_trace(int with_exit) {
    proper_strbuf b;
    long long t = 1000, w[2] = {0, 0};
    int i;
    proper_strbuf_init(&b);
    proper_strbuf_puts(&b, "proper-threads 1\ncores 2\nqueue conn\nlock m mutex\n");
    proper_strbuf_printf(&b, "7 %lld start acceptor\n", t);
    proper_strbuf_printf(&b, "1 %lld start worker\n2 %lld start worker\n", t, t);
    for (i = 0; i < 200; i++) {
        long long a = t + 10000LL * (i + 1), x;
        int k = i % 2;
        proper_strbuf_printf(&b, "7 %lld arrive conn\n", a);
        x = w[k] > a ? w[k] : a;
        proper_strbuf_printf(&b, "%d %lld get.req conn\n%d %lld get conn\n", k + 1, w[k] > t ? w[k] : t, k + 1, x);
        proper_strbuf_printf(&b, "%d %lld lock.req m\n%d %lld lock m\n", k + 1, x + 1000, k + 1, x + 1000);
        proper_strbuf_printf(&b, "%d %lld unlock m\n", k + 1, x + 1100);
        proper_strbuf_printf(&b, "%d %lld io.req f 4096\n", k + 1, x + 1110);
        x += 1110 + ((i / 2) % 2 ? 1000000 : 1000);
        proper_strbuf_printf(&b, "%d %lld io f 4096\n", k + 1, x);
        proper_strbuf_printf(&b, "%d %lld done\n", k + 1, x + 500);
        w[k] = x + 500;
    }
    if (with_exit) proper_strbuf_printf(&b, "1 %lld exit\n2 %lld exit\n7 %lld exit\n", w[0] + 1, w[1] + 1, t + 10000LL * 201);
    return proper_strbuf_take(&b);
}

static const proper_sim_node *find_node(const proper_sim_pool *p, const char *name) {
    size_t i;
    for (i = 0; i < p->n_nodes; i++)
        if (strcmp(p->nodes[i].name, name) == 0) return &p->nodes[i];
    printf("  no node %s\n", name);
    return NULL;
}

static void test_build_from_trace(void) {
    proper_sim_trace tr;
    proper_sim_model m, back;
    proper_sim_build_stats st;
    proper_sim_build_opts o = proper_sim_build_opts_default();
    memset(&st, 0, sizeof st);
    proper_error e;
    proper_strbuf b;
    const proper_sim_node *n;
    char *text = synthetic_trace(1);
    proper_sim_trace_init(&tr);
    proper_sim_init(&m);
    proper_sim_init(&back);
    if (proper_sim_trace_parse(&tr, text, strlen(text), "syn.trace", &e)) printf("  %d:%d: %s\n", e.line, e.col, e.message);
    CHECK_INT(tr.n_threads, 3);
    CHECK_INT(proper_sim_build(&m, &tr, &o, &st, &e), 0);
    if (m.n_pools != 1) { printf("  %s\n", e.message); CHECK_INT(m.n_pools, 1); goto out; }
    CHECK_STR(m.pools[0].name, "worker"); /* the acceptor only records arrivals */
    CHECK_INT(m.pools[0].threads, 2);
    CHECK_INT(m.cores, 2);
    CHECK_INT(st.threads_running, 0);
    CHECK(st.nodes_after < st.nodes_before);
    CHECK(st.cpu_kept > 0.97 && st.cpu_kept < 1);
    /* the 10 ns CF between unlock and the read is merged away: unlock goes
     * straight to the read */
    if ((n = find_node(&m.pools[0], "unlock.m")) != NULL) {
        CHECK_INT(n->n_next, 1);
        if (n->n_next == 1) CHECK_STR(m.pools[0].nodes[n->next[0]].name, "io.f");
    }
    if ((n = find_node(&m.pools[0], "cpu.get.conn.to.lock.m")) != NULL) CHECK_REL(proper_sim_dist_mean(&n->dist), 1e-6, 1e-9);
    if ((n = find_node(&m.pools[0], "io.f")) != NULL) {
        CHECK(n->has_count);
        CHECK_REL(proper_sim_dist_mean(&n->count), 0.5, 1e-12);      /* every other read misses */
        CHECK_REL(proper_sim_dist_mean(&n->dist), 1e-3, 1e-9);       /* the misses' time */
    }
    CHECK_INT(m.n_sources, 1);
    if (m.n_sources == 1) CHECK_REL(proper_sim_dist_mean(&m.sources[0].dist), 1e-5, 1e-9);
    /* the model prints, reads back and runs */
    proper_strbuf_init(&b);
    CHECK_INT(proper_sim_format(&m, &b, &e), 0);
    CHECK_INT(proper_sim_parse(&back, b.data, b.len, "built", &e), 0);
    CHECK(proper_sim_equal(&m, &back));
    proper_strbuf_free(&b);
    {
        proper_sim_result r;
        proper_sim_opts ro = proper_sim_opts_default();
        ro.horizon = 2;
        ro.replications = 2;
        proper_sim_result_init(&r);
        CHECK_INT(proper_sim_run(&m, &ro, &r, &e), 0);
        /* 1e5 arrivals per second against one disk that serves a 1 ms miss
         * for every other request: saturated at about 2000 requests per
         * second (the share of misses among ~8000 completions varies by
         * about 1%, so the bounds are +-5%) */
        if (!(r.throughput.estimate > 1900 && r.throughput.estimate < 2100)) printf("  throughput %g\n", r.throughput.estimate);
        CHECK(r.throughput.estimate > 1900 && r.throughput.estimate < 2100);
        CHECK(r.disk_util.estimate > 0.95);
        proper_sim_result_free(&r);
    }
    /* merging nothing keeps every node but the markers; the threads' exits
     * leave no edge (a simulated worker must not die off), so the model
     * still saturates the disk */
    o.merge = 0;
    CHECK_INT(proper_sim_build(&m, &tr, &o, &st, &e), 0);
    CHECK(find_node(&m.pools[0], "cpu.unlock.m.to.io.f") != NULL);
    {
        proper_sim_result r;
        proper_sim_opts ro = proper_sim_opts_default();
        ro.horizon = 2;
        ro.replications = 2;
        proper_sim_result_init(&r);
        CHECK_INT(proper_sim_run(&m, &ro, &r, &e), 0);
        if (!(r.throughput.estimate > 1900 && r.throughput.estimate < 2100)) printf("  throughput %g\n", r.throughput.estimate);
        CHECK(r.throughput.estimate > 1900 && r.throughput.estimate < 2100);
        proper_sim_result_free(&r);
    }
out:
    proper_sim_free(&m);
    proper_sim_free(&back);
    proper_sim_trace_free(&tr);
    PROPER_FREE(text);
    /* two traced runs of the same program: twice the threads, and the
     * inter-arrival times never span the two runs' clocks */
    text = synthetic_trace(1);
    {
        proper_sim_trace a, b2;
        proper_sim_trace_init(&a);
        proper_sim_trace_init(&b2);
        proper_sim_init(&m);
        CHECK_INT(proper_sim_trace_parse(&a, text, strlen(text), "one", &e), 0);
        CHECK_INT(proper_sim_trace_parse(&b2, text, strlen(text), "two", &e), 0);
        CHECK_INT(proper_sim_trace_append(&a, &b2, &e), 0);
        CHECK_INT(a.n_threads, 6);
        CHECK_INT(proper_sim_build(&m, &a, NULL, &st, &e), 0);
        if (m.n_pools == 1) CHECK_INT(m.pools[0].threads, 4);
        if (m.n_sources == 1) CHECK_REL(proper_sim_dist_mean(&m.sources[0].dist), 1e-5, 1e-9);
        /* declarations that disagree */
        proper_sim_trace_free(&b2);
        proper_sim_trace_init(&b2);
        CHECK_INT(proper_sim_trace_parse(&b2, "proper-threads 1\nqueue conn capacity 3\n", 39, "three", &e), 0);
        CHECK(proper_sim_trace_append(&a, &b2, &e) == PROPER_EINVAL);
        CHECK_INT(a.n_threads, 6); /* unchanged */
        proper_sim_free(&m);
        proper_sim_trace_free(&a);
        proper_sim_trace_free(&b2);
    }
    PROPER_FREE(text);
    /* a thread that never exits is counted, not an error */
    text = synthetic_trace(0);
    proper_sim_trace_init(&tr);
    proper_sim_init(&m);
    CHECK_INT(proper_sim_trace_parse(&tr, text, strlen(text), "syn.trace", &e), 0);
    CHECK_INT(proper_sim_build(&m, &tr, NULL, &st, &e), 0);
    CHECK_INT(st.threads_running, 3);
    proper_sim_free(&m);
    proper_sim_trace_free(&tr);
    PROPER_FREE(text);
}

/* Per-core utilisation: M/M/2 with rho = 0.5 under round robin. The cores
 * are exchangeable (a thread that finds a free core takes the one idle
 * longest), so each is busy half the time; the per-core shares add up to
 * the busy cores in every replication; under processor sharing every core
 * carries the same share. */
static void test_per_core(void) {
    proper_sim_model m;
    proper_sim_result r;
    proper_error e;
    CHECK_INT(parse(&m, "proper-sim 1\ncpu cores 2 quantum 0.004\nqueue q\nsource a open q interarrival exp(1)\n"
                        "pool s threads 4\n  t: get q -> c\n  c: cpu exp(1) -> d\n  d: done -> t\nend\n"), 0);
    CHECK_INT(run(&m, 2000, 20, &r), 0);
    CHECK_INT(r.n_cores, 2);
    if (r.n_cores == 2) {
        check_in("core 0 utilisation", r.core_util[0], 0.5);
        check_in("core 1 utilisation", r.core_util[1], 0.5);
        CHECK_REL(r.core_util[0].estimate + r.core_util[1].estimate, 2 * r.cpu_util.estimate, 1e-9);
    }
    proper_sim_result_free(&r);
    CHECK_INT(proper_sim_set(&m, "quantum=ps", &e), 0);
    CHECK_INT(run(&m, 200, 4, &r), 0);
    if (r.n_cores == 2) {
        CHECK_REL(r.core_util[0].estimate, r.cpu_util.estimate, 1e-9);
        CHECK_REL(r.core_util[1].estimate, r.cpu_util.estimate, 1e-9);
    }
    proper_sim_result_free(&r);
    proper_sim_free(&m);
}

/* Explicit loops against the Pollaczek-Khinchine formula: one server, FIFO,
 * Poisson arrivals lambda = 1, W = E[S] + lambda E[S^2] / (2 (1 - rho)).
 * The service S is a loop over a CPU step of 0.1 s:
 *   loop const(5):                S = 0.5:  E[S^2] = 0.25,  W = 0.75
 *   the same as a PCG cycle (continue 0.8): S = 0.1 N, N geometric on
 *     {1, 2, ...} with mean 5, E[N^2] = 45: E[S^2] = 0.45,  W = 0.95
 *   loop empirical(0:1, 10:1):    S = 0 or 1: E[S^2] = 0.5,  W = 1.0
 *   loops nested, 2 x 3 x 0.05:   S = 0.3:  rho = 0.3, W = 0.3 + 0.09 / 1.4 */
static void loop_case(const char *service, double exact_w) {
    char text[1024];
    proper_sim_model m;
    proper_sim_result r;
    snprintf(text, sizeof text,
             "proper-sim 1\ncpu cores 1 fifo\nqueue q\nsource a open q interarrival exp(1)\n"
             "pool server threads 1\n  take: get q -> s0\n%s  out: done -> take\nend\n", service);
    if (parse(&m, text)) { CHECK(0); return; }
    CHECK_INT(run(&m, 4000, 20, &r), 0);
    check_in("mean response", r.response, exact_w);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
}

static void test_loops(void) {
    loop_case("  s0: loop const(5) do step -> out\n  step: cpu const(0.1) -> s0\n", 0.75);
    loop_case("  s0: cpu const(0.1) -> s0 0.8, out 0.2\n", 0.95);
    loop_case("  s0: loop empirical(0:1, 10:1) do step -> out\n  step: cpu const(0.1) -> s0\n", 1.0);
    loop_case("  s0: loop const(2) do inner -> out\n  inner: loop const(3) do step -> s0\n"
              "  step: cpu const(0.05) -> inner\n", 0.3 + 0.09 / 1.4);
}

/* A trace whose worker reads a file `reads(i)` times per request, with
 * 100 us of CPU before, between and after the reads; each read takes 1 us,
 * all of it CPU (a page-cache hit: the builder counts it as computation, so
 * a request of N reads needs (N + 1) * 100 us + N us); requests arrive
 * every 10 ms. */
static char *loop_trace(int (*reads)(int)) {
    proper_strbuf b;
    long long c = 1000, a = 1000;
    int i, j;
    proper_strbuf_init(&b);
    proper_strbuf_puts(&b, "proper-threads 1\ncores 1\nqueue conn\n0 1000 start acceptor @0\n1 1000 start worker @1000\n");
    for (i = 0; i < 400; i++) {
        a += 10000000;
        proper_strbuf_printf(&b, "0 %lld arrive conn @0\n", a);
        proper_strbuf_printf(&b, "1 %lld get.req conn @%lld\n1 %lld get conn @%lld\n", c, c, c, c);
        for (j = 0; j < reads(i); j++) {
            c += 100000;
            proper_strbuf_printf(&b, "1 %lld io.req f 4096 @%lld\n1 %lld io f 4096 @%lld\n", c, c, c + 1000, c + 1000);
            c += 1000;
        }
        c += 100000;
        proper_strbuf_printf(&b, "1 %lld done @%lld\n", c, c);
    }
    return proper_strbuf_take(&b);
}

static int four_reads(int i) { (void)i; return 4; }
static int one_to_seven_reads(int i) { return 1 + i % 7; }

/* Build from a loop trace (loops made explicit or not) and simulate it at
 * the traced rate: returns the node count of the loop, mean and p95. */
static void build_loop_model(int (*reads)(int), int loops, proper_sim_model *m, proper_sim_result *r) {
    proper_sim_trace tr;
    proper_sim_build_opts o = proper_sim_build_opts_default();
    proper_error e;
    char *text = loop_trace(reads);
    proper_sim_trace_init(&tr);
    proper_sim_init(m);
    proper_sim_result_init(r);
    o.loops = loops;
    o.merge = 0;
    CHECK_INT(proper_sim_trace_parse(&tr, text, strlen(text), "loop.trace", &e), 0);
    CHECK_INT(proper_sim_build(m, &tr, &o, NULL, &e), 0);
    CHECK_INT(run(m, 200, 4, r), 0);
    proper_sim_trace_free(&tr);
    PROPER_FREE(text);
}

static void test_build_loops(void) {
    proper_sim_model m;
    proper_sim_result r;
    const proper_sim_node *n;
    double geo_ratio;
    /* a fixed count: the loop after the read runs its body 3 times (4
     * reads); requests arrive every 10 ms and need 0.504 ms: no queueing,
     * the response time is the service time, constant (p95 = mean) */
    build_loop_model(four_reads, 1, &m, &r);
    if (m.n_pools == 1 && (n = find_node(&m.pools[0], "loop.io.f")) != NULL) {
        CHECK_INT(n->op, PROPER_SIM_OP_LOOP);
        CHECK_INT(n->dist.n, 1);
        CHECK_REL(proper_sim_dist_mean(&n->dist), 3, 1e-12);
        CHECK_STR(m.pools[0].nodes[n->body].name, "cpu.io.f.to.io.f");
        CHECK_STR(m.pools[0].nodes[n->next[0]].name, "cpu.io.f.to.done");
    }
    printf("  fixed count, explicit loop: mean %.6f p95 %.6f\n", r.response.estimate, r.response_q.estimate);
    CHECK_REL(r.response.estimate, 5.04e-4, 1e-6);
    CHECK_REL(r.response_q.estimate, 5.04e-4, 1e-6);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
    /* the same trace as a PCG cycle: the read count is geometric (mean 4),
     * the mean is kept but the p95 is 1.211 ms (N = 11 reads: the 95th
     * percentile of a geometric count with p = 1/4 is ceil(ln 0.05 / ln 0.75)) */
    build_loop_model(four_reads, 0, &m, &r);
    if (m.n_pools == 1) {
        size_t i;
        for (i = 0; i < m.pools[0].n_nodes; i++) CHECK(m.pools[0].nodes[i].op != PROPER_SIM_OP_LOOP);
    }
    geo_ratio = r.response_q.estimate / r.response.estimate;
    printf("  fixed count, PCG cycle:     mean %.6f p95 %.6f\n", r.response.estimate, r.response_q.estimate);
    CHECK_REL(r.response.estimate, 5.04e-4, 0.05);
    CHECK_REL(r.response_q.estimate, 1.211e-3, 1e-6);
    CHECK(geo_ratio > 2);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
    /* a variable count, 1..7 reads in turn: the loop's counts 0..6, each
     * 1/7; the response time is uniform over 0.201 .. 0.807 ms (mean
     * 0.504 ms, p95 the largest value 0.807 ms) */
    build_loop_model(one_to_seven_reads, 1, &m, &r);
    if (m.n_pools == 1 && (n = find_node(&m.pools[0], "loop.io.f")) != NULL) {
        size_t i;
        CHECK_INT(n->dist.n, 7);
        for (i = 0; i < n->dist.n && i < 7; i++) {
            CHECK_REL(n->dist.values[i], (double)i, 1e-12);
            CHECK(fabs(n->dist.weights[i] - (i < 400 % 7 ? 58 : 57)) < 1e-12);
        }
    }
    printf("  counts 0..6, explicit loop: mean %.6f p95 %.6f\n", r.response.estimate, r.response_q.estimate);
    CHECK_REL(r.response.estimate, 5.04e-4, 0.02);
    CHECK_REL(r.response_q.estimate, 8.07e-4, 1e-6);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
}

/* A trace of two workers around a lock (op "lock": mutex m; op "wait":
 * semaphore s of 1 permit) requested with a 0.3 s timeout: worker 2's
 * request times out on every other task (then it computes 1 ms and is
 * done without the lock). */
static char *timeout_trace(const char *op) {
    proper_strbuf b;
    long long t = 1000;
    int i, w;
    int is_lock = strcmp(op, "lock") == 0;
    proper_strbuf_init(&b);
    proper_strbuf_printf(&b, "proper-threads 1\nqueue conn\n%s\n0 0 start acceptor\n1 0 start worker\n2 0 start worker\n",
                         is_lock ? "lock m mutex" : "lock s semaphore 1");
    for (i = 0; i < 40; i++) {
        const char *obj = is_lock ? "m" : "s";
        proper_strbuf_printf(&b, "0 %lld arrive conn\n0 %lld arrive conn\n", t, t + 1);
        for (w = 1; w <= 2; w++) {
            long long x = t + 10 * w;
            proper_strbuf_printf(&b, "%d %lld get.req conn\n%d %lld get conn\n", w, x, w, x + 1);
            proper_strbuf_printf(&b, "%d %lld %s.req %s 300000000\n", w, x + 1000, op, obj);
            if (w == 2 && i % 2) {
                proper_strbuf_printf(&b, "%d %lld %s.timeout %s\n", w, x + 300001000, op, obj);
                proper_strbuf_printf(&b, "%d %lld done\n", w, x + 301001000);
            } else {
                proper_strbuf_printf(&b, "%d %lld %s %s\n", w, x + 2000, op, obj);
                proper_strbuf_printf(&b, "%d %lld %s %s\n", w, x + 1002000, is_lock ? "unlock" : "post", obj);
                proper_strbuf_printf(&b, "%d %lld done\n", w, x + 1003000);
            }
        }
        t += 400000000;
    }
    return proper_strbuf_take(&b);
}

/* The builder derives lock and semaphore timeouts as it does a get's: the
 * largest timeout requested becomes the node's, and the path after a
 * timeout starts at a "timeout" node. */
static void test_build_lock_timeouts(void) {
    static const char *const ops[] = {"lock", "wait"};
    size_t k;
    for (k = 0; k < 2; k++) {
        proper_sim_trace tr;
        proper_sim_model m;
        proper_error e;
        const proper_sim_node *n;
        char *text = timeout_trace(ops[k]);
        char node[32], after[32];
        proper_sim_trace_init(&tr);
        proper_sim_init(&m);
        snprintf(node, sizeof node, "%s.%s", ops[k], k == 0 ? "m" : "s");
        snprintf(after, sizeof after, "timeout.%s.%s", ops[k], k == 0 ? "m" : "s");
        if (proper_sim_trace_parse(&tr, text, strlen(text), "timeout.trace", &e)) printf("  %d: %s\n", e.line, e.message);
        CHECK_INT(proper_sim_build(&m, &tr, NULL, NULL, &e), 0);
        if (m.n_pools == 1 && (n = find_node(&m.pools[0], node)) != NULL) {
            CHECK_REL(n->timeout, 0.3, 1e-12);
            CHECK(n->on_timeout < m.pools[0].n_nodes && strcmp(m.pools[0].nodes[n->on_timeout].name, after) == 0);
        }
        {
            proper_sim_result r;
            CHECK_INT(run(&m, 100, 2, &r), 0);
            CHECK(r.throughput.estimate > 0);
            proper_sim_result_free(&r);
        }
        proper_sim_free(&m);
        proper_sim_trace_free(&tr);
        PROPER_FREE(text);
    }
}

static void bad_trace(const char *body, int line, const char *needle) {
    proper_sim_trace tr;
    proper_error e;
    char text[2048];
    int rc;
    snprintf(text, sizeof text, "proper-threads 1\n%s", body);
    proper_sim_trace_init(&tr);
    memset(&e, 0, sizeof e);
    rc = proper_sim_trace_parse(&tr, text, strlen(text), "bad.trace", &e);
    CHECK(rc != 0);
    if (e.line != line || !strstr(e.message, needle))
        printf("  got %d:%d: %s (wanted line %d, '%s')\n", e.line, e.col, e.message, line, needle);
    CHECK_INT(e.line, line);
    CHECK(strstr(e.message, needle) != NULL);
    CHECK_INT(tr.n_ev, 0);
    proper_sim_trace_free(&tr);
}

static void test_bad_traces(void) {
    bad_trace("1 10 get.req q\n", 2, "first event must be 'start");
    bad_trace("1 10 start w\n1 20 end cf\n", 3, "end cf without its begin");
    bad_trace("1 10 start w\n1 20 begin a\n1 30 begin b\n1 40 end a\n", 5, "end a without its begin");
    bad_trace("1 10 start w\n1 20 unlock m\n", 3, "not a mutex");
    bad_trace("1 10 start w\n1 15 lock.req m\n1 16 lock m\n1 17 unlock m\n1 18 unlock m\n", 6, "does not hold");
    bad_trace("1 10 start w\n1 9 done\n", 3, "time goes backwards");
    bad_trace("1 10 start w\n1 -9 done\n", 3, "negative time");
    bad_trace("1 10 start w\n1 20 lock m\n", 3, "without its request");
    bad_trace("1 10 start w\n1 20 lock.req m\n1 30 done\n", 4, "expected 'lock m'");
    bad_trace("1 10 start w\n1 20 get.req q\n1 30 get.timeout q\n", 4, "without a timeout");
    bad_trace("1 10 start w\n1 20 lock.req m\n1 30 lock.timeout m\n", 4, "lock.timeout without a timeout on its lock.req");
    bad_trace("lock s semaphore 1\n1 10 start w\n1 20 wait.req s 5\n1 30 get.timeout s\n", 5, "expected 'wait s'");
    bad_trace("1 10 start w\n1 20 lock.timeout m\n", 3, "without its request");
    bad_trace("queue q\n1 10 start w\n1 20 lock.req q\n", 4, "is a queue");
    bad_trace("1 10 start w\n1 20 exit\n1 30 done\n", 4, "after its exit");
    bad_trace("1 10 start w\n1 20 io.req f\n", 3, "needs a number");
    bad_trace("1 10 start w\n1 20 frob\n", 3, "expected an event");
    bad_trace("lock b barrier pool w\n", 2, "as a number");
    bad_trace("latency -5\n", 2, "latency must be");
    bad_trace("overhead 2000000\n", 2, "overhead must be");
    bad_trace("overhead 5 -1\n", 2, "overhead must be");
    bad_trace("overhead 5 6 7\n", 2, "end of the line");
    bad_trace("latency 2000000000000\n", 2, "latency must be");
    bad_trace("1 10 start w\n1 20 io.req f 10\n1 30 io f 10 -1\n", 4, "negative block count");
    bad_trace("1 10 start w\n1 20 io.req f 10\n1 30 io f 10 3 4\n", 4, "expected the end of the line");
}

/* The latency of a source is added to every response time and to nothing
 * else: the same seed with and without it gives response times exactly
 * 0.25 s apart and the same throughput (it draws no random number); the
 * M/M/1 values plus 0.25 s lie in the intervals. */
static void test_latency(void) {
    proper_sim_model m, n;
    proper_sim_result r, q;
    proper_error e;
    CHECK_INT(parse(&m, mm1_text), 0);
    proper_sim_init(&n);
    CHECK_INT(proper_sim_copy(&n, &m, &e), 0);
    n.sources[0].latency = 0.25;
    CHECK_INT(proper_sim_validate(&n, &e), 0);
    CHECK_INT(run(&m, 4000, 20, &r), 0); /* test_mm1's runs */
    CHECK_INT(run(&n, 4000, 20, &q), 0);
    CHECK_REL(q.response.estimate - r.response.estimate, 0.25, 1e-9);
    CHECK_REL(q.response_q.estimate - r.response_q.estimate, 0.25, 1e-9);
    CHECK(q.throughput.estimate == r.throughput.estimate);
    check_in("mean response", q.response, 2.25);
    check_in("p95 response", q.response_q, log(20.0) / 0.5 + 0.25);
    n.sources[0].latency = -1;
    CHECK(proper_sim_validate(&n, &e) != 0);
    proper_sim_result_free(&r);
    proper_sim_result_free(&q);
    proper_sim_free(&m);
    proper_sim_free(&n);
}

/* The wake-up latency delays a thread that waited for a task another
 * thread put, not one that finds it queued: a dispatcher passes each
 * arrival on at once (its get is woken by the source: no latency), the
 * server's service is 0.1 s. Arrivals every second find it waiting:
 * response 0.1 + 0.05 s. Arrivals every 0.1 s: the first wakes it, every
 * later one is queued when it finishes (it finishes at 0.15 + 0.1 k, the
 * k-th arrives at 0.1 k), so it keeps up with 10/s; a latency on every
 * task would cap it at 1 / 0.15 = 6.67/s. */
static void test_wakeup(void) {
    static const char *text =
        "proper-sim 1\ncpu cores 1 fifo wakeup 0.05\nqueue in\nqueue q\nsource s open in interarrival const(%s)\n"
        "pool dispatcher threads 1\n  take: get in -> pass\n  pass: put q -> take\nend\n"
        "pool server threads 1\n  take: get q -> serve\n  serve: cpu const(0.1) -> out\n  out: done -> take\nend\n";
    char buf[512];
    proper_sim_model m;
    proper_sim_result r;
    snprintf(buf, sizeof buf, text, "1");
    CHECK_INT(parse(&m, buf), 0);
    CHECK_INT(run(&m, 100, 2, &r), 0);
    CHECK_REL(r.response.estimate, 0.15, 1e-9);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
    snprintf(buf, sizeof buf, text, "0.1");
    CHECK_INT(parse(&m, buf), 0);
    CHECK_INT(run(&m, 100, 2, &r), 0);
    CHECK_REL(r.throughput.estimate, 10, 0.02);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
}

/* A thread keeps its core from one CPU fragment to the next (as an OS runs
 * a thread until it waits or its slice ends): two tasks arrive together
 * every 10 s at two workers on one core, each task two fragments of 1 s.
 * Run to completion: one task is done after 2 s, the other after 4 s (mean
 * 3 s); were the core handed over between fragments, 3 s and 4 s. */
static void test_core_kept(void) {
    proper_sim_model m;
    proper_sim_result r;
    CHECK_INT(parse(&m, "proper-sim 1\ncpu cores 1 fifo\nqueue q\n"
                        "source a open q interarrival const(10)\nsource b open q interarrival const(10)\n"
                        "pool worker threads 2\n  take: get q -> one\n  one: cpu const(1) -> two\n"
                        "  two: cpu const(1) -> out\n  out: done -> take\nend\n"), 0);
    CHECK_INT(run(&m, 1000, 2, &r), 0);
    CHECK_REL(r.response.estimate, 3, 1e-9);
    CHECK_REL(r.throughput.estimate, 0.2, 0.02);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
}

/* The wake-up latency is read off hand-offs through queues that only
 * threads feed: queue r's put at 1000 ns reaches its waiting getter at
 * 1010 (10 ns); queue q's put at 3000 reaches its getter at 3100, but q
 * also takes arrivals (recorded when a thread of the program has them), so
 * it is left out: the model's wakeup is 10 ns (55 ns with q counted). */
static void test_build_wakeup(void) {
    static const char *text =
        "proper-threads 1\nqueue q\nqueue r\n"
        "0 100 start network\n1 100 start producer\n2 100 start consumer\n3 100 start relay\n"
        "2 500 get.req r\n1 1000 put r\n2 1010 get r\n2 1020 done\n"
        "0 2000 arrive q\n3 2800 get.req q\n1 3000 put q\n3 3100 get q\n3 3200 done\n";
    proper_sim_trace tr;
    proper_sim_model m;
    proper_error e;
    proper_sim_trace_init(&tr);
    proper_sim_init(&m);
    CHECK_INT(proper_sim_trace_parse(&tr, text, strlen(text), "wake.trace", &e), 0);
    CHECK_INT(proper_sim_build(&m, &tr, NULL, NULL, &e), 0);
    CHECK_REL(m.wakeup, 10e-9, 1e-9);
    proper_sim_free(&m);
    proper_sim_trace_free(&tr);
}

/* A server traced the way examples/webserver/server.c is: a pseudo-thread
 * of pool "network" records the arrivals (accept returns), the acceptor
 * takes each from the backlog (5 us of CPU inside the wait, not counted:
 * blocking's own cost, 15 us after) and puts it in conn; the worker takes
 * it (2 us of CPU inside the wait, not counted either), computes 100 us, reads a file once, computes 50 us and is done. Every
 * fourth read misses the page cache (8 blocks from the device: 1 ms of
 * wall time of which 10 us CPU), the others hit but take 80 us of wall time
 * (3 us CPU) -- a duration rule would call them misses. The trace declares
 * a latency of 300 us. One request every 10 ms: no queueing, so the mean
 * response time is 300 + 15 + 5 + 150 + 3/4 * 3 + 1/4 * (10 + 990) us,
 * where 5 us is the wake-up latency: the worker, waiting, takes each
 * connection 5 us after the acceptor's put. */
static char *acceptor_trace(int blocks, const char *extra) {
    proper_strbuf b;
    long long a = 10000000, ca = 0, cw = 0;
    int i;
    proper_strbuf_init(&b);
    proper_strbuf_puts(&b, "proper-threads 1\ncores 1\nqueue backlog\nqueue conn\nlatency 300000\n");
    proper_strbuf_puts(&b, extra);
    proper_strbuf_puts(&b, "0 1000 start network @0\n1 1000 start acceptor @0\n2 1000 start worker @0\n");
    for (i = 0; i < 400; i++, a += 10000000) {
        int miss = i % 4 == 0;
        long long t = a + 25000;
        proper_strbuf_printf(&b, "0 %lld arrive backlog @0\n", a);
        proper_strbuf_printf(&b, "1 %lld get.req backlog @%lld\n1 %lld get backlog @%lld\n", a - 5000000, ca, a, ca + 5000);
        proper_strbuf_printf(&b, "1 %lld put conn @%lld\n", a + 20000, ca + 20000);
        ca += 20000;
        proper_strbuf_printf(&b, "2 %lld get.req conn @%lld\n2 %lld get conn @%lld\n", a - 4000000, cw, t, cw + 2000);
        t += 100000;
        cw += 102000;
        proper_strbuf_printf(&b, "2 %lld io.req f 4096 @%lld\n", t, cw);
        t += miss ? 1000000 : 80000;
        cw += miss ? 10000 : 3000;
        if (blocks) proper_strbuf_printf(&b, "2 %lld io f 4096 %d @%lld\n", t, miss ? 8 : 0, cw);
        else proper_strbuf_printf(&b, "2 %lld io f 4096 @%lld\n", t, cw);
        t += 50000;
        cw += 50000;
        proper_strbuf_printf(&b, "2 %lld done @%lld\n", t, cw);
    }
    return proper_strbuf_take(&b);
}

static void test_build_acceptor(void) {
    proper_sim_trace tr;
    proper_sim_model m;
    proper_sim_result r;
    proper_sim_build_opts o = proper_sim_build_opts_default();
    proper_error e;
    const proper_sim_node *n;
    char *text = acceptor_trace(1, "");
    double exact = (300 + 15 + 5 + 150 + 0.75 * 3 + 0.25 * (10 + 990)) * 1e-6;
    o.merge = 0;
    proper_sim_trace_init(&tr);
    proper_sim_init(&m);
    if (proper_sim_trace_parse(&tr, text, strlen(text), "acc.trace", &e)) printf("  %d:%d: %s\n", e.line, e.col, e.message);
    CHECK_INT(tr.latency, 300000);
    CHECK_INT(proper_sim_build(&m, &tr, &o, NULL, &e), 0);
    CHECK_INT(m.n_pools, 2); /* acceptor and worker; the network pool is the workload */
    CHECK_INT(m.n_sources, 1);
    if (m.n_pools != 2 || m.n_sources != 1) goto out;
    CHECK_STR(m.pools[0].name, "acceptor");
    CHECK_REL(m.sources[0].latency, 3e-4, 1e-12);
    CHECK_REL(m.wakeup, 5e-6, 1e-9);
    if ((n = find_node(&m.pools[0], "cpu.get.backlog.to.put.conn")) != NULL)
        CHECK_REL(proper_sim_dist_mean(&n->dist), 15e-6, 1e-9); /* not the 5 us inside the wait */
    if ((n = find_node(&m.pools[1], "cpu.get.conn.to.io.f")) != NULL)
        CHECK_REL(proper_sim_dist_mean(&n->dist), 100e-6, 1e-9);
    CHECK((n = find_node(&m.pools[1], "io.f")) != NULL);
    if (n) {
        CHECK_REL(proper_sim_dist_mean(&n->count), 0.25, 1e-12); /* 100 misses of 400 */
        CHECK_REL(proper_sim_dist_mean(&n->dist), 990e-6, 1e-9);   /* wall less CPU */
    }
    CHECK_INT(proper_sim_set(&m, "workers=3", &e), 0);
    CHECK_INT(m.pools[0].threads, 1);
    CHECK_INT(m.pools[1].threads, 3);
    CHECK_INT(run(&m, 200, 20, &r), 0);
    check_in("mean response", r.response, exact);
    proper_sim_result_free(&r);
    proper_sim_free(&m);
    proper_sim_trace_free(&tr);
    PROPER_FREE(text);
    /* without block counts the 80 us hits are misses by their duration */
    text = acceptor_trace(0, "");
    proper_sim_trace_init(&tr);
    proper_sim_init(&m);
    CHECK_INT(proper_sim_trace_parse(&tr, text, strlen(text), "acc.trace", &e), 0);
    CHECK_INT(proper_sim_build(&m, &tr, &o, NULL, &e), 0);
    if (m.n_pools == 2 && (n = find_node(&m.pools[1], "io.f")) != NULL) CHECK_REL(proper_sim_dist_mean(&n->count), 1, 1e-12);
    proper_sim_free(&m);
    proper_sim_trace_free(&tr);
    PROPER_FREE(text);
    /* the recorder's own cost, 1 us per event and 0.5 us per block count,
     * comes off each CF: one event between get and io.req (1 us), two gaps
     * from io.req over io to done, each after a block count (3 us), one
     * between the acceptor's get and put (1 us) */
    text = acceptor_trace(1, "overhead 1000 500\n");
    proper_sim_trace_init(&tr);
    proper_sim_init(&m);
    CHECK_INT(proper_sim_trace_parse(&tr, text, strlen(text), "acc.trace", &e), 0);
    CHECK_INT(tr.overhead, 1000);
    CHECK_INT(tr.overhead_io, 500);
    CHECK_INT(proper_sim_build(&m, &tr, &o, NULL, &e), 0);
    if (m.n_pools == 2) {
        if ((n = find_node(&m.pools[1], "cpu.get.conn.to.io.f")) != NULL) CHECK_REL(proper_sim_dist_mean(&n->dist), 99e-6, 1e-9);
        if ((n = find_node(&m.pools[1], "cpu.io.f.to.done")) != NULL)
            CHECK_REL(proper_sim_dist_mean(&n->dist), (50 + 0.75 * 3 + 0.25 * 10 - 3) * 1e-6, 1e-9);
        if ((n = find_node(&m.pools[0], "cpu.get.backlog.to.put.conn")) != NULL) CHECK_REL(proper_sim_dist_mean(&n->dist), 14e-6, 1e-9);
    }
out:
    proper_sim_free(&m);
    proper_sim_trace_free(&tr);
    PROPER_FREE(text);
}

/* The recorder writes what the reader reads. */
static void test_recorder(void) {
    proper_sim_writer *w;
    proper_sim_recorder r;
    proper_sim_trace tr;
    proper_error e;
    FILE *f = tmpfile();
    char *text;
    long n;
    int pool, q, l, i;
    CHECK(f != NULL);
    if (!f) return;
    CHECK_INT(proper_sim_writer_open(&w, f, PROPER_SIM_REC_CPU | PROPER_SIM_REC_IO_BLOCKS, &e), 0);
    pool = proper_sim_writer_name(w, "worker", &e);
    q = proper_sim_writer_name(w, "jobs", &e);
    l = proper_sim_writer_name(w, "m", &e);
    CHECK(pool >= 0 && q >= 0 && l >= 0);
    CHECK(proper_sim_writer_name(w, "bad name", &e) < 0);
    CHECK_INT(proper_sim_writer_declare(w, "lock m mutex", &e), 0);
    CHECK_INT(proper_sim_recorder_init(&r, w, pool, &e), 0);
    for (i = 0; i < 5000; i++) { /* more than one buffer */
        proper_sim_record(&r, PROPER_SIM_TEV_PUT, q, -1, -1);
        proper_sim_record(&r, PROPER_SIM_TEV_LOCK_REQ, l, -1, -1);
        proper_sim_record(&r, PROPER_SIM_TEV_LOCK, l, -1, -1);
        proper_sim_record(&r, PROPER_SIM_TEV_UNLOCK, l, -1, -1);
        proper_sim_record(&r, PROPER_SIM_TEV_DONE, -1, -1, -1);
    }
    /* an io operation carries its block count (Linux: ru_inblock) */
    proper_sim_record(&r, PROPER_SIM_TEV_IO_REQ, q, -1, 16);
    proper_sim_record(&r, PROPER_SIM_TEV_IO, q, -1, 16);
    CHECK_INT(proper_sim_recorder_free(&r, &e), 0);
    CHECK_INT(proper_sim_writer_close(w, &e), 0);
    n = ftell(f);
    rewind(f);
    text = (char *)malloc((size_t)n + 1);
    CHECK(fread(text, 1, (size_t)n, f) == (size_t)n);
    text[n] = '\0';
    fclose(f);
    proper_sim_trace_init(&tr);
    CHECK_INT(proper_sim_trace_parse(&tr, text, (size_t)n, "rec", &e), 0);
    CHECK_INT(tr.n_ev, 25004);
    CHECK(tr.n_ev > 0 && tr.ev[1].cpu >= 0); /* the CPU clock was recorded */
    if (tr.n_ev == 25004) {
        CHECK_INT(tr.ev[25002].kind, PROPER_SIM_TEV_IO);
        CHECK_INT(tr.ev[25002].arg, 16);
#ifdef __linux__
        CHECK(tr.ev[25002].blocks >= 0);
#endif
        CHECK_INT(tr.ev[25000].blocks, -1); /* only io completions carry one */
    }
    proper_sim_trace_free(&tr);
    free(text);
}

int main(void) {
    RUN(test_mm1);
    RUN(test_mmc);
    RUN(test_md1);
    RUN(test_closed_vs_mva);
    RUN(test_locks);
    RUN(test_page_cache_and_disk);
    RUN(test_deterministic_for_seed);
    RUN(test_round_trip);
    RUN(test_parse_errors);
    RUN(test_run_errors);
    RUN(test_build_from_trace);
    RUN(test_per_core);
    RUN(test_loops);
    RUN(test_build_loops);
    RUN(test_build_lock_timeouts);
    RUN(test_bad_traces);
    RUN(test_recorder);
    RUN(test_latency);
    RUN(test_wakeup);
    RUN(test_core_kept);
    RUN(test_build_acceptor);
    RUN(test_build_wakeup);
    return test_summary();
}
