/* The API error codes' names and HTTP statuses. */
#include "http/api_error.h"

struct row {
    const char *name;
    unsigned status;
};

/* The one place a code's status is said: call sites name the code alone,
 * and docs/api.md's tables are checked against this one. */
static const struct row rows[API_E_COUNT] = {
    [API_E_BAD_JSON] = {"bad_json", 400},
    [API_E_WRONG_TYPE] = {"wrong_type", 400},
    [API_E_UNKNOWN_FIELD] = {"unknown_field", 400},
    [API_E_MISSING_FIELD] = {"missing_field", 400},
    [API_E_INVALID_VALUE] = {"invalid_value", 400},
    [API_E_INVALID_STEPS] = {"invalid_steps", 400},
    [API_E_BAD_PATH] = {"bad_path", 400},
    [API_E_BAD_REQUEST] = {"bad_request", 400},
    [API_E_NO_SESSION] = {"no_session", 401},
    [API_E_BAD_CREDENTIALS] = {"bad_credentials", 401},
    [API_E_SIGN_IN_REQUIRED] = {"sign_in_required", 401},
    [API_E_ADMIN_REQUIRED] = {"admin_required", 403},
    [API_E_FORBIDDEN_ORIGIN] = {"forbidden_origin", 403},
    [API_E_FORBIDDEN] = {"forbidden", 403},
    [API_E_NOT_FOUND] = {"not_found", 404},
    [API_E_COLLECTION_NOT_FOUND] = {"collection_not_found", 404},
    [API_E_LEVEL_NOT_FOUND] = {"level_not_found", 404},
    [API_E_GAME_NOT_FOUND] = {"game_not_found", 404},
    [API_E_UPLOAD_NOT_FOUND] = {"upload_not_found", 404},
    [API_E_SOLUTION_NOT_FOUND] = {"solution_not_found", 404},
    [API_E_SNAPSHOT_NOT_FOUND] = {"snapshot_not_found", 404},
    [API_E_METHOD_NOT_ALLOWED] = {"method_not_allowed", 405},
    [API_E_MISDIRECTED] = {"misdirected", 421},
    [API_E_STALE_SEQ] = {"stale_seq", 409},
    [API_E_USERNAME_TAKEN] = {"username_taken", 409},
    [API_E_ALREADY_SIGNED_UP] = {"already_signed_up", 409},
    [API_E_UPLOAD_INCOMPLETE] = {"upload_incomplete", 409},
    [API_E_ALREADY_IMPORTED] = {"already_imported", 409},
    [API_E_COLLECTION_NAME_TAKEN] = {"collection_name_taken", 409},
    [API_E_BODY_TOO_LARGE] = {"body_too_large", 413},
    [API_E_UPLOAD_TOO_LARGE] = {"upload_too_large", 413},
    [API_E_UNSUPPORTED_MEDIA_TYPE] = {"unsupported_media_type", 415},
    [API_E_STEP_REFUSED] = {"step_refused", 422},
    [API_E_NOTHING_TO_UNDO] = {"nothing_to_undo", 422},
    [API_E_NOTHING_TO_REDO] = {"nothing_to_redo", 422},
    [API_E_NO_PATH] = {"no_path", 422},
    [API_E_NO_BOX] = {"no_box", 422},
    [API_E_OFF_BOARD] = {"off_board", 422},
    [API_E_GAME_TOO_LONG] = {"game_too_long", 422},
    [API_E_TOO_MANY_SNAPSHOTS] = {"too_many_snapshots", 422},
    [API_E_SNAPSHOT_TOO_LONG] = {"snapshot_too_long", 422},
    [API_E_NOT_A_SOLUTION] = {"not_a_solution", 422},
    [API_E_UNREADABLE_FILE] = {"unreadable_file", 422},
    [API_E_NOTHING_TO_IMPORT] = {"nothing_to_import", 422},
    [API_E_EXPORT_IMPOSSIBLE] = {"export_impossible", 422},
    [API_E_ROOM_NOT_FOUND] = {"room_not_found", 404},
    [API_E_NOT_HOST] = {"not_host", 403},
    [API_E_ROOM_FULL] = {"room_full", 409},
    [API_E_RACE_UNDER_WAY] = {"race_under_way", 409},
    [API_E_RACE_NOT_STARTED] = {"race_not_started", 409},
    [API_E_RACE_OVER] = {"race_over", 409},
    [API_E_UNKNOWN_DIFFICULTY] = {"unknown_difficulty", 400},
    [API_E_USER_NOT_FOUND] = {"user_not_found", 404},
    [API_E_NOT_WATCHABLE] = {"not_watchable", 403},
    [API_E_RATE_LIMITED] = {"rate_limited", 429},
    [API_E_HINT_PENDING] = {"hint_pending", 429},
    [API_E_REVERSE_GAME] = {"reverse_game", 422},
    [API_E_INTERNAL] = {"internal", 500},
    [API_E_NOT_IMPLEMENTED] = {"not_implemented", 501},
    [API_E_UNAVAILABLE] = {"unavailable", 503},
    [API_E_STORAGE_FULL] = {"storage_full", 507},
    [API_E_QUOTA_EXCEEDED] = {"quota_exceeded", 403},
    [API_E_INVALID_LEVEL] = {"invalid_level", 422},
    [API_E_DUPLICATE_LEVEL] = {"duplicate_level", 409},
    [API_E_LEVEL_UNSOLVABLE] = {"level_unsolvable", 422},
    [API_E_AUTHOR_BLOCKED] = {"author_blocked", 403},
};

const char *api_error_name(enum api_error code)
{
    if ((unsigned)code >= API_E_COUNT || rows[code].name == 0)
        return "internal";
    return rows[code].name;
}

unsigned api_error_status(enum api_error code)
{
    if ((unsigned)code >= API_E_COUNT || rows[code].status == 0)
        return 500;
    return rows[code].status;
}
