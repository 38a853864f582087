/* backend.h — external engines behind one interface: the plugin interface
 * for backends, the registry that selects one, where their binaries are, and
 * the POSIX subprocess runner and private directories they use. It needs
 * only core.h: the built-in `native` backend (prism.h/dtmc.h model
 * checking, lp.h simplex) is in backend_native.h, the adapters for PRISM,
 * Storm and glpsol in backends/ (on top of backends/tool.h, what they share).
 *
 * ---- Backends --------------------------------------------------------------
 * A backend is a `proper_backend`: a name, a probe (is it installed, which
 * version), and the operations it supports, each a function pointer that is
 * NULL when unsupported:
 *   check_dtmc  value of one property of a DTMC given as files (a PRISM-
 *               language model, or PRISM explicit .tra/.lab[/.srew/.trew]),
 *               with constants, plus the tool's own error estimate;
 *   solve_lp    a linear program (lp.h), answered as a proper_lp_solution.
 * Operations take request structs; start from the *_default() value so
 * that fields added later get their defaults.
 *
 * Writing an adapter (backends/NAME.h): define a static const proper_backend
 * with your functions and a getter `const proper_backend
 * *proper_backend_NAME(void)`. In the functions, find the binary with
 * proper_backend_find_binary (env var PROPER_<NAME> or PATH), make a private
 * directory with proper_backend_tmpdir_create, write the inputs into it
 * (proper_backend_tmpdir_write / _file), run the tool with proper_backend_run
 * (argv array, never a shell; pass run_opts.tmpdir so that the tool's own
 * temporary files land there too), parse its output, and always remove the
 * directory with proper_backend_tmpdir_remove. Turn the tool's failures into
 * PROPER_EBACKEND with the tool's own message, timeouts into PROPER_ETIMEOUT.
 * For a model checker, backends/tool.h does all of this given the tool's
 * command line and output reader.
 *
 * ---- Registry and selection -------------------------------------------------
 * A proper_backend_registry is a small caller-owned table (no global state):
 * proper_backend_registry_init makes it empty; the caller registers the
 * backends it offers (proper_backend_native() of backend_native.h, the
 * adapters of backends/, its own; names are unique). proper_backend_select
 * picks one by name: the name given (the API argument, or the CLI's
 * `--backend NAME`), else the environment variable PROPER_BACKEND, else
 * "native".
 *
 * ---- The subprocess runner (POSIX) -----------------------------------------
 * proper_backend_run starts argv[0] (a path, or a name looked up in PATH by
 * proper itself) with posix_spawn and the argv array as given: no shell is
 * involved, so file names and constants cannot inject commands. The child
 * gets stdin from a file (default /dev/null), stdout and stderr into pipes
 * that the parent drains together with poll() (so output of any size never
 * deadlocks), its own process group, default signal dispositions, and
 * optionally TMPDIR/TMP/TEMP pointing at a private directory. On timeout
 * the whole process group gets SIGKILL. When the child exits, whatever it
 * left running in its process group is killed too, so nothing outlives the
 * call (a grandchild that called setsid() escapes this; its pipes are then
 * abandoned after PROPER_BACKEND_DRAIN_MS).
 * The parent's pipe ends are opened close-on-exec right after pipe(), which
 * leaves a short window in which another thread's fork could inherit them.
 *
 * ---- Outputs ----------------------------------------------------------------
 * As everywhere in proper, an output is initialised by the caller, replaced
 * on success and left unchanged on failure. One case to know: a run that
 * times out (PROPER_ETIMEOUT) still hands over what the tool wrote.
 *
 * ---- Configuration (define before including) -------------------------------
 *   PROPER_BACKEND_PATH_MAX      longest path handled (4096)
 *   PROPER_BACKEND_MAX_OUTPUT    default cap on captured bytes per stream (256 MiB)
 *   PROPER_BACKEND_DRAIN_MS      silence that ends reading a finished tool's pipes (100)
 *   PROPER_BACKEND_REGISTRY_MAX  registry capacity (16)
 */
#ifndef PROPER_BACKEND_H
#define PROPER_BACKEND_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest path the runner and the temporary directories handle. */
#ifndef PROPER_BACKEND_PATH_MAX
#define PROPER_BACKEND_PATH_MAX 4096
#endif
/* Default cap on captured bytes per stream; more output is read and
 * dropped (the result says it was truncated). */
#ifndef PROPER_BACKEND_MAX_OUTPUT
#define PROPER_BACKEND_MAX_OUTPUT ((size_t)256 * 1024 * 1024)
#endif
/* After the child has exited, the runner keeps reading its pipes while
 * data still arrives; it stops after this many milliseconds of silence
 * (only when a leftover process still holds the pipes open). */
#ifndef PROPER_BACKEND_DRAIN_MS
#define PROPER_BACKEND_DRAIN_MS 100
#endif
/* Registry capacity. */
#ifndef PROPER_BACKEND_REGISTRY_MAX
#define PROPER_BACKEND_REGISTRY_MAX 16
#endif

