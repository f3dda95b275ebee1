/* sokod's HTTP API: every route, and the wing whose handler answers it.
 * Adding an endpoint is a row here and a handler in its wing's header. */
#include "endpoints.h"

#include "accounts/accounts.h"
#include "accounts/sessions.h"
#include "accounts/settings.h"
#include "http/ops.h"
#include "http/static_files.h"
#include "library/admin.h"
#include "library/catalog.h"
#include "library/exports.h"
#include "library/manage.h"
#include "library/uploads.h"
#include "live/live.h"
#include "live/rooms.h"
#include "live/watch.h"
#include "play/community.h"
#include "play/daily.h"
#include "play/difficulty.h"
#include "play/games.h"
#include "play/hint.h"
#include "play/leaderboard.h"
#include "play/point.h"
#include "play/progress.h"
#include "play/snapshots.h"
#include "play/stats.h"
#include "play/submitted.h"

/* Every route of sokod, with what one request may cost at most: bytes
 * added to the database, bytes held until answered and the answer's size
 * (KiB), CPU time (ms, Release build) and the limiter that bounds its
 * callers (routes.h). tests/server/route_costs.test.mjs holds each route
 * to its row; docs/operations.md lists them. The static files come last. */
const struct route endpoints_table[] = {
    {HTTP_GET, "/healthz", ops_healthz, ROUTE_COST(0, 64, 1, 5, CONNECTIONS)},
    {HTTP_GET, "/readyz", ops_readyz, ROUTE_COST(0, 64, 1, 5, CONNECTIONS)},
    {HTTP_GET, "/metrics", ops_metrics, ROUTE_COST(0, 256, 128, 20, ADDRESSES)},
    {HTTP_GET, "/api/v1/account", accounts_whoami, ROUTE_COST(0, 64, 4, 5, CONNECTIONS)},
    {HTTP_POST, "/api/v1/account/signup", accounts_signup, ROUTE_COST(4, 65536, 4, 200, AUTH)},
    {HTTP_POST, "/api/v1/account/login", accounts_login, ROUTE_COST(4, 65536, 4, 200, AUTH)},
    {HTTP_POST, "/api/v1/account/logout", accounts_logout, ROUTE_COST(1, 64, 1, 5, CONNECTIONS)},
    {HTTP_POST, "/api/v1/account/logout-all", sessions_logout_all,
     ROUTE_COST(1, 64, 1, 5, CONNECTIONS)},
    {HTTP_POST, "/api/v1/account/password", sessions_password, ROUTE_COST(4, 65536, 4, 400, AUTH)},
    {HTTP_GET, "/api/v1/account/stats", stats_get, ROUTE_COST(0, 1024, 512, 200, COST)},
    {HTTP_GET, "/api/v1/account/settings", settings_get, ROUTE_COST(0, 64, 16, 5, CONNECTIONS)},
    {HTTP_PUT, "/api/v1/account/settings", settings_put, ROUTE_COST(64, 256, 16, 2, COST)},
    {HTTP_GET, "/api/v1/collections", catalog_collections, ROUTE_COST(0, 1024, 512, 20, COST)},
    {HTTP_GET, "/api/v1/collections/{id}", catalog_collection, ROUTE_COST(0, 2048, 1024, 20, COST)},
    {HTTP_GET, "/api/v1/levels/{id}", catalog_level, ROUTE_COST(0, 256, 64, 5, COST)},
    {HTTP_GET, "/api/v1/daily", daily_get, ROUTE_COST(64, 512, 64, 100, COST)},
    {HTTP_GET, "/api/v1/daily/leaderboard", leaderboard_daily, ROUTE_COST(0, 256, 64, 5, COST)},
    {HTTP_GET, "/api/v1/daily/streak", leaderboard_streak, ROUTE_COST(0, 64, 4, 5, COST)},
    {HTTP_POST, "/api/v1/levels/{id}/game", games_open, ROUTE_COST(16, 256, 64, 20, GUESTS)},
    {HTTP_POST, "/api/v1/levels/{id}/solutions", submitted_post,
     ROUTE_COST(1536, 6144, 2, 40, COST)},
    {HTTP_GET, "/api/v1/levels/{id}/submitted", submitted_board, ROUTE_COST(0, 256, 16, 10, COST)},
    {HTTP_GET, "/api/v1/levels/{id}/leaderboard", leaderboard_level,
     ROUTE_COST(0, 256, 64, 5, COST)},
    {HTTP_POST, "/api/v1/solutions/{id}/optimise", submitted_optimise,
     ROUTE_COST(160, 266240, 160, 3000, COST)},
    {HTTP_GET, "/api/v1/solutions/{id}", leaderboard_solution, ROUTE_COST(0, 256, 8192, 30, COST)},
    {HTTP_GET, "/api/v1/games/{id}", games_get, ROUTE_COST(0, 16384, 9216, 30, COST)},
    {HTTP_POST, "/api/v1/games/{id}/log", games_log, ROUTE_COST(4608, 8192, 72, 100, STEPS)},
    {HTTP_POST, "/api/v1/games/{id}/walk", point_walk, ROUTE_COST(4608, 8192, 64, 100, STEPS)},
    {HTTP_POST, "/api/v1/games/{id}/push", point_push, ROUTE_COST(4608, 8192, 64, 100, STEPS)},
    {HTTP_GET, "/api/v1/games/{id}/reach", point_reach, ROUTE_COST(0, 256, 64, 5, COST)},
    {HTTP_POST, "/api/v1/games/{id}/hint", hint_ask, ROUTE_COST(64, 262144, 16, 3000, HINTS)},
    {HTTP_GET, "/api/v1/games/{id}/snapshots", snapshots_list, ROUTE_COST(0, 1024, 256, 5, COST)},
    {HTTP_POST, "/api/v1/games/{id}/snapshots", snapshots_save, ROUTE_COST(64, 1024, 64, 10, COST)},
    {HTTP_GET, "/api/v1/games/{id}/snapshots/{id}", snapshots_get,
     ROUTE_COST(0, 1024, 256, 5, COST)},
    {HTTP_DELETE, "/api/v1/games/{id}/snapshots/{id}", snapshots_delete,
     ROUTE_COST(1, 256, 4, 5, COST)},
    {HTTP_GET, "/api/v1/progress", progress_get, ROUTE_COST(0, 4096, 2048, 200, COST)},
    {HTTP_GET, "/api/v1/events", live_events, ROUTE_COST(0, 256, 0, 20, STREAMS)},
    {HTTP_GET, "/api/v1/rooms", rooms_list, ROUTE_COST(0, 512, 256, 5, COST)},
    {HTTP_POST, "/api/v1/rooms", rooms_create, ROUTE_COST(16, 256, 16, 50, ROOMS)},
    {HTTP_GET, "/api/v1/rooms/{id}", rooms_get, ROUTE_COST(0, 256, 64, 5, COST)},
    {HTTP_POST, "/api/v1/rooms/{id}/join", rooms_join, ROUTE_COST(16, 256, 16, 50, ROOMS)},
    {HTTP_POST, "/api/v1/rooms/{id}/leave", rooms_leave, ROUTE_COST(16, 256, 16, 50, ROOMS)},
    {HTTP_POST, "/api/v1/rooms/{id}/start", rooms_start, ROUTE_COST(64, 512, 16, 200, ROOMS)},
    {HTTP_POST, "/api/v1/rooms/{id}/rematch", rooms_rematch, ROUTE_COST(64, 512, 16, 200, ROOMS)},
    {HTTP_GET, "/api/v1/watch/{id}", watch_get, ROUTE_COST(0, 16384, 9216, 30, COST)},
    {HTTP_GET, "/api/v1/progress/export", progress_export, ROUTE_COST(0, 256, 262144, 50, COST)},
    {HTTP_GET, "/api/v1/admin/routes", admin_routes, ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_GET, "/api/v1/admin/audit", admin_audit, ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_GET, "/api/v1/admin/uploads", uploads_list,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_POST, "/api/v1/admin/uploads", uploads_create,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_GET, "/api/v1/admin/uploads/{id}", uploads_get,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_DELETE, "/api/v1/admin/uploads/{id}", uploads_discard,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_POST, "/api/v1/admin/uploads/{id}/parts", uploads_part,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_POST, "/api/v1/admin/uploads/{id}/import", uploads_import,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_GET, "/api/v1/admin/collections", manage_collections,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_PUT, "/api/v1/admin/collections/order", manage_collections_order,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_GET, "/api/v1/admin/collections/{id}", manage_collection,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_PATCH, "/api/v1/admin/collections/{id}", manage_collection_update,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_DELETE, "/api/v1/admin/collections/{id}", manage_collection_delete,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_POST, "/api/v1/admin/collections/{id}/restore", manage_collection_restore,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_PUT, "/api/v1/admin/collections/{id}/order", manage_levels_order,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_GET, "/api/v1/admin/collections/{id}/export", exports_collection,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_GET, "/api/v1/admin/levels/{id}", manage_level,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_PATCH, "/api/v1/admin/levels/{id}", manage_level_update,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_DELETE, "/api/v1/admin/levels/{id}", manage_level_delete,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_POST, "/api/v1/admin/levels/{id}/restore", manage_level_restore,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_GET, "/api/v1/levels", difficulty_levels, ROUTE_COST(0, 1024, 256, 100, COST)},
    {HTTP_GET, "/api/v1/levels/next", difficulty_next, ROUTE_COST(0, 256, 64, 50, COST)},
    {HTTP_POST, "/api/v1/community/levels", community_publish,
     ROUTE_COST(64, 262144, 4, 3000, COST)},
    {HTTP_GET, "/api/v1/community/levels", community_list, ROUTE_COST(0, 1024, 256, 50, COST)},
    {HTTP_PUT, "/api/v1/community/levels/{id}/like", community_like,
     ROUTE_COST(1, 256, 4, 10, COST)},
    {HTTP_POST, "/api/v1/community/levels/{id}/reports", community_report,
     ROUTE_COST(1, 256, 4, 10, COST)},
    {HTTP_GET, "/api/v1/admin/community", community_admin,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_PUT, "/api/v1/admin/community/authors/{id}", community_admin_block,
     ROUTE_COST(65536, 65536, 65536, 30000, ADMIN)},
    {HTTP_GET, "/core.wasm", static_wasm, ROUTE_COST(0, 64, 512, 5, CONNECTIONS)},
    {HTTP_GET, ROUTES_CATCH_ALL, static_get, ROUTE_COST(0, 64, 512, 5, CONNECTIONS)},
    {0, NULL, NULL, {0}},
};
