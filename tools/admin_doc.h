/* admin_doc.h: the competition document of `ranking-admin export` and `import`, and
 * every check of an import that needs no database.  Pure C + jansson + APR pools, no
 * httpd header: the document and its statements are admin_doc.c's, the checks of an
 * import admin_check.c's (the shape of a row admin_shape.c's); the command (admin_data.c) reads and writes the rows.
 *
 * The document (keys in this order, every key always present, no other key):
 *   {"version":2,
 *    "competition":{id,name,location,start_date,end_date,timezone,status,ranking,
 *                   publication,advance},
 *    "wods":[{id,competition_id,name,description,position,scoring,time_cap},...],
 *    "spots":[{id,competition_id,name,division,affiliate,bib},...],
 *    "zones":[{id,competition_id,name,lane_count},...],
 *    "heats":[{id,competition_id,zone_id,wod_id,number,start_time,status},...],
 *    "lanes":[{id,heat_id,number,spot_id,score,tiebreak,score_status,
 *              published_score,published_tiebreak},...],
 *    "origin":{"tags":{"competition":{ID:TAG},"wods":{ID:TAG,...},...}}}
 * Version 1 (the release before schema version 3) is the same without the
 * competition's publication and advance and the lanes' score_status and published_*
 * (the last columns of their tables: ncols_v1 below): import still reads it, each
 * missing value being what the upgrade to schema 3 gives a row (admin_row_upgrade),
 * and its origin's tags are of the version 1 columns (admin_origin.c).
 * "origin" is export's (admin_origin.c): what the document was made from; a
 * document without it (written by hand) is imported as it says.  An import may
 * leave out an empty list (and the origin); export writes every key.
 * with the API's field names and types (doc/api.md): ids are strings of decimal
 * digits (1 to 9223372036854775807, no leading zero), integers are numbers, absent
 * values null.  Each list in id order (export writes it so; import takes any order).
 *
 * A table's row is an array of its columns' values as text, in the order above
 * (which is also the order of the columns in the statements): NULL is SQL NULL,
 * integers are decimal text. */
#ifndef ADMIN_DOC_H
#define ADMIN_DOC_H

#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

#define ADMIN_DOC_VERSION 2         /* what export writes */
#define ADMIN_DOC_VERSION_OLDEST 1  /* the oldest import reads */

typedef enum {
    AD_COMPETITION = 0,
    AD_WOD,
    AD_SPOT,
    AD_ZONE,
    AD_HEAT,
    AD_LANE,
    AD_NTABLES
} admin_table;

typedef enum {
    AC_ID,          /* the row's id: an id string */
    AC_PARENT,      /* competition_id (the competition's id) or heat_id: an id string */
    AC_REF,         /* an id string or null */
    AC_TEXT,        /* a string ("" allowed) */
    AC_NTEXT,       /* a string or null */
    AC_INT,         /* an integer from min to max */
    AC_NINT,        /* an integer from min to max, or null */
    AC_ENUM,        /* one of the strings of values */
    AC_NENUM,       /* one of the strings of values, or null */
    AC_DATE,        /* "YYYY-MM-DD" (a real date) or null */
    AC_INSTANT,     /* "YYYY-MM-DDTHH:MM:SSZ" (a real date and time) or null */
    AC_SCORE        /* a string of at most 64 code points, or null (the scoring's
                     * rules are checked with the heat's WOD) */
} admin_col_type;

typedef struct {
    const char *name;
    admin_col_type type;
    long long min, max;
    const char *const *values;      /* AC_ENUM: NULL-terminated */
} admin_col;

typedef struct {
    const char *name;               /* "wod": in messages */
    const char *key;                /* "wods": the document's key */
    const char *sql;                /* the table's name in SQL */
    const admin_col *cols;
    int ncols;
    int ncols_v1;                   /* the first ones: those of a version 1 document */
} admin_table_def;

extern const admin_table_def admin_tables[AD_NTABLES];

/* Column indices used by the checks. */
enum {
    AD_WOD_SCORING = 5, AD_WOD_TIME_CAP = 6,
    AD_SPOT_BIB = 5,
    AD_ZONE_LANE_COUNT = 3,
    AD_HEAT_ZONE = 2, AD_HEAT_WOD = 3,
    AD_LANE_HEAT = 1, AD_LANE_NUMBER = 2, AD_LANE_SPOT = 3, AD_LANE_SCORE = 4,
    AD_LANE_TIEBREAK = 5,
    /* schema version 3's, not in a version 1 document */
    AD_COMPETITION_PUBLICATION = 8, AD_COMPETITION_ADVANCE = 9,
    AD_LANE_STATUS = 6, AD_LANE_PUBLISHED_SCORE = 7, AD_LANE_PUBLISHED_TIEBREAK = 8
};

/* A competition's rows: rows[t] is an array of (const char **) rows of table t;
 * the competition table holds one row (or none: not in the database). */
typedef struct {
    apr_array_header_t *rows[AD_NTABLES];
} admin_doc;

/* Row I of table T of document D (a const char **). */
#define ADMIN_DOC_ROW(d, t, i) APR_ARRAY_IDX((d)->rows[t], (i), const char **)

/* An empty document (every table without a row), in P. */
admin_doc *admin_doc_make(apr_pool_t *p);

/* Append a row of table T (ncols values, copied into P). */
void admin_doc_add(apr_pool_t *p, admin_doc *d, admin_table t, const char *const *values);

