/* rk_sse.h: the pieces of live updates that need no server: the headers a listener
 * sends (Accept, Last-Event-ID, Prefer: wait=N) and the text of a Server-Sent Event
 * for a change of a lane.  Pure C, unit-tested (check_sse). */
#ifndef RK_SSE_H
#define RK_SSE_H

#include <stddef.h>
#include <stdint.h>

/* 1 when an Accept header value (NULL: none) names text/event-stream with a q-value
 * that is not 0.  Wildcards do not count: "* / *" is what clients send by default. */
int rk_sse_accepts(const char *accept);

/* A Last-Event-ID header value as a record id: 1 to 18 digits, no sign (leading
 * zeros allowed), spaces around ignored; *ID set.  0 when absent (NULL) or empty, -1
 * when it is not such a number. */
int rk_sse_last_event_id(const char *value, int64_t *id);

/* The seconds of "wait=N" in a Prefer header value (RFC 7240; preferences separated
 * by commas, parameters after ';' ignored, the name case-insensitive, N from 1 to 60):
 * N, or 0 when there is no usable wait preference (absent, 0, over 60, not a number). */
int rk_prefer_wait(const char *prefer);

/* One change, as the change log holds it: of a lane, or (part 3) of another
 * resource. */
typedef struct {
    const char *id;              /* the record's id: the event's id */
    const char *competition_id, *zone_id, *heat_id, *lane_id;   /* zone_id may be NULL */
    const char *action;          /* "create", "update", "delete" (or "validate") */
    const char *lane;            /* the resource after the change (JSON text; NULL:
                                  * delete) */
    const char *resource;        /* NULL or "lane": a lane; else "competition", "wod",
                                  * "spot", "zone" or "heat" */
    const char *resource_id;     /* that resource's id (NULL for a lane) */
    /* for the published view (API.md part 3): the lane before the change (JSON text,
     * NULL when none), the competition's publication, the lane's published score and
     * tiebreak now (NULL: none) */
    const char *before, *publication, *published_score, *published_tiebreak;
} rk_lane_change;

/* The event of C.  A lane: "id: ...\nevent: lane\ndata: {...}\n\n", the lane under
 * KEY ("voie" or "line"); another resource: "event: change", data
 * {"action":...,"resource":"heat","id":"40","competition_id":"1","heat":{...}} (a
 * delete without the resource).  Returns its length; writes it into OUT unless OUT is
 * NULL.  A record whose resource is not one JSON value is sent as a delete-shaped
 * event without it (never broken JSON). */
size_t rk_sse_lane_event(char *out, const rk_lane_change *c, const char *key);

/* The change C as the published view shows it (API.md part 3): a competition whose
 * publication is not 'validated', a delete and a validation show as they are (*OUT =
 * *C); an update that changes neither the lane's number nor its spot changes nothing
 * there (0: no event); another update (or a create) shows the lane with the published
 * values in place of score and tiebreak, and score_status 'validated' when there is a
 * published score, else null: OUT->lane is then *LANE, malloc()ed (free it; NULL
 * otherwise).  1 (an event), 0 (none), -1 (out of memory). */
int rk_sse_published(const rk_lane_change *c, rk_lane_change *out, char **lane);

#endif
