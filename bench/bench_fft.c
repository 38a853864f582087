/* bench_fft.c — linear convolution of two length-N PMFs: our FFT path, direct
 * summation, and FFTW3's r2c/c2r (FFTW_ESTIMATE) when available; plus loops
 * over a 4096-bin body and the direct/FFT crossover of proper_pmf_convolve.
 *
 * Every figure is the best of several timed batches (bench/bench.h's
 * bench_run) of CPU time of this thread (BENCH_CPU: the development machine
 * is shared by several busy processes, which makes wall-clock figures swing
 * by 2-3x), in nanoseconds per convolution. Columns:
 *   ours(kernel)  prebuilt plan and buffers: 2 forward + multiply + inverse,
 *                 the same work as the FFTW column;
 *   ours(call)    proper_pmf_convolve_fft, including plan creation,
 *                 allocation, clamping and renormalisation;
 *   fftw          prebuilt FFTW_ESTIMATE plans: 2 r2c + multiply + c2r;
 *   fftw(call)    the same with the plans and buffers made and destroyed in
 *                 every call, the counterpart of ours(call);
 *   direct        proper_pmf_convolve_direct (only while it takes < ~1 s).
 */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/pmf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_FFTW3
#include <fftw3.h>
#endif

static void random_pmf(proper_pmf *x, proper_rng *rng, size_t n) {
    double s = 0.0;
    size_t i;
    proper_pmf_free(x);
    x->p = (double *)proper_calloc(n, sizeof(double));
    x->n = n;
    x->width = 1.0;
    for (i = 0; i < n; i++) s += (x->p[i] = proper_rng_uniform(rng));
    for (i = 0; i < n; i++) x->p[i] /= s;
}

/* The benchmarked operations, each run `reps` times per batch. */
typedef struct fft_ctx {
    proper_pmf a, b, c;
    size_t n, n_fft;
    proper_fft_plan plan;
    double *x, *sa, *sb;
#ifdef HAVE_FFTW3
    double *fx;
    fftw_complex *fa, *fb;
    fftw_plan r2c, c2r;
#endif
} fft_ctx;

static void run_kernel(void *p) {
    fft_ctx *k = (fft_ctx *)p;
    size_t h = k->n_fft / 2 + 1;
    memcpy(k->x, k->a.p, k->n * sizeof(double));
    memset(k->x + k->n, 0, (k->n_fft - k->n) * sizeof(double));
    proper_fft_forward_unordered(&k->plan, k->x, k->sa);
    memcpy(k->x, k->b.p, k->n * sizeof(double));
    memset(k->x + k->n, 0, (k->n_fft - k->n) * sizeof(double));
    proper_fft_forward_unordered(&k->plan, k->x, k->sb);
    proper_fft_multiply(&k->plan, k->sa, k->sb, k->sa);
    proper_fft_inverse_unordered(&k->plan, k->sa, k->x);
    (void)h;
}

static void run_call(void *p) {
    fft_ctx *k = (fft_ctx *)p;
    proper_pmf_convolve_fft(&k->c, &k->a, &k->b, NULL);
}
static void run_direct(void *p) {
    fft_ctx *k = (fft_ctx *)p;
    proper_pmf_convolve_direct(&k->c, &k->a, &k->b, NULL);
}

#ifdef HAVE_FFTW3
static void run_fftw_call(void *p) {
    fft_ctx *k = (fft_ctx *)p;
    size_t h = k->n_fft / 2 + 1, i;
    double scale = 1.0 / (double)k->n_fft, *x = fftw_alloc_real(k->n_fft), *out;
    fftw_complex *fa = fftw_alloc_complex(h), *fb = fftw_alloc_complex(h);
    fftw_plan r2c = fftw_plan_dft_r2c_1d((int)k->n_fft, x, fa, FFTW_ESTIMATE);
    fftw_plan c2r = fftw_plan_dft_c2r_1d((int)k->n_fft, fa, x, FFTW_ESTIMATE);
    memcpy(x, k->a.p, k->n * sizeof(double));
    memset(x + k->n, 0, (k->n_fft - k->n) * sizeof(double));
    fftw_execute_dft_r2c(r2c, x, fa);
    memcpy(x, k->b.p, k->n * sizeof(double));
    memset(x + k->n, 0, (k->n_fft - k->n) * sizeof(double));
    fftw_execute_dft_r2c(r2c, x, fb);
    for (i = 0; i < h; i++) {
        double re = fa[i][0] * fb[i][0] - fa[i][1] * fb[i][1];
        double im = fa[i][0] * fb[i][1] + fa[i][1] * fb[i][0];
        fa[i][0] = re * scale;
        fa[i][1] = im * scale;
    }
    fftw_execute_dft_c2r(c2r, fa, x);
    out = (double *)malloc((2 * k->n - 1) * sizeof(double));
    if (out) memcpy(out, x, (2 * k->n - 1) * sizeof(double));
    free(out);
    fftw_destroy_plan(r2c);
    fftw_destroy_plan(c2r);
    fftw_free(x);
    fftw_free(fa);
    fftw_free(fb);
}

