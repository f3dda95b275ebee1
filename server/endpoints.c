/* sokod's HTTP API: every route, and the wing whose handler answers it.
 * Adding an endpoint is a row here and a handler in its wing's header. */
#include "endpoints.h"

#include "accounts/accounts.h"
#include "accounts/sessions.h"
#include "accounts/settings.h"
#include "http/static_files.h"
#include "library/admin.h"
#include "library/catalog.h"
#include "library/exports.h"
#include "library/manage.h"
#include "library/uploads.h"
#include "live/live.h"
#include "live/rooms.h"
#include "live/watch.h"
#include "play/daily.h"
#include "play/games.h"
#include "play/hint.h"
#include "play/leaderboard.h"
#include "play/point.h"
#include "play/progress.h"

/* Every route of sokod. The static files come last. */
const struct route endpoints_table[] = {
    {HTTP_GET, "/api/v1/account", accounts_whoami},
    {HTTP_POST, "/api/v1/account/signup", accounts_signup},
    {HTTP_POST, "/api/v1/account/login", accounts_login},
    {HTTP_POST, "/api/v1/account/logout", accounts_logout},
    {HTTP_POST, "/api/v1/account/logout-all", sessions_logout_all},
    {HTTP_POST, "/api/v1/account/password", sessions_password},
    {HTTP_GET, "/api/v1/account/settings", settings_get},
    {HTTP_PUT, "/api/v1/account/settings", settings_put},
    {HTTP_GET, "/api/v1/collections", catalog_collections},
    {HTTP_GET, "/api/v1/collections/{id}", catalog_collection},
    {HTTP_GET, "/api/v1/levels/{id}", catalog_level},
    {HTTP_GET, "/api/v1/daily", daily_get},
    {HTTP_GET, "/api/v1/daily/leaderboard", leaderboard_daily},
    {HTTP_GET, "/api/v1/daily/streak", leaderboard_streak},
    {HTTP_POST, "/api/v1/levels/{id}/game", games_open},
    {HTTP_GET, "/api/v1/levels/{id}/leaderboard", leaderboard_level},
    {HTTP_GET, "/api/v1/solutions/{id}", leaderboard_solution},
    {HTTP_GET, "/api/v1/games/{id}", games_get},
    {HTTP_POST, "/api/v1/games/{id}/log", games_log},
    {HTTP_POST, "/api/v1/games/{id}/walk", point_walk},
    {HTTP_POST, "/api/v1/games/{id}/push", point_push},
    {HTTP_GET, "/api/v1/games/{id}/reach", point_reach},
    {HTTP_POST, "/api/v1/games/{id}/hint", hint_ask},
    {HTTP_GET, "/api/v1/progress", progress_get},
    {HTTP_GET, "/api/v1/events", live_events},
    {HTTP_GET, "/api/v1/rooms", rooms_list},
    {HTTP_POST, "/api/v1/rooms", rooms_create},
    {HTTP_GET, "/api/v1/rooms/{id}", rooms_get},
    {HTTP_POST, "/api/v1/rooms/{id}/join", rooms_join},
    {HTTP_POST, "/api/v1/rooms/{id}/leave", rooms_leave},
    {HTTP_POST, "/api/v1/rooms/{id}/start", rooms_start},
    {HTTP_POST, "/api/v1/rooms/{id}/rematch", rooms_rematch},
    {HTTP_GET, "/api/v1/watch/{id}", watch_get},
    {HTTP_GET, "/api/v1/progress/export", progress_export},
    {HTTP_GET, "/api/v1/admin/routes", admin_routes},
    {HTTP_GET, "/api/v1/admin/audit", admin_audit},
    {HTTP_GET, "/api/v1/admin/uploads", uploads_list},
    {HTTP_POST, "/api/v1/admin/uploads", uploads_create},
    {HTTP_GET, "/api/v1/admin/uploads/{id}", uploads_get},
    {HTTP_DELETE, "/api/v1/admin/uploads/{id}", uploads_discard},
    {HTTP_POST, "/api/v1/admin/uploads/{id}/parts", uploads_part},
    {HTTP_POST, "/api/v1/admin/uploads/{id}/import", uploads_import},
    {HTTP_GET, "/api/v1/admin/collections", manage_collections},
    {HTTP_PUT, "/api/v1/admin/collections/order", manage_collections_order},
    {HTTP_GET, "/api/v1/admin/collections/{id}", manage_collection},
    {HTTP_PATCH, "/api/v1/admin/collections/{id}", manage_collection_update},
    {HTTP_DELETE, "/api/v1/admin/collections/{id}", manage_collection_delete},
    {HTTP_POST, "/api/v1/admin/collections/{id}/restore", manage_collection_restore},
    {HTTP_PUT, "/api/v1/admin/collections/{id}/order", manage_levels_order},
    {HTTP_GET, "/api/v1/admin/collections/{id}/export", exports_collection},
    {HTTP_GET, "/api/v1/admin/levels/{id}", manage_level},
    {HTTP_PATCH, "/api/v1/admin/levels/{id}", manage_level_update},
    {HTTP_DELETE, "/api/v1/admin/levels/{id}", manage_level_delete},
    {HTTP_POST, "/api/v1/admin/levels/{id}/restore", manage_level_restore},
    {HTTP_GET, "/core.wasm", static_wasm},
    {HTTP_GET, ROUTES_CATCH_ALL, static_get},
    {0, NULL, NULL},
};