/* ---- Subprocess runner ---------------------------------------------------- */

typedef struct proper_backend_run_opts {
    double timeout;         /* seconds; <= 0 means no limit */
    size_t max_output;      /* per stream; 0 = PROPER_BACKEND_MAX_OUTPUT */
    const char *stdin_path; /* the child's stdin; NULL = /dev/null */
    const char *tmpdir;     /* if not NULL: the child's TMPDIR, TMP and TEMP */
} proper_backend_run_opts;

/* No timeout, the default output cap, /dev/null as stdin, no TMPDIR. */
PROPER_API proper_backend_run_opts proper_backend_run_opts_default(void);

typedef struct proper_backend_run_result {
    int exited;         /* 1: exited normally, exit_code is its status */
    int exit_code;
    int signaled;       /* 1: killed by signal `signal` (also after a timeout) */
    int signal;
    int timed_out;      /* 1: the timeout expired and the group was killed */
    char *out, *err;    /* captured stdout / stderr, NUL-terminated */
    size_t out_len, err_len;
    int out_truncated, err_truncated; /* more than max_output was written */
    double seconds;     /* wall-clock time from spawn to reaping */
} proper_backend_run_result;

PROPER_API void proper_backend_run_result_init(proper_backend_run_result *res);
PROPER_API void proper_backend_run_result_free(proper_backend_run_result *res);

/* Run argv (NULL-terminated; argv[0] a path or a name found in PATH) and
 * wait for it. Returns 0 when the program ran and ended, whatever its exit
 * status (look at res->exited/exit_code/signaled); PROPER_ETIMEOUT when the
 * timeout killed it (res then holds what it wrote until then);
 * PROPER_EBACKEND when it could not be started (not found, not executable)
 * or a system call failed; PROPER_ENOMEM. res (initialised by the caller)
 * is replaced on 0 and PROPER_ETIMEOUT, unchanged otherwise. opts NULL =
 * proper_backend_run_opts_default(). */
PROPER_API int proper_backend_run(const char *const *argv, const proper_backend_run_opts *opts,
                                  proper_backend_run_result *res, proper_error *err);

/* A private temporary directory: mkdtemp("$TMPDIR/proper-XXXXXX"), or under
 * /tmp when TMPDIR is unset, mode 0700. */
typedef struct proper_backend_tmpdir {
    char path[PROPER_BACKEND_PATH_MAX];
} proper_backend_tmpdir;

/* Create the directory; on failure d->path is "" (removing it does nothing). */
PROPER_API int proper_backend_tmpdir_create(proper_backend_tmpdir *d, proper_error *err);
/* The path of file `name` inside the directory into buf. `name` must be a
 * plain file name: not empty, no '/', not "." or "..". */
PROPER_API int proper_backend_tmpdir_file(const proper_backend_tmpdir *d, const char *name, char *buf,
                                          size_t size, proper_error *err);
/* Write data[0..len) to file `name` inside the directory (created, mode 0600). */
PROPER_API int proper_backend_tmpdir_write(const proper_backend_tmpdir *d, const char *name,
                                           const char *data, size_t len, proper_error *err);
/* Remove the directory and everything in it, including what a tool wrote
 * there (subdirectories, read-only directories); symbolic links are removed,
 * never followed. d->path is cleared. Removing a cleared tmpdir does nothing. */
PROPER_API int proper_backend_tmpdir_remove(proper_backend_tmpdir *d, proper_error *err);
/* The same for any path (a file, a symlink or a directory tree). */
PROPER_API int proper_backend_remove_tree(const char *path, proper_error *err);

/* Locate an executable: the value of environment variable `env_var` when it
 * is set and not empty (a path, or a name looked up in PATH), else `name`
 * looked up in PATH. The result goes into buf. PROPER_EBACKEND when it is
 * not found or not executable, with a message naming env_var. */
PROPER_API int proper_backend_find_binary(const char *env_var, const char *name, char *buf,
                                          size_t size, proper_error *err);

/* ---- Backends ------------------------------------------------------------- */

typedef struct proper_backend proper_backend;

/* What a probe reports. */
typedef struct proper_backend_info {
    int installed;                         /* 1 when the backend can run */
    int found;                             /* 1 when its binary was found: installed 0 then
                                              means the tool is there but failed its probe
                                              or did not answer in time (err says which) */
    char version[256];                     /* e.g. "PRISM 4.8.1"; "" if unknown */
    char path[PROPER_BACKEND_PATH_MAX];    /* binary used; "" for in-process backends */
    double timeout;                        /* in (set by proper_backend_probe_within): seconds
                                              the probe may wait for a tool; <= 0: the
                                              backend's own cap */
} proper_backend_info;