/* Fill the columns of ROW of table T that a version 1 document lacks (from
 * ncols_v1 on) with what the upgrade to schema 3 (sql/upgrade/sqlite/003.sql and
 * pgsql/003.sql) gives an existing row: publication 'immediate', no advance;
 * score_status 'entered' when there is a score (else null), the score and tiebreak
 * published as they are.  The values point into ROW or are static. */
void admin_row_upgrade(admin_table t, const char **row);

/* The document as JSON (the form above), a new reference; NULL when out of memory
 * or when a value in the rows is not what its column holds (an integer column that
 * does not read as one). */
json_t *admin_doc_to_json(const admin_doc *d);

/* Where an id of table T lives in the database outside the competition being
 * imported: the id of the competition it belongs to (a lane: its heat's), or NULL
 * when the database has no such row.  Asked only for ids that are not rows of the
 * competition (BASE below). */
typedef const char *(*admin_owner_fn)(void *ctx, admin_table t, const char *id);

/* What the import writes, once the document is accepted. */
typedef struct {
    admin_doc *doc;                 /* the document's rows */
    /* exists[t][i]: row i of doc table t is already in the database (an update) */
    unsigned char *exists[AD_NTABLES];
    /* with replace: the ids of the competition's rows that the document does not
     * have, to delete (arrays of const char *) */
    apr_array_header_t *remove[AD_NTABLES];
    int competition_exists;
    int version;                    /* the document's version */
} admin_import;

/* Check the document JSON against the competition's rows in the database (BASE:
 * the rows of the competition with the document's id, empty when it is new) and
 * OWNER for ids outside it.  REPLACE: the rows of the competition that the document
 * lacks are deleted (else they stay, and the checks see them with the document's
 * rows, an id in both being the document's).  Checks, all of them, every error
 * recorded: the shape (keys, types, ranges, formats), ids unique in each list, each
 * child's competition_id, references (a heat's zone and WOD, a lane's heat and spot:
 * in the document or the competition's rows), ids of another competition, lane
 * numbers within the heat's zone (1 to its lane_count, 1 to 999 without zone) and
 * unique in a heat, a spot in at most one lane of a heat, bibs unique in the
 * competition, each score by the scoring and cap of its heat's WOD (rk_score.h) and
 * each tiebreak a time, each lane's score_status and published values as the API
 * leaves them (rk_lane_state_check) and its published tiebreak a time.  A version 1
 * document's rows get the values admin_row_upgrade gives.
 *
 * Returns the plan in P when the document is accepted, else NULL with the errors
 * (strings "PATH: message", in document order) appended to ERRORS (an array of
 * const char *). */
admin_import *admin_doc_check(apr_pool_t *p, json_t *json, const admin_doc *base,
                              admin_owner_fn owner, void *ctx, int replace,
                              apr_array_header_t *errors);

/* ------------------------------------------------------------------ origin (admin_origin.c) */

/* The tag of ROW of table T (16 hex digits, in P): a hash of its columns' values. */
const char *admin_row_tag(apr_pool_t *p, admin_table t, const char *const *row);

/* The tag a version VERSION export gave ROW (a row of every column, as the database
 * has it now): admin_row_tag for the current version; for version 1, the hash of
 * its version 1 columns when the others are what admin_row_upgrade gives (the row
 * as that export saw it, upgraded since), else NULL (a row no version 1 export can
 * have given: it changed since). */
const char *admin_row_tag_version(apr_pool_t *p, admin_table t, const char *const *row,
                                  int version);

/* Add to the exported document JSON the key "origin": {"tags": {KEY: {ID: TAG}}}, the
 * tag of every row of D by table.  0, or -1 when out of memory. */
int admin_origin_add(apr_pool_t *p, json_t *json, const admin_doc *d);

/* The rows that the import IM of the document JSON would overwrite although they
 * changed in the database (BASE: its rows now) since the export that JSON's origin
 * records (or that --replace would delete although they changed): each one
 * appended to ERRORS ("PATH: what changed").  Returns their number (0 for a
 * document without origin), or -1 after an error of the origin's shape (appended
 * too). */
int admin_origin_conflicts(apr_pool_t *p, json_t *json, const admin_import *im,
                           const admin_doc *base, apr_array_header_t *errors);

/* The competition id of the document JSON as text ("competition"."id" when it is an
 * id string), or NULL. */
const char *admin_doc_competition_id(json_t *json);

/* ------------------------------------------------------------------ statements */

/* The statements of export and import, built from the tables above (apr_dbd
 * placeholders: %lld for ids and integers, %s for text), in P:
 *   select  the competition's rows of table T, in id order (1 argument: the
 *           competition's id; a lane's competition is its heat's);
 *   owner   the competition of the row of T with an id (1 argument; a lane: its heat's;
 *           the competition table: its own id);
 *   update  every column but the id, then the id (ncols arguments, the id last);
 *   insert  every column in order (ncols arguments);
 *   delete  the row with an id (1 argument). */
const char *admin_sql_select(apr_pool_t *p, admin_table t);
const char *admin_sql_owner(apr_pool_t *p, admin_table t);
const char *admin_sql_update(apr_pool_t *p, admin_table t);
const char *admin_sql_insert(apr_pool_t *p, admin_table t);
const char *admin_sql_delete(apr_pool_t *p, admin_table t);

#endif
