/* backend_native.h — the built-in backend "native": proper's own engines
 * behind backend.h's plugin interface, so that a program (or the CLI's
 * `--backend native`) can pick them like any external tool.
 *
 *   check_dtmc  builds the request's model with prism.h (or reads PRISM
 *               explicit files with dtmc.h), parses its one property and
 *               checks it with dtmc.h's solvers; rel_precision becomes the
 *               solver's relative stopping target, and error_estimate is
 *               that target times |value| (0 for an infinite value);
 *   solve_lp    lp.h's simplex (proper_lp_solve with the request's options).
 *
 * It is a module of its own so that backend.h (the interface, the registry,
 * the runner) needs only core.h. Register it like any backend:
 *
 *     proper_backend_registry reg;
 *     proper_backend_registry_init(&reg);
 *     proper_backend_register(&reg, proper_backend_native(), &err);
 */
#ifndef PROPER_BACKEND_NATIVE_H
#define PROPER_BACKEND_NATIVE_H

#include "backend.h"
#include "lp.h"
#include "prism.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The native backend: probe reports "proper <version>" with no path. */
PROPER_API const proper_backend *proper_backend_native(void);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_BACKEND_NATIVE_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_BACKEND_NATIVE_IMPLEMENTATION
#define PROPER_BACKEND_NATIVE_IMPLEMENTATION

#include <math.h>
#include <stdio.h>
#include <string.h>

static int proper__backend_native_probe(const proper_backend *self, proper_backend_info *info, proper_error *err) {
    (void)self;
    (void)err;
    info->installed = 1;
    snprintf(info->version, sizeof info->version, "proper %s", PROPER_VERSION_STRING);
    info->path[0] = '\0';
    return PROPER_OK;
}

/* The model of a request: built from the PRISM language after the
 * properties have set its constants, or read from explicit files. */
static int proper__backend_native_model(const proper_backend_check_request *req, proper_dtmc *d, proper_error *err) {
    int rc;
    if (req->model_kind != PROPER_BACKEND_MODEL_EXPLICIT) return PROPER_OK;
    if ((rc = proper_dtmc_read_tra(d, req->model_path, NULL, err)) ||
        (rc = proper_dtmc_read_lab(d, req->labels_path, err)) ||
        (req->state_rewards_path && (rc = proper_dtmc_read_srew(d, req->state_rewards_path, NULL, err))) ||
        (req->trans_rewards_path && (rc = proper_dtmc_read_trew(d, req->trans_rewards_path, NULL, err))) ||
        (req->states_path && (rc = proper_dtmc_read_sta(d, req->states_path, err))))
        return rc;
    return PROPER_OK;
}

/* The DTMC and the one property of a request, built in-process. */
static int proper__backend_native_load(const proper_backend_check_request *req, proper_prism_model **model,
                                       proper_prism_props **props, proper_dtmc *d, proper_error *err) {
    int rc;
    const char *prop = req->property;
    if (req->model_kind != PROPER_BACKEND_MODEL_PRISM && req->model_kind != PROPER_BACKEND_MODEL_EXPLICIT)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "unknown model kind %d", req->model_kind);
    if (req->model_kind == PROPER_BACKEND_MODEL_PRISM && (rc = proper_prism_read(model, req->model_path, err)))
        return rc;
    if ((rc = proper__backend_native_model(req, d, err))) return rc;
    if (req->model_kind == PROPER_BACKEND_MODEL_EXPLICIT && d->n_vars &&
        (rc = proper_prism_model_of_valuations(model, d, req->states_path, err)))
        return rc;
    if ((rc = proper_prism_props_parse(props, *model, prop, strlen(prop), "(property)", err))) return rc;
    if (proper_prism_props_count(*props) != 1)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a check request takes one property (got %zu)",
                                proper_prism_props_count(*props));
    if (req->constants && *req->constants && (rc = proper_prism_set_consts(*model, *props, req->constants, err)))
        return rc;
    if (req->model_kind == PROPER_BACKEND_MODEL_PRISM) return proper_prism_build(*model, NULL, d, err);
    return PROPER_OK;
}

static int proper__backend_native_check(const proper_backend *self, const proper_backend_check_request *req,
                                        proper_backend_check_result *out, proper_error *err) {
    proper_prism_model *model = NULL;
    proper_prism_props *props = NULL;
    proper_prism_check_opts opts = proper_prism_check_opts_default();
    proper_dtmc d;
    int64_t start = proper_trace_now();
    double value = NAN;
    int rc;
    (void)self;
    proper_dtmc_init(&d);
    if (req->rel_precision > 0.0) opts.solve.rel_precision = req->rel_precision;
    rc = proper__backend_native_load(req, &model, &props, &d, err);
    if (rc == PROPER_OK) rc = proper_prism_props_check(props, 0, &d, &opts, &value, err);
    proper_prism_props_free(props);
    proper_prism_free(model);
    proper_dtmc_free(&d);
    if (rc) return rc;
    out->seconds = 1e-9 * (double)(proper_trace_now() - start);
    out->value = value;
    out->error_estimate = isfinite(value) ? fabs(value) * opts.solve.rel_precision : 0.0;
    out->exact[0] = '\0';
    return PROPER_OK;
}

static int proper__backend_native_solve_lp(const proper_backend *self, const proper_backend_lp_request *req,
                                           proper_lp_solution *sol, proper_error *err) {
    (void)self;
    return proper_lp_solve(req->lp, req->options, sol, err);
}

static const proper_backend proper__backend_native_backend = {
    "native",
    "built in: prism.h/dtmc.h model checking, lp.h simplex",
    proper__backend_native_probe,
    proper__backend_native_check,
    proper__backend_native_solve_lp,
    NULL
};

PROPER_API const proper_backend *proper_backend_native(void) { return &proper__backend_native_backend; }

#endif /* PROPER_BACKEND_NATIVE_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