/* How the DTMC of a check request is given. */
enum proper_backend_model_kind {
    PROPER_BACKEND_MODEL_PRISM = 0,   /* model_path: a PRISM-language file (.pm) */
    PROPER_BACKEND_MODEL_EXPLICIT = 1 /* model_path: .tra; labels_path: .lab; optional .srew/.trew/.sta */
};

typedef struct proper_backend_check_request {
    int model_kind;                 /* enum proper_backend_model_kind */
    const char *model_path;
    const char *labels_path;        /* explicit only */
    const char *state_rewards_path; /* explicit only; may be NULL */
    const char *trans_rewards_path; /* explicit only; may be NULL */
    const char *states_path;        /* explicit only; may be NULL: the .sta, whose
                                       variables the property may name */
    const char *constants;          /* "a=1,b=0.5,c=true" or NULL */
    const char *property;           /* one property in PRISM syntax, e.g. P=? [ F "end" ] */
    double rel_precision;           /* convergence target asked of the tool (relative);
                                       default 1e-12 */
    int exact;                      /* 1: ask for exact (rational) arithmetic if the tool has it */
    double timeout;                 /* seconds for external tools; <= 0 none */
} proper_backend_check_request;

/* A PRISM-language model, rel_precision 1e-12, no paths, no timeout. */
PROPER_API proper_backend_check_request proper_backend_check_request_default(void);

typedef struct proper_backend_check_result {
    double value;          /* the result in the initial state; may be INFINITY or NAN */
    double error_estimate; /* absolute error the tool states (0 when exact, NAN when it
                              states none) */
    char exact[512];       /* the exact value as the tool printed it (e.g. a rational; cut
                              to fit), or "" */
    double seconds;        /* wall-clock time of the operation */
} proper_backend_check_result;

/* The LP types are lp.h's; this header only passes pointers to them. */
struct proper_lp;
struct proper_lp_opts;
struct proper_lp_solution;

typedef struct proper_backend_lp_request {
    const struct proper_lp *lp;
    const struct proper_lp_opts *options; /* native solver options; NULL = defaults */
    double timeout;                          /* seconds for external tools; <= 0 none */
} proper_backend_lp_request;

/* No LP yet (set .lp), default options, no timeout. */
PROPER_API proper_backend_lp_request proper_backend_lp_request_default(void);

struct proper_backend {
    const char *name;        /* unique: "native", "prism", "storm", "glpk", ... */
    const char *description; /* one line for listings */
    /* Fill *info; return 0 also when the backend is not installed
     * (info->installed = 0, err may say why). */
    int (*probe)(const proper_backend *self, proper_backend_info *info, proper_error *err);
    /* NULL when unsupported. *out comes in with value and error_estimate
     * NAN, the rest zero. */
    int (*check_dtmc)(const proper_backend *self, const proper_backend_check_request *req,
                      proper_backend_check_result *out, proper_error *err);
    /* NULL when unsupported. sol must come out as proper_lp_solve leaves it
     * (arrays from PROPER_MALLOC, freed by proper_lp_solution_free), also on
     * error. */
    int (*solve_lp)(const proper_backend *self, const proper_backend_lp_request *req,
                    struct proper_lp_solution *sol, proper_error *err);
    void *userdata;          /* for the backend's own use */
};

/* Call an operation; PROPER_EUNSUPPORTED when the backend lacks it.
 * probe fills *info (cleared first). check_dtmc replaces *out on success
 * and leaves it unchanged on failure; solve_lp treats sol as
 * proper_lp_solve does. */
PROPER_API int proper_backend_probe(const proper_backend *b, proper_backend_info *info,
                                    proper_error *err);
/* The same, the probe waiting at most `timeout` seconds for the tool's
 * answer (<= 0: the backend's own cap; an adapter of backends/ never waits
 * longer than PROPER_TOOL_PROBE_TIMEOUT either). */
PROPER_API int proper_backend_probe_within(const proper_backend *b, double timeout, proper_backend_info *info,
                                           proper_error *err);
PROPER_API int proper_backend_check_dtmc(const proper_backend *b, const proper_backend_check_request *req,
                                         proper_backend_check_result *out, proper_error *err);
PROPER_API int proper_backend_solve_lp(const proper_backend *b, const proper_backend_lp_request *req,
                                       struct proper_lp_solution *sol, proper_error *err);

typedef struct proper_backend_registry {
    const proper_backend *items[PROPER_BACKEND_REGISTRY_MAX];
    size_t count;
} proper_backend_registry;

/* An empty registry. */
PROPER_API void proper_backend_registry_init(proper_backend_registry *r);
/* Add a backend (not copied: it must outlive the registry). PROPER_EINVAL
 * for a duplicate name or a backend without name or probe; PROPER_ELIMIT
 * when full. */
PROPER_API int proper_backend_register(proper_backend_registry *r, const proper_backend *b,
                                       proper_error *err);
