/* Every endpoint handler, for the routing table. Each lives in the file
 * named by its prefix and answers through the http.h reply functions. */
#ifndef SOKOD_HANDLERS_H
#define SOKOD_HANDLERS_H

#include "http/http.h"

/* accounts.c */
int accounts_whoami(struct http_conn *c);
int accounts_signup(struct http_conn *c);
int accounts_login(struct http_conn *c);
int accounts_logout(struct http_conn *c);

/* sessions.c */
int sessions_logout_all(struct http_conn *c);
int sessions_password(struct http_conn *c);

/* catalog.c */
int catalog_collections(struct http_conn *c);
int catalog_collection(struct http_conn *c);
int catalog_level(struct http_conn *c);
/* The level as GET /api/v1/levels/{id} shows it to `user` (rows included),
 * in *out (a new reference). Returns a STORAGE_* code; *out is NULL unless
 * STORAGE_OK. */
int catalog_level_object(int64_t id, int64_t user, json_t **out);

/* daily.c */
int daily_get(struct http_conn *c);

/* games.c */
int games_open(struct http_conn *c);
int games_get(struct http_conn *c);
int games_log(struct http_conn *c);

/* point.c */
int point_walk(struct http_conn *c);
int point_push(struct http_conn *c);
int point_reach(struct http_conn *c);

/* hint.c */
int hint_ask(struct http_conn *c);

/* progress.c */
int progress_get(struct http_conn *c);
int progress_export(struct http_conn *c);

/* leaderboard.c */
int leaderboard_level(struct http_conn *c);
int leaderboard_solution(struct http_conn *c);
int leaderboard_daily(struct http_conn *c);
int leaderboard_streak(struct http_conn *c);

/* admin.c: every handler under /api/v1/admin/ calls admin_require first */
int admin_routes(struct http_conn *c);
int admin_audit(struct http_conn *c);

/* uploads.c */
int uploads_list(struct http_conn *c);
int uploads_create(struct http_conn *c);
int uploads_get(struct http_conn *c);
int uploads_discard(struct http_conn *c);
int uploads_part(struct http_conn *c);
int uploads_import(struct http_conn *c);

/* manage.c */
int manage_collections(struct http_conn *c);
int manage_collections_order(struct http_conn *c);
int manage_collection(struct http_conn *c);
int manage_collection_update(struct http_conn *c);
int manage_collection_delete(struct http_conn *c);
int manage_collection_restore(struct http_conn *c);
int manage_levels_order(struct http_conn *c);
int manage_level(struct http_conn *c);
int manage_level_update(struct http_conn *c);
int manage_level_delete(struct http_conn *c);
int manage_level_restore(struct http_conn *c);

/* exports.c */
int exports_collection(struct http_conn *c);

/* live.c */
int live_events(struct http_conn *c);

/* rooms.c */
int rooms_list(struct http_conn *c);
int rooms_create(struct http_conn *c);
int rooms_get(struct http_conn *c);
int rooms_join(struct http_conn *c);
int rooms_leave(struct http_conn *c);
int rooms_start(struct http_conn *c);
int rooms_rematch(struct http_conn *c);

/* watch.c */
int watch_get(struct http_conn *c);

/* static_files.c */
int static_wasm(struct http_conn *c);
int static_get(struct http_conn *c);

#endif
