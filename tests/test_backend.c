/* Tests for backend.h: the subprocess runner (exit statuses, signals,
 * timeouts that kill the whole process group, huge output on both streams,
 * argv passed verbatim, stdin, TMPDIR), temporary directories and their
 * removal, binary lookup, the registry and selection, and the native
 * backend's operations against closed forms.
 *
 * The runner is exercised with programs every POSIX system has: /bin/sh
 * (always as an explicit program with its own argv, to produce exit codes,
 * signals and process trees), printf, cat, head, sleep. */
#define PROPER_IMPLEMENTATION
#include "../src/backend_native.h"
#include "test.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int path_exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

static void test_exit_status(void) {
    static const char *const ok_argv[] = {"/bin/sh", "-c", "exit 0", NULL};
    static const char *const three_argv[] = {"/bin/sh", "-c", "echo to-err >&2; exit 3", NULL};
    static const char *const false_argv[] = {"false", NULL}; /* found through PATH */
    proper_backend_run_result r;
    proper_error err;
    proper_backend_run_result_init(&r);
    CHECK_INT(proper_backend_run(ok_argv, NULL, &r, &err), 0);
    CHECK(r.exited && r.exit_code == 0 && !r.signaled && !r.timed_out);
    CHECK_INT(r.out_len, 0);
    CHECK(r.out && r.out[0] == '\0');
    proper_backend_run_result_free(&r);
    /* a non-zero exit is the tool's answer, not a runner failure */
    CHECK_INT(proper_backend_run(three_argv, NULL, &r, &err), 0);
    CHECK(r.exited);
    CHECK_INT(r.exit_code, 3);
    CHECK_STR(r.err, "to-err\n");
    proper_backend_run_result_free(&r);
    CHECK_INT(proper_backend_run(false_argv, NULL, &r, &err), 0);
    CHECK_INT(r.exit_code, 1);
    proper_backend_run_result_free(&r);
}

static void test_signal_and_missing_program(void) {
    static const char *const term_argv[] = {"/bin/sh", "-c", "kill -TERM $$", NULL};
    static const char *const missing_argv[] = {"/nonexistent/proper-tool", "x", NULL};
    static const char *const missing_path_argv[] = {"proper-no-such-tool-xyz", NULL};
    static const char *const empty_argv[] = {NULL};
    proper_backend_run_result r;
    proper_error err;
    proper_backend_run_result_init(&r);
    CHECK_INT(proper_backend_run(term_argv, NULL, &r, &err), 0);
    CHECK(r.signaled && !r.exited);
    CHECK_INT(r.signal, SIGTERM);
    /* a run that cannot start leaves the earlier result as it was */
    CHECK_INT(proper_backend_run(missing_argv, NULL, &r, &err), PROPER_EBACKEND);
    CHECK_CONTAINS(err.message, "/nonexistent/proper-tool");
    CHECK(r.signaled && r.signal == SIGTERM && r.out != NULL);
    proper_backend_run_result_free(&r);
    CHECK(r.out == NULL && r.err == NULL && r.exit_code == -1);
    CHECK_INT(proper_backend_run(missing_path_argv, NULL, &r, &err), PROPER_EBACKEND);
    CHECK_CONTAINS(err.message, "not found in PATH");
    CHECK_INT(proper_backend_run(empty_argv, NULL, &r, &err), PROPER_EINVAL);
    CHECK(r.out == NULL);
}