/* The backend called `name`, or NULL. */
PROPER_API const proper_backend *proper_backend_find(const proper_backend_registry *r,
                                                     const char *name);
/* Pick a backend into *out: `name` when not NULL/empty, else
 * $PROPER_BACKEND when set and not empty, else "native". PROPER_EUNDEFINED
 * (listing the known names) when there is no such backend; *out is then
 * unchanged. */
PROPER_API int proper_backend_select(const proper_backend_registry *r, const char *name,
                                     const proper_backend **out, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_BACKEND_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_BACKEND_IMPLEMENTATION
#define PROPER_BACKEND_IMPLEMENTATION

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif
extern char **environ; /* POSIX: the application declares it */
#ifdef __cplusplus
}
#endif

/* ---- small helpers ---- */

static double proper__backend_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int proper__backend_is_executable(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Look `name` up in PATH (or use it as is when it contains '/'). */
static int proper__backend_resolve_program(const char *name, char *buf, size_t size) {
    const char *path, *p;
    if (strchr(name, '/')) {
        if (strlen(name) >= size) return -1;
        strcpy(buf, name);
        return proper__backend_is_executable(buf) ? 0 : -1;
    }
    path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    for (p = path;; p++) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        /* an empty PATH entry means the current directory */
        const char *dir = len ? p : ".";
        size_t dlen = len ? len : 1;
        if (dlen + 1 + strlen(name) < size) {
            memcpy(buf, dir, dlen);
            buf[dlen] = '/';
            strcpy(buf + dlen + 1, name);
            if (proper__backend_is_executable(buf)) return 0;
        }
        if (!end) break;
        p = end;
    }
    return -1;
}

PROPER_API int proper_backend_find_binary(const char *env_var, const char *name, char *buf,
                                          size_t size, proper_error *err) {
    const char *given = env_var ? getenv(env_var) : NULL;
    if (given && *given) {
        if (proper__backend_resolve_program(given, buf, size) == 0) return PROPER_OK;
        return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "%s=%s is not an executable file", env_var, given);
    }
    if (name && proper__backend_resolve_program(name, buf, size) == 0) return PROPER_OK;
    if (env_var)
        return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "%s not found in PATH (set %s to its location)",
                                name ? name : "program", env_var);
    return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "%s not found in PATH", name ? name : "program");
}

/* ---- temporary directories ---- */

PROPER_API int proper_backend_tmpdir_create(proper_backend_tmpdir *d, proper_error *err) {
    const char *base = getenv("TMPDIR");
    int n;
    if (!base || !*base) base = "/tmp";
    n = snprintf(d->path, sizeof d->path, "%s/proper-XXXXXX", base);
    if (n < 0 || (size_t)n >= sizeof d->path) {
        d->path[0] = '\0';
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "TMPDIR path too long");
    }
    if (!mkdtemp(d->path)) {
        int e = errno;
        d->path[0] = '\0';
        return proper_error_set(err, PROPER_EIO, base, 0, 0, "cannot create a temporary directory: %s", strerror(e));
    }
    return PROPER_OK;
}

PROPER_API int proper_backend_tmpdir_file(const proper_backend_tmpdir *d, const char *name, char *buf,
                                          size_t size, proper_error *err) {
    int n;
    if (!d->path[0]) return proper_error_set(err, PROPER_ESTATE, NULL, 0, 0, "temporary directory not created");
    if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "'%s' is not a plain file name", name);
    n = snprintf(buf, size, "%s/%s", d->path, name);
    if (n < 0 || (size_t)n >= size) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "path too long for '%s'", name);
    return PROPER_OK;
}

PROPER_API int proper_backend_tmpdir_write(const proper_backend_tmpdir *d, const char *name,
                                           const char *data, size_t len, proper_error *err) {
    char path[PROPER_BACKEND_PATH_MAX];
    int fd, rc;
    if ((rc = proper_backend_tmpdir_file(d, name, path, sizeof path, err))) return rc;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot create: %s", strerror(errno));
    while (len > 0) {
        ssize_t w = write(fd, data, len);
        if (w < 0) {
            int e = errno;
            if (e == EINTR) continue;
            close(fd);
            return proper_error_set(err, PROPER_EIO, path, 0, 0, "write failed: %s", strerror(e));
        }
        data += w;
        len -= (size_t)w;
    }
    if (close(fd) != 0) return proper_error_set(err, PROPER_EIO, path, 0, 0, "close failed: %s", strerror(errno));
    return PROPER_OK;
}

/* Remove everything inside the directory open as dirfd (consumed). Entries
 * are examined with fstatat(AT_SYMLINK_NOFOLLOW), so links are unlinked,
 * never followed; subdirectories are made writable (they are ours) before
 * their contents go. Returns 0 or an errno value. */
