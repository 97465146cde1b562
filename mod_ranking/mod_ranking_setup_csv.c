/* mod_ranking_setup_csv.c: POST /competition/{c}/spot/ with Content-Type: text/csv,
 * a competition's team list from a spreadsheet (API.md part 3).  The rules are
 * rk_spots_csv's, the one implementation the administration command's import-spots
 * uses too: here the competition's spots are read, the file planned against them and
 * the plan written, all in one write transaction (all lines or none), each spot
 * added or updated recorded in the change log like a POST or PATCH of it. */
#include "mod_ranking_setup.h"
#include "mod_ranking_answer.h"
#include "mod_ranking_body.h"
#include "mod_ranking_changes.h"
#include "mod_ranking_idem.h"
#include "mod_ranking_request.h"
#include "rk_json.h"
#include "rk_spots_csv.h"

typedef struct {
    request_rec *r;
    rkm_db *db;
    const char *comp;       /* the competition's id */
    const char *text;       /* the file */
    apr_size_t len;
    rk_spots_plan *plan;
    const char *err;        /* a 400's message */
    const char *answer;     /* the answer's body, made before the commit */
    size_t answer_len;
} csv_import;

/* The spot ID of the competition as a GET shows it (its JSON object), or NULL. */
static const char *spot_shown(csv_import *im, const char *id)
{
    const char *args[2] = { im->comp, id }, *v[6];
    size_t n;
    char *out;

    if (rkm_db_select_one(im->r, im->db, RK_Q_SPOT, args, v, rk_res_spot.nfields) != 1) {
        return NULL;
    }
    n = rk_json_object(NULL, &rk_res_spot, v);
    out = apr_palloc(im->r->pool, n + 1);
    rk_json_object(out, &rk_res_spot, v);
    out[n] = '\0';
    return out;
}

