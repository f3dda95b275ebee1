/* Names of the API error codes. */
#include "api_error.h"

static const char *const names[API_E_COUNT] = {
    [API_E_BAD_JSON] = "bad_json",
    [API_E_WRONG_TYPE] = "wrong_type",
    [API_E_UNKNOWN_FIELD] = "unknown_field",
    [API_E_MISSING_FIELD] = "missing_field",
    [API_E_INVALID_VALUE] = "invalid_value",
    [API_E_INVALID_STEPS] = "invalid_steps",
    [API_E_BAD_PATH] = "bad_path",
    [API_E_BAD_REQUEST] = "bad_request",
    [API_E_NO_SESSION] = "no_session",
    [API_E_BAD_CREDENTIALS] = "bad_credentials",
    [API_E_SIGN_IN_REQUIRED] = "sign_in_required",
    [API_E_ADMIN_REQUIRED] = "admin_required",
    [API_E_FORBIDDEN_ORIGIN] = "forbidden_origin",
    [API_E_NOT_FOUND] = "not_found",
    [API_E_COLLECTION_NOT_FOUND] = "collection_not_found",
    [API_E_LEVEL_NOT_FOUND] = "level_not_found",
    [API_E_GAME_NOT_FOUND] = "game_not_found",
    [API_E_UPLOAD_NOT_FOUND] = "upload_not_found",
    [API_E_SOLUTION_NOT_FOUND] = "solution_not_found",
    [API_E_METHOD_NOT_ALLOWED] = "method_not_allowed",
    [API_E_STALE_SEQ] = "stale_seq",
    [API_E_USERNAME_TAKEN] = "username_taken",
    [API_E_ALREADY_SIGNED_UP] = "already_signed_up",
    [API_E_UPLOAD_INCOMPLETE] = "upload_incomplete",
    [API_E_ALREADY_IMPORTED] = "already_imported",
    [API_E_COLLECTION_NAME_TAKEN] = "collection_name_taken",
    [API_E_BODY_TOO_LARGE] = "body_too_large",
    [API_E_UPLOAD_TOO_LARGE] = "upload_too_large",
    [API_E_UNSUPPORTED_MEDIA_TYPE] = "unsupported_media_type",
    [API_E_STEP_REFUSED] = "step_refused",
    [API_E_NOTHING_TO_UNDO] = "nothing_to_undo",
    [API_E_NOTHING_TO_REDO] = "nothing_to_redo",
    [API_E_NO_PATH] = "no_path",
    [API_E_NO_BOX] = "no_box",
    [API_E_OFF_BOARD] = "off_board",
    [API_E_GAME_TOO_LONG] = "game_too_long",
    [API_E_UNREADABLE_FILE] = "unreadable_file",
    [API_E_NOTHING_TO_IMPORT] = "nothing_to_import",
    [API_E_EXPORT_IMPOSSIBLE] = "export_impossible",
    [API_E_ROOM_NOT_FOUND] = "room_not_found",
    [API_E_NOT_HOST] = "not_host",
    [API_E_ROOM_FULL] = "room_full",
    [API_E_RACE_UNDER_WAY] = "race_under_way",
    [API_E_RACE_NOT_STARTED] = "race_not_started",
    [API_E_RACE_OVER] = "race_over",
    [API_E_RATE_LIMITED] = "rate_limited",
    [API_E_INTERNAL] = "internal",
    [API_E_NOT_IMPLEMENTED] = "not_implemented",
    [API_E_UNAVAILABLE] = "unavailable",
    [API_E_STORAGE_FULL] = "storage_full",
    [API_E_HINT_PENDING] = "hint_pending",
};

const char *api_error_name(enum api_error code)
{
    if ((unsigned)code >= API_E_COUNT || names[code] == 0)
        return "internal";
    return names[code];
}