static int proper__backend_empty_dir(int dirfd) {
    DIR *dir;
    struct dirent *ent;
    int pass, failure = 0;
    (void)fchmod(dirfd, 0700);
    dir = fdopendir(dirfd);
    if (!dir) {
        int e = errno;
        close(dirfd);
        return e;
    }
    /* Removing entries while reading may hide some from readdir: repeat the
     * pass while it still removes something. */
    for (pass = 0; pass < 8; pass++) {
        int removed = 0;
        failure = 0;
        rewinddir(dir);
        while ((ent = readdir(dir)) != NULL) {
            struct stat st;
            const char *name = ent->d_name;
            if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
            if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) { failure = errno; continue; }
            if (S_ISDIR(st.st_mode)) {
                int sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                int e;
                if (sub < 0 && errno == EACCES && fchmodat(dirfd, name, 0700, 0) == 0)
                    sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub < 0) { failure = errno; continue; }
                if ((e = proper__backend_empty_dir(sub)) != 0) { failure = e; continue; }
                if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0) { failure = errno; continue; }
            } else if (unlinkat(dirfd, name, 0) != 0) {
                failure = errno;
                continue;
            }
            removed++;
        }
        if (!removed) break;
    }
    closedir(dir);
    return failure;
}

PROPER_API int proper_backend_remove_tree(const char *path, proper_error *err) {
    struct stat st;
    int fd, e;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return PROPER_OK;
        return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot remove: %s", strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) {
        if (unlink(path) != 0) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot remove: %s", strerror(errno));
        return PROPER_OK;
    }
    fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == EACCES && chmod(path, 0700) == 0) fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot open directory: %s", strerror(errno));
    if ((e = proper__backend_empty_dir(fd)) != 0)
        return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot empty directory: %s", strerror(e));
    if (rmdir(path) != 0) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot remove directory: %s", strerror(errno));
    return PROPER_OK;
}

PROPER_API int proper_backend_tmpdir_remove(proper_backend_tmpdir *d, proper_error *err) {
    int rc;
    if (!d->path[0]) return PROPER_OK;
    rc = proper_backend_remove_tree(d->path, err);
    if (rc == PROPER_OK) d->path[0] = '\0';
    return rc;
}

/* ---- the runner ---- */

PROPER_API proper_backend_run_opts proper_backend_run_opts_default(void) {
    proper_backend_run_opts o;
    o.timeout = 0.0;
    o.max_output = 0;
    o.stdin_path = NULL;
    o.tmpdir = NULL;
    return o;
}

PROPER_API void proper_backend_run_result_init(proper_backend_run_result *res) {
    memset(res, 0, sizeof *res);
    res->exit_code = -1;
}

PROPER_API void proper_backend_run_result_free(proper_backend_run_result *res) {
    PROPER_FREE(res->out);
    PROPER_FREE(res->err);
    proper_backend_run_result_init(res);
}

/* The child's environment: ours, with TMPDIR, TMP and TEMP replaced by
 * `tmpdir`. Returns a NULL-terminated array whose first three entries are
 * owned strings (free them and the array with proper__backend_free_env). */
static char **proper__backend_child_env(const char *tmpdir) {
    static const char *const vars[3] = {"TMPDIR=", "TMP=", "TEMP="};
    size_t n = 0, i, k = 3, j;
    char **env;
    while (environ && environ[n]) n++;
    env = (char **)proper_calloc(n + 4, sizeof *env);
    if (!env) return NULL;
    for (j = 0; j < 3; j++) {
        size_t len = strlen(vars[j]) + strlen(tmpdir) + 1;
        env[j] = (char *)PROPER_MALLOC(len);
        if (!env[j]) {
            while (j-- > 0) PROPER_FREE(env[j]);
            PROPER_FREE(env);
            return NULL;
        }
        snprintf(env[j], len, "%s%s", vars[j], tmpdir);
    }
    for (i = 0; i < n; i++) {
        int replaced = 0;
        for (j = 0; j < 3; j++)
            if (strncmp(environ[i], vars[j], strlen(vars[j])) == 0) replaced = 1;
        if (!replaced) env[k++] = environ[i];
    }
    env[k] = NULL;
    return env;
}

static void proper__backend_free_env(char **env) {
    if (!env) return;
    PROPER_FREE(env[0]);
    PROPER_FREE(env[1]);
    PROPER_FREE(env[2]);
    PROPER_FREE(env);
}

/* One captured stream. */
typedef struct proper__backend_stream {
    int fd;            /* -1 once at EOF */
    char *data;
    size_t len, cap, limit;
    int truncated;
} proper__backend_stream;