/* argv reaches the program byte for byte: spaces, quotes, shell syntax. */
static void test_argv_verbatim(void) {
    static const char *const argv[] = {"printf", "[%s]", "a b", "it's", "\"q\"", "$(touch x)", "; rm -rf /tmp/x",
                                       "*", "back\\slash", "", NULL};
    static const char *const sh_argv[] = {"/bin/sh", "-c", "printf '%s|' \"$@\"", "sh", "two  spaces", "'single'",
                                          "tab\there", NULL};
    proper_backend_run_result r;
    proper_error err;
    proper_backend_run_result_init(&r);
    CHECK_INT(proper_backend_run(argv, NULL, &r, &err), 0);
    CHECK_STR(r.out, "[a b][it's][\"q\"][$(touch x)][; rm -rf /tmp/x][*][back\\slash][]");
    proper_backend_run_result_free(&r);
    CHECK_INT(proper_backend_run(sh_argv, NULL, &r, &err), 0);
    CHECK_STR(r.out, "two  spaces|'single'|tab\there|");
    proper_backend_run_result_free(&r);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void test_timeout_kills(void) {
    static const char *const sleep_argv[] = {"sleep", "30", NULL};
    proper_backend_run_opts o;
    proper_backend_run_result r;
    proper_error err;
    double t0 = now_s();
    o = proper_backend_run_opts_default();
    proper_backend_run_result_init(&r);
    o.timeout = 0.3;
    CHECK_INT(proper_backend_run(sleep_argv, &o, &r, &err), PROPER_ETIMEOUT);
    CHECK(r.timed_out && r.signaled);
    CHECK_INT(r.signal, SIGKILL);
    CHECK_CONTAINS(err.message, "timed out");
    /* killed at the timeout, not after the 30 s */
    CHECK(now_s() - t0 < 5.0);
    CHECK(r.seconds >= 0.29);
    proper_backend_run_result_free(&r);
}

/* 1 when process `pid` is dead: no such process, or a zombie waiting for
 * its (new) parent to reap it (Linux /proc shows state Z). */
static int process_dead(long pid) {
    char path[64], stat_line[256];
    FILE *f;
    const char *paren;
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return 1;
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    f = fopen(path, "r");
    if (!f) return 0;
    stat_line[0] = '\0';
    if (!fgets(stat_line, sizeof stat_line, f)) stat_line[0] = '\0';
    fclose(f);
    paren = strrchr(stat_line, ')'); /* "pid (comm) S ..." */
    return paren && paren[1] == ' ' && paren[2] == 'Z';
}

/* 1 when process `pid` is dead within about a second. */
static int process_gone(long pid) {
    struct timespec ten_ms;
    int i;
    ten_ms.tv_sec = 0;
    ten_ms.tv_nsec = 10000000L;
    for (i = 0; i < 100; i++) {
        if (process_dead(pid)) return 1;
        nanosleep(&ten_ms, NULL);
    }
    return 0;
}

/* A timeout kills the process tree: the shell and the sleep it started in
 * the background (same process group), whose pid it prints first. */
static void test_timeout_kills_group(void) {
    static const char *const argv[] = {"/bin/sh", "-c", "sleep 30 & echo $!; wait", NULL};
    proper_backend_run_opts o;
    proper_backend_run_result r;
    proper_error err;
    long child;
    o = proper_backend_run_opts_default();
    proper_backend_run_result_init(&r);
    o.timeout = 0.5;
    CHECK_INT(proper_backend_run(argv, &o, &r, &err), PROPER_ETIMEOUT);
    child = r.out ? strtol(r.out, NULL, 10) : 0;
    CHECK(child > 1);
    if (child > 1) CHECK(process_gone(child));
    proper_backend_run_result_free(&r);
}

/* A tool that exits while something it started keeps running (and keeps
 * the pipes open): the call returns promptly and the leftover is killed. */
static void test_leftover_process_killed(void) {
    static const char *const argv[] = {"/bin/sh", "-c", "sleep 30 & echo $!", NULL};
    proper_backend_run_result r;
    proper_error err;
    long child;
    double t0 = now_s();
    proper_backend_run_result_init(&r);
    CHECK_INT(proper_backend_run(argv, NULL, &r, &err), 0);
    CHECK(now_s() - t0 < 5.0);
    CHECK(r.exited && r.exit_code == 0);
    child = r.out ? strtol(r.out, NULL, 10) : 0;
    CHECK(child > 1);
    if (child > 1) CHECK(process_gone(child));
    proper_backend_run_result_free(&r);
}

/* 50 MB on stdout and 30 MB on stderr at the same time: a runner that
 * reads one pipe to the end before the other deadlocks here. */
static void test_huge_output_both_streams(void) {
    static const char *const argv[] = {"/bin/sh", "-c",
                                       "head -c 31457280 /dev/zero >&2 & head -c 52428800 /dev/zero; wait", NULL};
    static const char *const capped_argv[] = {"head", "-c", "52428800", "/dev/zero", NULL};
    proper_backend_run_opts o;
    proper_backend_run_result r;
    proper_error err;
    size_t i, nonzero = 0;
    o = proper_backend_run_opts_default();
    proper_backend_run_result_init(&r);
    o.timeout = 120.0; /* a deadlock would show as a timeout, not a hang */
    CHECK_INT(proper_backend_run(argv, &o, &r, &err), 0);
    CHECK(r.exited && r.exit_code == 0);
    CHECK_INT(r.out_len, 52428800);
    CHECK_INT(r.err_len, 31457280);
    CHECK(!r.out_truncated && !r.err_truncated);
    for (i = 0; i < r.out_len; i += 4096) nonzero += r.out[i] != 0;
    CHECK_INT(nonzero, 0);
    proper_backend_run_result_free(&r);
    /* with a cap the rest is read and dropped: the child still finishes */
    o.max_output = 1000;
    CHECK_INT(proper_backend_run(capped_argv, &o, &r, &err), 0);
    CHECK(r.exited && r.exit_code == 0);
    CHECK_INT(r.out_len, 1000);
    CHECK(r.out_truncated);
    proper_backend_run_result_free(&r);
}

static void test_tmpdir_and_stdin(void) {
    static const char *const env_argv[] = {"/bin/sh", "-c", "printf '%s' \"$TMPDIR\"", NULL};
    static const char *const cat_argv[] = {"cat", NULL};
    proper_backend_tmpdir d;
    proper_backend_run_opts o;
    proper_backend_run_result r;
    proper_error err;
    char file[PROPER_BACKEND_PATH_MAX];
    proper_backend_run_result_init(&r);
    CHECK_INT(proper_backend_tmpdir_create(&d, &err), 0);
    CHECK(path_exists(d.path));
    CHECK_CONTAINS(d.path, "/proper-");
    CHECK_INT(proper_backend_tmpdir_write(&d, "in.txt", "line 1\nline 2\n", 14, &err), 0);
    CHECK_INT(proper_backend_tmpdir_file(&d, "in.txt", file, sizeof file, &err), 0);
    o = proper_backend_run_opts_default();
    o.tmpdir = d.path;
    CHECK_INT(proper_backend_run(env_argv, &o, &r, &err), 0);
    CHECK_STR(r.out, d.path);
    proper_backend_run_result_free(&r);
    /* stdin from a file; by default from /dev/null (cat ends at once) */
    o.stdin_path = file;
    CHECK_INT(proper_backend_run(cat_argv, &o, &r, &err), 0);
    CHECK_STR(r.out, "line 1\nline 2\n");
    proper_backend_run_result_free(&r);
    CHECK_INT(proper_backend_run(cat_argv, NULL, &r, &err), 0);
    CHECK_STR(r.out_len ? r.out : "", ""); /* shows what came out if not empty */
    proper_backend_run_result_free(&r);
    CHECK_INT(proper_backend_tmpdir_file(&d, "../escape", file, sizeof file, &err), PROPER_EINVAL);
    CHECK_INT(proper_backend_tmpdir_file(&d, "..", file, sizeof file, &err), PROPER_EINVAL);
    CHECK_INT(proper_backend_tmpdir_remove(&d, &err), 0);
}

/* What a tool may leave behind: nested directories, a read-only directory,
 * an unreadable one, a symlink to a directory outside (which must survive). */
static void test_tmpdir_cleanup(void) {
    static const char *const script =
        "cd \"$TMPDIR\" && mkdir -p a/b/c && echo x > a/b/c/f && echo y > a/top && "
        "mkdir locked && echo z > locked/g && chmod 500 locked && chmod 000 a/b/c && "
        "ln -s \"$1\" outside && ln -s /nonexistent dangling && mkfifo fifo";
    proper_backend_tmpdir d, keep;
    proper_backend_run_opts o;
    proper_backend_run_result r;
    proper_error err;
    char kept_file[PROPER_BACKEND_PATH_MAX], saved[PROPER_BACKEND_PATH_MAX];
    const char *argv[6];
    proper_backend_run_result_init(&r);
    CHECK_INT(proper_backend_tmpdir_create(&d, &err), 0);
    CHECK_INT(proper_backend_tmpdir_create(&keep, &err), 0);
    CHECK_INT(proper_backend_tmpdir_write(&keep, "precious", "keep me", 7, &err), 0);
    CHECK_INT(proper_backend_tmpdir_file(&keep, "precious", kept_file, sizeof kept_file, &err), 0);
    argv[0] = "/bin/sh"; argv[1] = "-c"; argv[2] = script; argv[3] = "sh"; argv[4] = keep.path; argv[5] = NULL;
    o = proper_backend_run_opts_default();
    o.tmpdir = d.path;
    CHECK_INT(proper_backend_run(argv, &o, &r, &err), 0);
    CHECK(r.exited && r.exit_code == 0);
    if (r.exit_code != 0) printf("  script stderr: %s\n", r.err);
    proper_backend_run_result_free(&r);
    strcpy(saved, d.path);
    CHECK_INT(proper_backend_tmpdir_remove(&d, &err), 0);
    CHECK(!path_exists(saved));
    CHECK(d.path[0] == '\0');
    CHECK(path_exists(kept_file)); /* the symlink was removed, not followed */
    CHECK_INT(proper_backend_tmpdir_remove(&d, &err), 0); /* twice is harmless */
    CHECK_INT(proper_backend_tmpdir_remove(&keep, &err), 0);
    CHECK(!path_exists(kept_file));
}

static void test_find_binary(void) {
    char buf[PROPER_BACKEND_PATH_MAX];
    proper_error err;
    unsetenv("PROPER_TEST_TOOL");
    CHECK_INT(proper_backend_find_binary("PROPER_TEST_TOOL", "sh", buf, sizeof buf, &err), 0);
    CHECK(buf[0] == '/');
    CHECK(access(buf, X_OK) == 0);
    CHECK_INT(proper_backend_find_binary("PROPER_TEST_TOOL", "proper-no-such-tool-xyz", buf, sizeof buf, &err),
              PROPER_EBACKEND);
    CHECK_CONTAINS(err.message, "PROPER_TEST_TOOL");
    /* the variable wins over PATH, as a path or as a name */
    setenv("PROPER_TEST_TOOL", "/bin/sh", 1);
    CHECK_INT(proper_backend_find_binary("PROPER_TEST_TOOL", "proper-no-such-tool-xyz", buf, sizeof buf, &err), 0);
    CHECK_STR(buf, "/bin/sh");
    setenv("PROPER_TEST_TOOL", "cat", 1);
    CHECK_INT(proper_backend_find_binary("PROPER_TEST_TOOL", "sh", buf, sizeof buf, &err), 0);
    CHECK_CONTAINS(buf, "/cat");
    setenv("PROPER_TEST_TOOL", "/etc/passwd", 1); /* not executable */
    CHECK_INT(proper_backend_find_binary("PROPER_TEST_TOOL", "sh", buf, sizeof buf, &err), PROPER_EBACKEND);
    CHECK_CONTAINS(err.message, "PROPER_TEST_TOOL=/etc/passwd");
    unsetenv("PROPER_TEST_TOOL");
}

static int fake_probe(const proper_backend *self, proper_backend_info *info, proper_error *err) {
    (void)self; (void)err;
    info->installed = 0;
    return PROPER_OK;
}

static void test_registry_and_selection(void) {
    static const proper_backend fake = {"fake", "a test double", fake_probe, NULL, NULL, NULL};
    static const proper_backend fake_again = {"fake", "same name", fake_probe, NULL, NULL, NULL};
    static const proper_backend nameless = {"", "no name", fake_probe, NULL, NULL, NULL};
    proper_backend_registry reg;
    const proper_backend *b;
    proper_backend_info info;
    proper_backend_check_request req;
    proper_backend_check_result res;
    proper_backend_lp_request lreq;
    proper_lp_solution sol;
    proper_error err;
    proper_backend_registry_init(&reg);
    CHECK_INT(reg.count, 0);
    unsetenv("PROPER_BACKEND");
    /* the default is "native", which must be registered; a failed
     * selection leaves the output as it was */
    b = &fake;
    CHECK_INT(proper_backend_select(&reg, NULL, &b, &err), PROPER_EUNDEFINED);
    CHECK_CONTAINS(err.message, "'native' (default)");
    CHECK(b == &fake);
    CHECK_INT(proper_backend_register(&reg, proper_backend_native(), &err), 0);
    CHECK_INT(proper_backend_select(&reg, NULL, &b, &err), 0);
    CHECK(b == proper_backend_native());
    CHECK_INT(proper_backend_register(&reg, &fake, &err), 0);
    CHECK_INT(proper_backend_register(&reg, &fake_again, &err), PROPER_EINVAL);
    CHECK_CONTAINS(err.message, "already registered");
    CHECK_INT(proper_backend_register(&reg, &nameless, &err), PROPER_EINVAL);
    /* explicit name > PROPER_BACKEND > native */
    CHECK_INT(proper_backend_select(&reg, "fake", &b, &err), 0);
    CHECK(b == &fake);
    setenv("PROPER_BACKEND", "fake", 1);
    CHECK_INT(proper_backend_select(&reg, NULL, &b, &err), 0);
    CHECK(b == &fake);
    CHECK_INT(proper_backend_select(&reg, "native", &b, &err), 0);
    CHECK(b == proper_backend_native());
    setenv("PROPER_BACKEND", "prsim", 1);
    CHECK_INT(proper_backend_select(&reg, "", &b, &err), PROPER_EUNDEFINED);
    CHECK_CONTAINS(err.message, "'prsim' (PROPER_BACKEND)");
    CHECK_CONTAINS(err.message, "native, fake");
    unsetenv("PROPER_BACKEND");
    /* missing operations are reported, not called */
    CHECK_INT(proper_backend_probe(&fake, &info, &err), 0);
    CHECK(!info.installed);
    req = proper_backend_check_request_default();
    req.model_path = "m.pm";
    req.property = "P=? [ F \"end\" ]";
    res.value = 42.0;
    CHECK_INT(proper_backend_check_dtmc(&fake, &req, &res, &err), PROPER_EUNSUPPORTED);
    CHECK_CONTAINS(err.message, "fake");
    CHECK(res.value == 42.0); /* unchanged on failure */
    lreq = proper_backend_lp_request_default();
    CHECK(lreq.lp == NULL && lreq.options == NULL && lreq.timeout == 0.0);
    CHECK_INT(proper_backend_solve_lp(&fake, &lreq, &sol, &err), PROPER_EUNSUPPORTED);
    CHECK_INT(proper_backend_probe(proper_backend_native(), &info, &err), 0);
    CHECK(info.installed);
    CHECK_CONTAINS(info.version, PROPER_VERSION_STRING);
}

/* Native DTMC checks against closed forms: from s=0 the chain moves to the
 * goal with probability p and back to s=0 otherwise... here: P(reach goal)
 * = p/(p+q) when each step goes to goal with p, to fail with q, else stays;
 * expected steps to leave s=0 = 1/(p+q). */
static void test_native_check(void) {
    static const char *model =
        "dtmc\n"
        "const double p;\n"
        "const double q = 0.2;\n"
        "module M\n"
        "  s : [0..2] init 0;\n"
        "  [] s=0 -> p:(s'=1) + q:(s'=2) + (1-p-q):(s'=0);\n"
        "  [] s>0 -> true;\n"
        "endmodule\n"
        "label \"goal\" = s=1;\n"
        "rewards \"steps\" s=0 : 1; endrewards\n";
    proper_backend_tmpdir d;
    proper_backend_check_request req;
    proper_backend_check_result res;
    proper_error err;
    char path[PROPER_BACKEND_PATH_MAX];
    const proper_backend *native = proper_backend_native();
    CHECK_INT(proper_backend_tmpdir_create(&d, &err), 0);
    CHECK_INT(proper_backend_tmpdir_write(&d, "m.pm", model, strlen(model), &err), 0);
    CHECK_INT(proper_backend_tmpdir_file(&d, "m.pm", path, sizeof path, &err), 0);
    req = proper_backend_check_request_default();
    req.model_path = path;
    req.property = "P=? [ F \"goal\" ]";
    req.constants = "p=0.3";
    CHECK_INT(proper_backend_check_dtmc(native, &req, &res, &err), 0);
    CHECK_REL(res.value, 0.3 / 0.5, 1e-12);
    CHECK(res.error_estimate >= 0.0 && res.error_estimate <= 1e-11);
    req.property = "R{\"steps\"}=? [ F s>0 ]";
    CHECK_INT(proper_backend_check_dtmc(native, &req, &res, &err), 0);
    CHECK_REL(res.value, 1.0 / 0.5, 1e-12);
    /* the tool's errors come back with their position */
    req.constants = NULL; /* p has no value */
    CHECK(proper_backend_check_dtmc(native, &req, &res, &err) != 0);
    CHECK_REL(res.value, 1.0 / 0.5, 1e-12); /* the last result, unchanged */
    req.constants = "p=0.3";
    req.property = "P=? [ F \"nope\" ]";
    CHECK(proper_backend_check_dtmc(native, &req, &res, &err) != 0);
    CHECK_CONTAINS(err.message, "nope");
    req.property = NULL;
    CHECK_INT(proper_backend_check_dtmc(native, &req, &res, &err), PROPER_EINVAL);
    CHECK_INT(proper_backend_tmpdir_remove(&d, &err), 0);
}

/* The same chain as PRISM explicit files. */
static void test_native_check_explicit(void) {
    static const char *tra = "3 5\n0 0 0.5\n0 1 0.3\n0 2 0.2\n1 1 1\n2 2 1\n";
    static const char *lab = "0=\"init\" 1=\"deadlock\" 2=\"goal\"\n0: 0\n1: 2\n";
    proper_backend_tmpdir d;
    proper_backend_check_request req;
    proper_backend_check_result res;
    proper_error err;
    char tra_path[PROPER_BACKEND_PATH_MAX], lab_path[PROPER_BACKEND_PATH_MAX];
    CHECK_INT(proper_backend_tmpdir_create(&d, &err), 0);
    CHECK_INT(proper_backend_tmpdir_write(&d, "m.tra", tra, strlen(tra), &err), 0);
    CHECK_INT(proper_backend_tmpdir_write(&d, "m.lab", lab, strlen(lab), &err), 0);
    proper_backend_tmpdir_file(&d, "m.tra", tra_path, sizeof tra_path, &err);
    proper_backend_tmpdir_file(&d, "m.lab", lab_path, sizeof lab_path, &err);
    req = proper_backend_check_request_default();
    req.model_kind = PROPER_BACKEND_MODEL_EXPLICIT;
    req.model_path = tra_path;
    req.property = "P=? [ F \"goal\" ]";
    CHECK_INT(proper_backend_check_dtmc(proper_backend_native(), &req, &res, &err), PROPER_EINVAL);
    req.labels_path = lab_path;
    CHECK_INT(proper_backend_check_dtmc(proper_backend_native(), &req, &res, &err), 0);
    CHECK_REL(res.value, 0.6, 1e-12);
    CHECK_INT(proper_backend_tmpdir_remove(&d, &err), 0);
}

/* min x + y s.t. x + 2y >= 2, 3x + y >= 3: the vertex (4/5, 3/5), value 7/5. */
static void test_native_lp(void) {
    proper_lp lp;
    proper_backend_lp_request req;
    proper_lp_solution sol;
    proper_error err;
    size_t cols[2] = {0, 1};
    double r1[2] = {1, 2}, r2[2] = {3, 1};
    proper_lp_init(&lp);
    proper_lp_solution_init(&sol);
    CHECK_INT(proper_lp_add_col(&lp, 1.0, 0.0, PROPER_LP_INF, "x", NULL, &err), 0);
    CHECK_INT(proper_lp_add_col(&lp, 1.0, 0.0, PROPER_LP_INF, "y", NULL, &err), 0);
    CHECK_INT(proper_lp_add_row(&lp, 2, cols, r1, 2.0, PROPER_LP_INF, "a", &err), 0);
    CHECK_INT(proper_lp_add_row(&lp, 2, cols, r2, 3.0, PROPER_LP_INF, "b", &err), 0);
    req = proper_backend_lp_request_default();
    req.lp = &lp;
    CHECK_INT(proper_backend_solve_lp(proper_backend_native(), &req, &sol, &err), 0);
    CHECK_REL(sol.objective, 1.4, 1e-12);
    CHECK_REL(sol.x[0], 0.8, 1e-12);
    CHECK_REL(sol.x[1], 0.6, 1e-12);
    proper_lp_solution_free(&sol);
    proper_lp_free(&lp);
}

int main(void) {
    RUN(test_exit_status);
    RUN(test_signal_and_missing_program);
    RUN(test_argv_verbatim);
    RUN(test_timeout_kills);
    RUN(test_timeout_kills_group);
    RUN(test_leftover_process_killed);
    RUN(test_huge_output_both_streams);
    RUN(test_tmpdir_and_stdin);
    RUN(test_tmpdir_cleanup);
    RUN(test_find_binary);
    RUN(test_registry_and_selection);
    RUN(test_native_check);
    RUN(test_native_check_explicit);
    RUN(test_native_lp);
    return test_summary();
}
