/* rk_sql_lane.c: the arguments of a lane PUT's statements (rk_lane_args_pack, see
 * rk_sql.h): what the update sets, keeps or publishes, from the lane as it is in the
 * write's transaction; and the states those writes leave a lane in
 * (rk_lane_state_check, which the administration command's import applies). */
#include <stdio.h>
#include <string.h>

#include "rk_sql.h"

static int same_text(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

void rk_lane_args_pack(const rk_lane_patch *patch, const char *heat, const char *lane,
                       const rk_lane_now *now, rk_lane_args *out)
{
    int number = (patch->set & RK_LANE_SET_NUMBER) != 0;
    int spot = (patch->set & RK_LANE_SET_SPOT) != 0;
    int score = (patch->set & RK_LANE_SET_SCORE) != 0;
    int tiebreak = (patch->set & RK_LANE_SET_TIEBREAK) != 0;
    /* the score and tiebreak the lane will have */
    const char *new_score = !score ? now->score : patch->score_null ? NULL : patch->score;
    const char *new_tiebreak = !tiebreak ? now->tiebreak
                               : patch->tiebreak_null ? NULL : patch->tiebreak;
    int changed = !same_text(new_score, now->score) || !same_text(new_tiebreak, now->tiebreak);

    snprintf(out->number, sizeof(out->number), "%lld", number ? patch->number : 0LL);
    /* number flag, number, spot flag, spot id, score flag, score, tiebreak flag,
     * tiebreak, status flag, published score flag, published score, published
     * tiebreak flag, published tiebreak, heat, lane */
    out->update[0] = number ? "set" : "keep";
    out->update[1] = out->number;
    out->update[2] = !spot ? "keep" : patch->spot_null ? "null" : "set";
    out->update[3] = spot && !patch->spot_null ? patch->spot_id : "0";
    out->update[4] = !score ? "keep" : patch->score_null ? "null" : "set";
    out->update[5] = score && !patch->score_null ? patch->score : "";
    out->update[6] = !tiebreak ? "keep" : patch->tiebreak_null ? "null" : "set";
    out->update[7] = tiebreak && !patch->tiebreak_null ? patch->tiebreak : "";
    /* a change of score or tiebreak makes the lane 'entered' (no score: null); a write
     * that changes neither keeps its status */
    out->update[8] = !new_score ? "null" : changed ? "entered" : "keep";
    /* publication 'immediate': every accepted write publishes */
    out->update[9] = !now->immediate ? "keep" : new_score ? "set" : "null";
    out->update[10] = now->immediate && new_score ? new_score : "";
    out->update[11] = !now->immediate ? "keep" : new_tiebreak ? "set" : "null";
    out->update[12] = now->immediate && new_tiebreak ? new_tiebreak : "";
    out->update[13] = heat;
    out->update[14] = lane;
    /* heat, lane, number (0 = none), spot (0 = none) */
    out->conflict[0] = heat;
    out->conflict[1] = lane;
    out->conflict[2] = out->number;
    out->conflict[3] = out->update[3];
    out->query = number || spot ? RK_Q_LANE_UPDATE : RK_Q_LANE_UPDATE_SCORE;
    out->args = number || spot ? out->update : out->update + 4;
}

/* A flag of the update ('set', 'null', 'keep') applied to the value OLD: the value
 * the column gets */
static const char *applied(const char *flag, const char *value, const char *old)
{
    return !strcmp(flag, "set") ? value : !strcmp(flag, "null") ? NULL : old;
}

int rk_lane_after(const rk_lane_patch *patch, const rk_lane_args *args,
                  const char *const *before, const char **after)
{
    const char *const *u = args->update;
    int i;

    if (patch->set & RK_LANE_SET_SPOT) {
        return -1;
    }
    for (i = 0; i < RK_LANE_NCOLS; i++) {
        after[i] = before[i];
    }
    if (!strcmp(u[0], "set")) {
        after[RK_LANE_COL_NUMBER] = u[1];
    }
    after[RK_LANE_COL_SCORE] = applied(u[4], u[5], before[RK_LANE_COL_SCORE]);
    after[RK_LANE_COL_TIEBREAK] = applied(u[6], u[7], before[RK_LANE_COL_TIEBREAK]);
    after[RK_LANE_COL_STATUS] = !strcmp(u[8], "entered") ? "entered"
                                : !strcmp(u[8], "null") ? NULL : before[RK_LANE_COL_STATUS];
    return 0;
}

rk_lane_state_field rk_lane_state_check(const rk_lane_state *s, const char **why)
{
    *why = NULL;
    if (s->status && strcmp(s->status, "entered") != 0 && strcmp(s->status, "validated") != 0) {
        *why = "score_status is null, entered or validated";
        return RK_LANE_STATE_STATUS;
    }
    if (!s->score && s->status) {
        *why = "a lane without a score has no score_status (null)";
        return RK_LANE_STATE_STATUS;
    }
    if (s->score && !s->status) {
        *why = "a lane with a score is entered or validated, not null";
        return RK_LANE_STATE_STATUS;
    }
    if (s->status && strcmp(s->status, "validated") == 0) {
        if (!same_text(s->published_score, s->score)) {
            *why = "a validated lane publishes its score: published_score is the score";
            return RK_LANE_STATE_PUBLISHED_SCORE;
        }
        if (!same_text(s->published_tiebreak, s->tiebreak)) {
            *why = "a validated lane publishes its tiebreak: published_tiebreak is the tiebreak";
            return RK_LANE_STATE_PUBLISHED_TIEBREAK;
        }
    }
    return RK_LANE_STATE_OK;
}