/* Read what is available from s; 0, or PROPER_ENOMEM. */
static int proper__backend_stream_read(proper__backend_stream *s) {
    char chunk[65536];
    ssize_t n = read(s->fd, chunk, sizeof chunk);
    if (n < 0) {
        if (errno == EINTR || errno == EAGAIN) return PROPER_OK;
        n = 0; /* a read error ends the stream like EOF */
    }
    if (n == 0) {
        close(s->fd);
        s->fd = -1;
        return PROPER_OK;
    }
    {
        size_t keep = (size_t)n;
        if (s->len + keep > s->limit) {
            keep = s->limit - s->len;
            s->truncated = 1;
        }
        if (keep) {
            if (proper_reserve(&s->data, &s->cap, s->len + keep + 1, 1)) return PROPER_ENOMEM;
            memcpy(s->data + s->len, chunk, keep);
            s->len += keep;
        }
    }
    return PROPER_OK;
}

/* 1 when the child has exited (it stays a zombie: WNOWAIT), so that its
 * pid, which is also its process group's id, cannot be reused yet. */
static int proper__backend_child_exited(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD;
    return info.si_pid == pid;
}

/* Pipes for stdout and stderr; the parent's read ends and (until the spawn)
 * the write ends are close-on-exec. */
static int proper__backend_make_pipes(int out_pipe[2], int err_pipe[2], proper_error *err) {
    int i;
    out_pipe[0] = out_pipe[1] = err_pipe[0] = err_pipe[1] = -1;
    if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) {
        int e = errno;
        for (i = 0; i < 2; i++) {
            if (out_pipe[i] >= 0) close(out_pipe[i]);
            if (err_pipe[i] >= 0) close(err_pipe[i]);
        }
        return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "pipe: %s", strerror(e));
    }
    for (i = 0; i < 2; i++) {
        fcntl(out_pipe[i], F_SETFD, FD_CLOEXEC);
        fcntl(err_pipe[i], F_SETFD, FD_CLOEXEC);
    }
    return PROPER_OK;
}

/* posix_spawn with stdin from `in_path`, stdout/stderr into the pipes' write
 * ends, a new process group and default signal handling. Returns 0 or an
 * errno value. */
static int proper__backend_spawn(pid_t *pid, const char *path, const char *const *argv, char **envp,
                         const char *in_path, int out_fd, int err_fd) {
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t none, all;
    int rc;
    if ((rc = posix_spawn_file_actions_init(&fa)) != 0) return rc;
    if ((rc = posix_spawnattr_init(&attr)) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return rc;
    }
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    if ((rc = posix_spawn_file_actions_addopen(&fa, 0, in_path, O_RDONLY, 0)) == 0 &&
        (rc = posix_spawn_file_actions_adddup2(&fa, out_fd, 1)) == 0 &&
        (rc = posix_spawn_file_actions_adddup2(&fa, err_fd, 2)) == 0 &&
        (rc = posix_spawnattr_setpgroup(&attr, 0)) == 0 &&
        (rc = posix_spawnattr_setsigmask(&attr, &none)) == 0 &&
        (rc = posix_spawnattr_setsigdefault(&attr, &all)) == 0 &&
        (rc = posix_spawnattr_setflags(&attr, (short)(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                                      POSIX_SPAWN_SETSIGDEF))) == 0)
        rc = posix_spawn(pid, path, &fa, &attr, (char *const *)argv, envp);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

/* Drain both streams until EOF, the timeout, or (after the child's exit)
 * PROPER_BACKEND_DRAIN_MS of silence. Sets *timed_out. */
static int proper__backend_pump(pid_t pid, proper__backend_stream *s, double deadline, int *timed_out,
                        proper_error *err) {
    int exited = 0;
    for (;;) {
        struct pollfd fds[2];
        proper__backend_stream *which[2];
        int nfds = 0, i, rc, wait_ms = exited ? PROPER_BACKEND_DRAIN_MS : 50;
        for (i = 0; i < 2; i++)
            if (s[i].fd >= 0) {
                fds[nfds].fd = s[i].fd;
                fds[nfds].events = POLLIN;
                fds[nfds].revents = 0;
                which[nfds++] = &s[i];
            }
        if (nfds == 0) return PROPER_OK;
        if (deadline > 0.0 && !exited) {
            double left = deadline - proper__backend_now();
            if (left <= 0.0) {
                *timed_out = 1;
                return PROPER_OK;
            }
            if (left * 1000.0 < wait_ms) wait_ms = (int)ceil(left * 1000.0);
        }
        rc = poll(fds, (nfds_t)nfds, wait_ms);
        if (rc < 0) {
            if (errno == EINTR) continue;
            return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "poll: %s", strerror(errno));
        }
        if (rc == 0 && exited) return PROPER_OK; /* a leftover process holds the pipes */
        for (i = 0; i < nfds; i++)
            if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
                if (proper__backend_stream_read(which[i]))
                    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory capturing output");
        if (!exited) exited = proper__backend_child_exited(pid);
    }
}

/* Wait (without reaping) until the child has exited or the deadline
 * passes (then *timed_out = 1). */
