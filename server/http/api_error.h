/* The error codes of the HTTP API: one enum, one name per code. Every error
 * answer carries one of these names in {"error": {"code": ..., "message": ...}}. */
#ifndef SOKOD_API_ERROR_H
#define SOKOD_API_ERROR_H

enum api_error {
    API_E_BAD_JSON,               /* 400: the body is not JSON, or not an object */
    API_E_WRONG_TYPE,             /* 400: a field has the wrong JSON type */
    API_E_UNKNOWN_FIELD,          /* 400: a field the endpoint does not take */
    API_E_MISSING_FIELD,          /* 400: a required field is absent */
    API_E_INVALID_VALUE,          /* 400: a field's value is out of its range */
    API_E_INVALID_STEPS,          /* 400: step text with letters other than l u r d L U R D */
    API_E_BAD_PATH,               /* 400: a static path that tries to leave its folder */
    API_E_BAD_REQUEST,            /* 400: a request HTTP forbids (no Host, a bad header) */
    API_E_NO_SESSION,             /* 401: the endpoint needs a session and none was sent */
    API_E_BAD_CREDENTIALS,        /* 401: unknown username or wrong password */
    API_E_SIGN_IN_REQUIRED,       /* 401: an admin endpoint asked by a guest or nobody */
    API_E_ADMIN_REQUIRED,         /* 403: an admin endpoint asked by an account that is not one */
    API_E_FORBIDDEN_ORIGIN,       /* 403: a state-changing request from another origin */
    API_E_NOT_FOUND,              /* 404: no such route or file */
    API_E_COLLECTION_NOT_FOUND,   /* 404 */
    API_E_LEVEL_NOT_FOUND,        /* 404 */
    API_E_GAME_NOT_FOUND,         /* 404: no such game, or not the caller's */
    API_E_UPLOAD_NOT_FOUND,       /* 404: no such upload (or it expired) */
    API_E_SOLUTION_NOT_FOUND,     /* 404: no such solution, or a guest's of someone else */
    API_E_METHOD_NOT_ALLOWED,     /* 405: a known path with another method */
    API_E_MISDIRECTED,            /* 421: a Host this server does not answer for */
    API_E_STALE_SEQ,              /* 409: the game moved on since the client's seq */
    API_E_USERNAME_TAKEN,         /* 409 */
    API_E_ALREADY_SIGNED_UP,      /* 409: sign-up while signed in to an account */
    API_E_UPLOAD_INCOMPLETE,      /* 409: a part out of order, or an import before every byte */
    API_E_ALREADY_IMPORTED,       /* 409: an upload imported once already */
    API_E_COLLECTION_NAME_TAKEN,  /* 409 */
    API_E_BODY_TOO_LARGE,         /* 413 */
    API_E_UPLOAD_TOO_LARGE,       /* 413: a file beyond the upload cap */
    API_E_UNSUPPORTED_MEDIA_TYPE, /* 415: a state-changing request that is not JSON */
    API_E_STEP_REFUSED,           /* 422: a step into a wall or a blocked box */
    API_E_NOTHING_TO_UNDO,        /* 422 */
    API_E_NOTHING_TO_REDO,        /* 422 */
    API_E_NO_PATH,                /* 422: point mode found no way there */
    API_E_NO_BOX,                 /* 422: point mode on a square without a box */
    API_E_OFF_BOARD,              /* 422: a square outside the board */
    API_E_GAME_TOO_LONG,          /* 422: the game's history reached its limit */
    API_E_UNREADABLE_FILE,        /* 422: an upload that is no level file at all */
    API_E_NOTHING_TO_IMPORT,      /* 422: every level is invalid or a duplicate */
    API_E_EXPORT_IMPOSSIBLE,      /* 422: a format that cannot hold the collection */
    API_E_ROOM_NOT_FOUND,         /* 404: no such race room */
    API_E_NOT_HOST,               /* 403: only the room's host may do that */
    API_E_ROOM_FULL,              /* 409: every seat of the room is taken */
    API_E_RACE_UNDER_WAY,         /* 409: the room is racing (or counting down) */
    API_E_RACE_NOT_STARTED,       /* 409: a race step before the countdown ended */
    API_E_RACE_OVER,              /* 409: a race step after the player finished, or left */
    API_E_UNKNOWN_DIFFICULTY,     /* 400: a generated race level of no known difficulty */
    API_E_USER_NOT_FOUND,         /* 404: no such player to watch */
    API_E_NOT_WATCHABLE,          /* 403: the player does not let others watch (or is a guest) */
    API_E_RATE_LIMITED, /* 429: too many log-ins, sign-ups, rooms or race entries; see Retry-After
                         */
    API_E_HINT_PENDING, /* 429: a hint of the same game is being computed */
    API_E_INTERNAL,     /* 500 */
    API_E_NOT_IMPLEMENTED, /* 501: a transfer coding other than chunked */
    API_E_UNAVAILABLE,     /* 503: the database is busy or the server is stopping */
    API_E_STORAGE_FULL,    /* 507: the disk is full: nothing was written */
    API_E_COUNT
};

/* The code's name as it appears in answers ("level_not_found"). Never NULL. */
const char *api_error_name(enum api_error code);

#endif