/* The plan of the file against the competition's spots: 0, 400 (IM->err), 503. */
static int plan(csv_import *im)
{
    const char *args[1] = { im->comp };
    apr_array_header_t *rows = NULL, *errors;
    rk_spot_known *known;
    int i;

    if (rkm_db_select_rows(im->r, im->r->pool, im->r->pool, im->db, RK_Q_SETUP_SPOT_KNOWN, args, 3,
                           &rows) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    known = apr_pcalloc(im->r->pool, sizeof(*known) * (size_t)(rows->nelts + 1));
    for (i = 0; i < rows->nelts; i++) {
        const char **v = (const char **)rows->elts + 3 * i;

        known[i].id = v[0];
        known[i].name = v[1] ? v[1] : "";
        known[i].bib = v[2];
    }
    errors = apr_array_make(im->r->pool, 4, sizeof(const char *));
    im->plan = rk_spots_csv_plan(im->r->pool, im->text, im->len, known, (size_t)rows->nelts, errors);
    if (!im->plan) {
        im->err = apr_pstrcat(im->r->pool, "Invalid body: ",
                              errors->nelts ? APR_ARRAY_IDX(errors, 0, const char *)
                                            : "not a team list", NULL);
        return HTTP_BAD_REQUEST;
    }
    return 0;
}

/* One line of the plan written and recorded (BEFORE: the spot as shown before the
 * import, NULL for a new one). */
static int write_line(csv_import *im, rk_spot_line *l, const char *before)
{
    const char *args[6], *v[1], *id = l->id, *after;
    int nrows = 0;

    if (!id) {
        if (rkm_db_select_one(im->r, im->db, RK_Q_SETUP_SPOT_NEXT, NULL, v, 1) != 1 || !v[0]) {
            return -1;
        }
        id = v[0];
        args[0] = id;
        args[1] = im->comp;
        args[2] = l->name;
        args[3] = l->division;
        args[4] = l->affiliate;
        args[5] = l->bib;
    }
    else {
        args[0] = l->name;
        args[1] = l->division;
        args[2] = l->affiliate;
        args[3] = l->bib;
        args[4] = im->comp;
        args[5] = id;
    }
    if (rkm_db_query(im->r, im->db, l->id ? RK_Q_SETUP_SPOT_UPDATE : RK_Q_SETUP_SPOT_INSERT, args,
                     &nrows, APLOG_ERR) != 0 || nrows != 1 || !(after = spot_shown(im, id))) {
        return -1;
    }
    return rkm_changes_record_resource(im->r, im->db, "spot", im->comp, NULL, NULL, id,
                                       l->id ? "update" : "create", before, after);
}

/* The plan written: the spots as they were, the bibs that move cleared (so that two
 * spots may swap them), then each line.  0, or -1 (rolled back by the caller). */
static int write_plan(csv_import *im)
{
    apr_array_header_t *lines = im->plan->lines;
    const char **before = apr_pcalloc(im->r->pool, sizeof(*before) * (size_t)(lines->nelts + 1));
    int i;

    for (i = 0; i < lines->nelts; i++) {
        rk_spot_line *l = &APR_ARRAY_IDX(lines, i, rk_spot_line);

        if (l->id && !(before[i] = spot_shown(im, l->id))) {
            return -1;
        }
    }
    for (i = 0; i < lines->nelts; i++) {
        rk_spot_line *l = &APR_ARRAY_IDX(lines, i, rk_spot_line);
        const char *args[2] = { im->comp, l->id };
        int nrows = 0;

        if (l->id && l->bib_changes
            && rkm_db_query(im->r, im->db, RK_Q_SETUP_SPOT_CLEAR_BIB, args, &nrows, APLOG_ERR) != 0) {
            return -1;
        }
    }
    for (i = 0; i < lines->nelts; i++) {
        if (write_line(im, &APR_ARRAY_IDX(lines, i, rk_spot_line), before[i]) != 0) {
            return -1;
        }
    }
    return 0;
}

/* The import in one write transaction: HTTP_OK, or the status of the refusal. */
/* The answer, made in the transaction so that its Idempotency-Key is kept with the
 * write: 0, or -1 (or 1: the key was taken meanwhile, mod_ranking_idem.h). */
static int keep_answer(csv_import *im)
{
    json_t *answer = json_object();

    json_object_set_new(answer, "status", json_string("success"));
    json_object_set_new(answer, "added", json_integer(im->plan->added));
    json_object_set_new(answer, "updated", json_integer(im->plan->updated));
    if (!(im->answer = rkm_json_text(im->r, answer, &im->answer_len))) {
        return -1;
    }
    return rkm_idem_keep(im->r, im->db, HTTP_OK, im->answer, im->answer_len, NULL, NULL);
}

static int run_import(csv_import *im)
{
    apr_time_t deadline = apr_time_now() + apr_time_from_msec(RKM_WRITE_WAIT_MS);
    const char *args[1] = { im->comp }, *v[1];
    int rv;

    if (rkm_db_write_lock_until(im->r, im->db, deadline) != 0) {
        return HTTP_SERVICE_UNAVAILABLE;
    }
    if (rkm_db_begin_write(im->r, im->db, deadline) != 0) {
        rkm_changes_write_done(im->db);
        return HTTP_SERVICE_UNAVAILABLE;
    }
    switch (rkm_db_select_one(im->r, im->db, RK_Q_SETUP_COMP_ROW, args, v, 1)) {
    case -1: rv = HTTP_SERVICE_UNAVAILABLE; break;
    case 0:  rv = HTTP_NOT_FOUND; break;   /* deleted meanwhile */
    default:
        rv = plan(im);
        if (rv == 0 && (write_plan(im) != 0 || keep_answer(im) != 0)) {
            rv = HTTP_SERVICE_UNAVAILABLE;
        }
    }
    if (rv == 0 && rkm_db_commit(im->r, im->db) != 0) {
        rv = HTTP_SERVICE_UNAVAILABLE;
    }
    if (rv != 0) {
        rkm_db_rollback(im->r, im->db);
    }
    rkm_changes_write_done(im->db);
    return rv == 0 ? HTTP_OK : rv;
}

int rkm_setup_csv(request_rec *r, rkm_req *rq, rkm_db *db)
{
    csv_import im;
    char *text;
    int rv;

    memset(&im, 0, sizeof(im));
    im.r = r;
    im.db = db;
    im.comp = rq->route.ids[RK_ID_COMPETITION];
    if ((rv = rkm_take_csv_body(r, &text, &im.len)) != OK) {
        return rv;
    }
    im.text = text;
    if ((rv = run_import(&im)) != HTTP_OK) {
        return rkm_send_error(r, rv, im.err);
    }
    ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "team list of competition %s by %s: %d added, "
                  "%d updated", im.comp, r->user ? r->user : "-", im.plan->added, im.plan->updated);
    return rkm_send_body(r, HTTP_OK, im.answer, im.answer_len);
}