static void proper__backend_await_exit(pid_t pid, double deadline, int *timed_out) {
    while (!proper__backend_child_exited(pid)) {
        struct timespec pause;
        if (deadline > 0.0 && proper__backend_now() >= deadline) {
            *timed_out = 1;
            return;
        }
        pause.tv_sec = 0;
        pause.tv_nsec = 1000000; /* 1 ms */
        nanosleep(&pause, NULL);
    }
}

static void proper__backend_fill_status(proper_backend_run_result *res, int status) {
    if (WIFEXITED(status)) {
        res->exited = 1;
        res->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        res->signaled = 1;
        res->signal = WTERMSIG(status);
    }
}

/* Hand the captured buffers to res (NUL-terminated, never NULL). */
static int proper__backend_take_stream(proper__backend_stream *s, char **data, size_t *len, int *truncated) {
    if (proper_reserve(&s->data, &s->cap, s->len + 1, 1)) return PROPER_ENOMEM;
    s->data[s->len] = '\0';
    *data = s->data;
    *len = s->len;
    *truncated = s->truncated;
    s->data = NULL;
    return PROPER_OK;
}

/* Resolve argv[0] and start it with its stdout and stderr on pipes; the
 * parent's read ends go to fds[0] (stdout) and fds[1] (stderr). */
static int proper__backend_start(const char *const *argv, const proper_backend_run_opts *opts, pid_t *pid,
                                 int fds[2], proper_error *err) {
    char path[PROPER_BACKEND_PATH_MAX];
    char **envp = NULL;
    int out_pipe[2], err_pipe[2], rc;
    if (!argv || !argv[0] || !argv[0][0])
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no program to run");
    if (proper__backend_resolve_program(argv[0], path, sizeof path) != 0)
        return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "cannot run '%s': %s", argv[0],
                                strchr(argv[0], '/') ? "not an executable file" : "not found in PATH");
    if (opts->tmpdir && !(envp = proper__backend_child_env(opts->tmpdir)))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if ((rc = proper__backend_make_pipes(out_pipe, err_pipe, err))) {
        proper__backend_free_env(envp);
        return rc;
    }
    rc = proper__backend_spawn(pid, path, argv, envp ? envp : environ,
                               opts->stdin_path ? opts->stdin_path : "/dev/null", out_pipe[1], err_pipe[1]);
    proper__backend_free_env(envp);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (rc != 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "cannot run '%s': %s", path, strerror(rc));
    }
    fds[0] = out_pipe[0];
    fds[1] = err_pipe[0];
    return PROPER_OK;
}

/* Drain the started child's pipes until it ends or the deadline passes, kill
 * what is left of its process group, reap it and fill res (freed on error). */
static int proper__backend_collect(pid_t pid, const int fds[2], const proper_backend_run_opts *opts, double start,
                                   proper_backend_run_result *res, proper_error *err) {
    proper__backend_stream s[2];
    double deadline = opts->timeout > 0.0 ? start + opts->timeout : 0.0;
    int rc, status = 0, timed_out = 0, i;
    pid_t reaped;
    for (i = 0; i < 2; i++) {
        memset(&s[i], 0, sizeof s[i]);
        s[i].fd = fds[i];
        s[i].limit = opts->max_output ? opts->max_output : PROPER_BACKEND_MAX_OUTPUT;
    }
    rc = proper__backend_pump(pid, s, deadline, &timed_out, err);
    /* Both pipes can reach EOF while the child is still on its way out
     * (it closes its files before it becomes a zombie): let it finish
     * before the group is killed, or a clean exit would read as SIGKILL. */
    if (rc == PROPER_OK && !timed_out) proper__backend_await_exit(pid, deadline, &timed_out);
    /* Kill the group: after a timeout or an error the child itself, and in
     * every case whatever it left behind. The child is not reaped yet, so
     * its pid still names its group. */
    kill(-pid, SIGKILL);
    for (i = 0; i < 2; i++)
        if (s[i].fd >= 0) close(s[i].fd);
    do {
        reaped = waitpid(pid, &status, 0);
    } while (reaped < 0 && errno == EINTR);
    if (reaped < 0 && rc == PROPER_OK)
        rc = proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "waitpid: %s (is SIGCHLD ignored?)", strerror(errno));
    res->seconds = proper__backend_now() - start;
    proper__backend_fill_status(res, status);
    res->timed_out = timed_out;
    if (rc == PROPER_OK &&
        (proper__backend_take_stream(&s[0], &res->out, &res->out_len, &res->out_truncated) ||
         proper__backend_take_stream(&s[1], &res->err, &res->err_len, &res->err_truncated)))
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory capturing output");
    PROPER_FREE(s[0].data);
    PROPER_FREE(s[1].data);
    if (rc) proper_backend_run_result_free(res);
    return rc;
}