static void run_fftw(void *p) {
    fft_ctx *k = (fft_ctx *)p;
    size_t h = k->n_fft / 2 + 1, i;
    double scale = 1.0 / (double)k->n_fft;
    memcpy(k->fx, k->a.p, k->n * sizeof(double));
    memset(k->fx + k->n, 0, (k->n_fft - k->n) * sizeof(double));
    fftw_execute_dft_r2c(k->r2c, k->fx, k->fa);
    memcpy(k->fx, k->b.p, k->n * sizeof(double));
    memset(k->fx + k->n, 0, (k->n_fft - k->n) * sizeof(double));
    fftw_execute_dft_r2c(k->r2c, k->fx, k->fb);
    for (i = 0; i < h; i++) {
        double re = k->fa[i][0] * k->fb[i][0] - k->fa[i][1] * k->fb[i][1];
        double im = k->fa[i][0] * k->fb[i][1] + k->fa[i][1] * k->fb[i][0];
        k->fa[i][0] = re * scale;
        k->fa[i][1] = im * scale;
    }
    fftw_execute_dft_c2r(k->c2r, k->fa, k->fx);
}
#endif

/* Best time per call in ns, on this thread's CPU clock, of `batches`
 * batches of ~budget_ns each. */
static double time_op(bench_fn op, fft_ctx *k, double budget_ns, int batches) {
    return 1e9 * bench_run(op, k, BENCH_CPU, batches, 1e-9 * budget_ns).best;
}

static void ctx_init(fft_ctx *k, proper_rng *rng, size_t n) {
    memset(k, 0, sizeof *k);
    proper_pmf_init(&k->a);
    proper_pmf_init(&k->b);
    proper_pmf_init(&k->c);
    random_pmf(&k->a, rng, n);
    random_pmf(&k->b, rng, n);
    k->n = n;
    k->n_fft = proper_fft_next_pow2(2 * n - 1);
    if (k->n_fft < 2) k->n_fft = 2;
    proper_fft_plan_init(&k->plan);
    proper_fft_plan_create(&k->plan, k->n_fft, NULL);
    k->x = (double *)proper_calloc(k->n_fft, sizeof(double));
    k->sa = (double *)proper_calloc(k->n_fft + 2, sizeof(double));
    k->sb = (double *)proper_calloc(k->n_fft + 2, sizeof(double));
#ifdef HAVE_FFTW3
    k->fx = fftw_alloc_real(k->n_fft);
    k->fa = fftw_alloc_complex(k->n_fft / 2 + 1);
    k->fb = fftw_alloc_complex(k->n_fft / 2 + 1);
    k->r2c = fftw_plan_dft_r2c_1d((int)k->n_fft, k->fx, k->fa, FFTW_ESTIMATE);
    k->c2r = fftw_plan_dft_c2r_1d((int)k->n_fft, k->fa, k->fx, FFTW_ESTIMATE);
#endif
}

static void ctx_free(fft_ctx *k) {
    proper_pmf_free(&k->a);
    proper_pmf_free(&k->b);
    proper_pmf_free(&k->c);
    proper_fft_plan_free(&k->plan);
    PROPER_FREE(k->x);
    PROPER_FREE(k->sa);
    PROPER_FREE(k->sb);
#ifdef HAVE_FFTW3
    fftw_destroy_plan(k->r2c);
    fftw_destroy_plan(k->c2r);
    fftw_free(k->fx);
    fftw_free(k->fa);
    fftw_free(k->fb);
#endif
}

static void convolution_table(proper_rng *rng) {
    int lg;
    printf("linear convolution of two length-N PMFs (transform 2N), ns per convolution\n");
    printf("%8s %13s %13s %13s %13s %13s %11s %11s %11s\n", "N", "ours(kernel)", "ours(call)", "fftw", "fftw(call)",
           "direct", "kernel/fftw", "call/call", "direct/call");
    for (lg = 10; lg <= 20; lg++) {
        fft_ctx k;
        size_t n = (size_t)1 << lg;
        double t_kernel, t_call, t_fftw = 0.0, t_fftw_call = 0.0, t_direct = 0.0;
        ctx_init(&k, rng, n);
        t_kernel = time_op(run_kernel, &k, 3e7, 9);
        t_call = time_op(run_call, &k, 3e7, 9);
#ifdef HAVE_FFTW3
        t_fftw = time_op(run_fftw, &k, 3e7, 9);
        t_fftw_call = time_op(run_fftw_call, &k, 3e7, 9);
#endif
        if (lg <= 16) t_direct = time_op(run_direct, &k, 1e8, lg <= 14 ? 3 : 1);
        printf("%8zu %13.0f %13.0f ", n, t_kernel, t_call);
        if (t_fftw > 0.0) printf("%13.0f %13.0f ", t_fftw, t_fftw_call);
        else printf("%13s %13s ", "n/a", "n/a");
        if (t_direct > 0.0) printf("%13.0f ", t_direct);
        else printf("%13s ", "-");
        if (t_fftw > 0.0) printf("%11.2f %11.2f ", t_kernel / t_fftw, t_call / t_fftw_call);
        else printf("%11s %11s ", "n/a", "n/a");
        if (t_direct > 0.0) printf("%11.1f\n", t_direct / t_call);
        else printf("%11s\n", "-");
        fflush(stdout);
        ctx_free(&k);
    }
}