PROPER_API int proper_backend_run(const char *const *argv, const proper_backend_run_opts *opts,
                                  proper_backend_run_result *res, proper_error *err) {
    proper_backend_run_opts defaults = proper_backend_run_opts_default();
    proper_backend_run_result r;
    int fds[2], rc;
    pid_t pid;
    double start;
    if (!opts) opts = &defaults;
    proper_backend_run_result_init(&r);
    start = proper__backend_now();
    if ((rc = proper__backend_start(argv, opts, &pid, fds, err))) return rc;
    if ((rc = proper__backend_collect(pid, fds, opts, start, &r, err))) return rc;
    proper_backend_run_result_free(res);
    *res = r;
    if (r.timed_out)
        return proper_error_set(err, PROPER_ETIMEOUT, NULL, 0, 0, "'%s' timed out after %g s", argv[0], opts->timeout);
    return PROPER_OK;
}

/* ---- requests ---- */

PROPER_API proper_backend_check_request proper_backend_check_request_default(void) {
    proper_backend_check_request r;
    memset(&r, 0, sizeof r);
    r.model_kind = PROPER_BACKEND_MODEL_PRISM;
    r.rel_precision = 1e-12;
    return r;
}

PROPER_API proper_backend_lp_request proper_backend_lp_request_default(void) {
    proper_backend_lp_request r;
    r.lp = NULL;
    r.options = NULL;
    r.timeout = 0.0;
    return r;
}

/* ---- dispatch ---- */

PROPER_API int proper_backend_probe(const proper_backend *b, proper_backend_info *info,
                                    proper_error *err) {
    return proper_backend_probe_within(b, 0.0, info, err);
}

PROPER_API int proper_backend_probe_within(const proper_backend *b, double timeout, proper_backend_info *info,
                                           proper_error *err) {
    memset(info, 0, sizeof *info);
    info->timeout = timeout;
    if (!b->probe) return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0, "backend '%s' has no probe", b->name);
    return b->probe(b, info, err);
}

PROPER_API int proper_backend_check_dtmc(const proper_backend *b, const proper_backend_check_request *req,
                                         proper_backend_check_result *out, proper_error *err) {
    proper_backend_check_result r;
    int rc;
    if (!b->check_dtmc)
        return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0, "backend '%s' cannot check DTMC properties", b->name);
    if (!req->model_path || !req->property || (req->model_kind == PROPER_BACKEND_MODEL_EXPLICIT && !req->labels_path))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "check request without %s",
                                !req->model_path ? "a model" : !req->property ? "a property" : "a labels file");
    memset(&r, 0, sizeof r);
    r.value = NAN;
    r.error_estimate = NAN;
    if ((rc = b->check_dtmc(b, req, &r, err))) return rc;
    *out = r;
    return PROPER_OK;
}

PROPER_API int proper_backend_solve_lp(const proper_backend *b, const proper_backend_lp_request *req,
                                       struct proper_lp_solution *sol, proper_error *err) {
    if (!b->solve_lp)
        return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0, "backend '%s' cannot solve linear programs", b->name);
    return b->solve_lp(b, req, sol, err);
}

/* ---- registry ---- */

PROPER_API void proper_backend_registry_init(proper_backend_registry *r) {
    memset(r, 0, sizeof *r);
}

PROPER_API const proper_backend *proper_backend_find(const proper_backend_registry *r,
                                                     const char *name) {
    size_t i;
    for (i = 0; i < r->count; i++)
        if (strcmp(r->items[i]->name, name) == 0) return r->items[i];
    return NULL;
}

PROPER_API int proper_backend_register(proper_backend_registry *r, const proper_backend *b,
                                       proper_error *err) {
    if (!b || !b->name || !b->name[0] || !b->probe)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a backend needs a name and a probe");
    if (proper_backend_find(r, b->name))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "backend '%s' is already registered", b->name);
    if (r->count >= PROPER_BACKEND_REGISTRY_MAX)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "backend registry full (%d)", PROPER_BACKEND_REGISTRY_MAX);
    r->items[r->count++] = b;
    return PROPER_OK;
}

PROPER_API int proper_backend_select(const proper_backend_registry *r, const char *name,
                                     const proper_backend **out, proper_error *err) {
    const char *source = "requested";
    char known[512];
    const proper_backend *found;
    size_t i, k = 0;
    if (!name || !*name) {
        name = getenv("PROPER_BACKEND");
        source = "PROPER_BACKEND";
        if (!name || !*name) {
            name = "native";
            source = "default";
        }
    }
    if ((found = proper_backend_find(r, name)) != NULL) {
        *out = found;
        return PROPER_OK;
    }
    known[0] = '\0';
    for (i = 0; i < r->count; i++) {
        int n = snprintf(known + k, sizeof known - k, "%s%s", i ? ", " : "", r->items[i]->name);
        if (n < 0 || (size_t)n >= sizeof known - k) break;
        k += (size_t)n;
    }
    return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "unknown backend '%s' (%s); known: %s", name, source,
                            known);
}

#endif /* PROPER_BACKEND_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