/* Crossover of proper_pmf_convolve: equal lengths n, direct vs FFT call. */
static void crossover_table(proper_rng *rng) {
    size_t n;
    printf("\ndirect vs FFT for two length-n PMFs (ns); proper_pmf_convolve uses FFT when na*nb > %.2f*N*log2(N)\n",
           PROPER_PMF_FFT_COST);
    printf("%8s %12s %12s %10s %8s\n", "n", "direct", "fft(call)", "direct/fft", "chooses");
    for (n = 16; n <= 2048; n *= 2) {
        size_t sizes[2], t;
        sizes[0] = n;
        sizes[1] = n + n / 2;
        for (t = 0; t < 2; t++) {
            fft_ctx k;
            double td, tf;
            size_t m = sizes[t], N = proper_fft_next_pow2(2 * m - 1), lg = 0, q;
            memset(&k, 0, sizeof k);
            proper_pmf_init(&k.a);
            proper_pmf_init(&k.b);
            proper_pmf_init(&k.c);
            random_pmf(&k.a, rng, m);
            random_pmf(&k.b, rng, m);
            td = time_op(run_direct, &k, 2e7, 5);
            tf = time_op(run_call, &k, 2e7, 5);
            for (q = N; q > 1; q >>= 1) lg++;
            printf("%8zu %12.0f %12.0f %10.2f %8s\n", m, td, tf, td / tf,
                   (double)m * (double)m > PROPER_PMF_FFT_COST * (double)N * (double)lg ? "fft" : "direct");
            proper_pmf_free(&k.a);
            proper_pmf_free(&k.b);
            proper_pmf_free(&k.c);
        }
    }
}

static proper_pmf loop_body, loop_out;
static double loop_iters[101];
static void run_loop(void *p) { (void)p; proper_pmf_loop(&loop_out, &loop_body, loop_iters, 101, NULL); }
static void run_fixed(void *p) { (void)p; proper_pmf_power(&loop_out, &loop_body, 100, NULL); }
static void run_markov(void *p) { (void)p; proper_pmf_markov_loop(&loop_out, &loop_body, 0.99, 1e-12, NULL); }

/* Baseline: 100 sequential FFT convolutions (what one convolution per
 * iteration would cost), i.e. X^{*i} for i = 1..100 by repeated convolution. */
static void run_naive_loop(void *p) {
    int i;
    (void)p;
    proper_pmf_copy(&loop_out, &loop_body, NULL);
    for (i = 1; i < 100; i++) proper_pmf_convolve(&loop_out, &loop_out, &loop_body, NULL);
}

static void loop_table(proper_rng *rng) {
    bench_result loop, fixed, markov, naive;
    char label[64];
    int i;
    proper_pmf_init(&loop_body);
    proper_pmf_init(&loop_out);
    random_pmf(&loop_body, rng, 4096);
    for (i = 0; i <= 100; i++) loop_iters[i] = 1.0 / 101.0;
    loop = bench_run(run_loop, NULL, BENCH_CPU, 7, 0.1);
    fixed = bench_run(run_fixed, NULL, BENCH_CPU, 7, 0.1);
    markov = bench_run(run_markov, NULL, BENCH_CPU, 3, 0.2);
    snprintf(label, sizeof label, "Markov p=0.99 (%zu bins)", loop_out.n);
    naive = bench_run(run_naive_loop, NULL, BENCH_CPU, 1, 1.0);
    printf("\nloops over a 4096-bin body, CPU time per call (target: 100 iterations < 5 ms);\n"
           "baseline: 99 sequential convolutions\n");
    bench_print(stdout, "baseline: 99 convolutions", &naive, NULL);
    bench_print(stdout, "loop, count uniform on 0..100", &loop, &naive);
    bench_print(stdout, "exactly 100 iterations (power)", &fixed, &naive);
    bench_print(stdout, label, &markov, &naive);
    proper_pmf_free(&loop_body);
    proper_pmf_free(&loop_out);
}

int main(int argc, char **argv) {
    proper_rng rng;
    proper_rng_seed(&rng, 42);
    (void)argv;
#ifndef HAVE_FFTW3
    printf("(FFTW3 not found: fftw column unavailable)\n");
#endif
    convolution_table(&rng);
    if (argc < 2) crossover_table(&rng);
    loop_table(&rng);
    return 0;
}
