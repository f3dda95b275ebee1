/* The error codes of the HTTP API: one enum, one name and one HTTP status
 * per code (the table in api_error.c). Every error answer carries one of
 * these names in {"error": {"code": ..., "message": ...}}, with its status. */
#ifndef SOKOD_API_ERROR_H
#define SOKOD_API_ERROR_H

enum api_error {
    API_E_BAD_JSON,         /* the body is not JSON, or not an object */
    API_E_WRONG_TYPE,       /* a field has the wrong JSON type */
    API_E_UNKNOWN_FIELD,    /* a field the endpoint does not take */
    API_E_MISSING_FIELD,    /* a required field is absent */
    API_E_INVALID_VALUE,    /* a field's value is out of its range */
    API_E_INVALID_STEPS,    /* step text with letters other than l u r d L U R D */
    API_E_BAD_PATH,         /* a static path that tries to leave its folder */
    API_E_BAD_REQUEST,      /* a request HTTP forbids (no Host, a bad header) */
    API_E_NO_SESSION,       /* the endpoint needs a session and none was sent */
    API_E_BAD_CREDENTIALS,  /* unknown username or wrong password */
    API_E_SIGN_IN_REQUIRED, /* an admin endpoint asked by a guest or nobody */
    API_E_ADMIN_REQUIRED,   /* an admin endpoint asked by an account that is not one */
    API_E_FORBIDDEN_ORIGIN, /* a state-changing request from another origin */
    API_E_FORBIDDEN,        /* a client not allowed to read this (GET /metrics) */
    API_E_NOT_FOUND,        /* no such route or file */
    API_E_COLLECTION_NOT_FOUND,
    API_E_LEVEL_NOT_FOUND,
    API_E_GAME_NOT_FOUND,     /* no such game, or not the caller's */
    API_E_UPLOAD_NOT_FOUND,   /* no such upload (or it expired) */
    API_E_SOLUTION_NOT_FOUND, /* no such solution, or a guest's of someone else */
    API_E_SNAPSHOT_NOT_FOUND, /* no such saved position in the game */
    API_E_METHOD_NOT_ALLOWED, /* a known path with another method */
    API_E_MISDIRECTED,        /* a Host this server does not answer for */
    API_E_STALE_SEQ,          /* the game moved on since the client's seq */
    API_E_USERNAME_TAKEN,
    API_E_ALREADY_SIGNED_UP, /* sign-up while signed in to an account */
    API_E_UPLOAD_INCOMPLETE, /* a part out of order, or an import before every byte */
    API_E_ALREADY_IMPORTED,  /* an upload imported once already */
    API_E_COLLECTION_NAME_TAKEN,
    API_E_BODY_TOO_LARGE,
    API_E_UPLOAD_TOO_LARGE,       /* a file beyond the upload cap */
    API_E_UNSUPPORTED_MEDIA_TYPE, /* a state-changing request that is not JSON */
    API_E_STEP_REFUSED,           /* a step into a wall or a blocked box */
    API_E_NOTHING_TO_UNDO,
    API_E_NOTHING_TO_REDO,
    API_E_NO_PATH,            /* point mode found no way there */
    API_E_NO_BOX,             /* point mode on a square without a box */
    API_E_OFF_BOARD,          /* a square outside the board */
    API_E_GAME_TOO_LONG,      /* the game's history reached its limit */
    API_E_TOO_MANY_SNAPSHOTS, /* a game holds as many saved positions as it may */
    API_E_SNAPSHOT_TOO_LONG,  /* a position too many steps from the start to save */
    API_E_NOT_A_SOLUTION,     /* a submitted line that plays but leaves the level unsolved */
    API_E_UNREADABLE_FILE,    /* an upload that is no level file at all */
    API_E_NOTHING_TO_IMPORT,  /* every level is invalid or a duplicate */
    API_E_EXPORT_IMPOSSIBLE,  /* a format that cannot hold the collection */
    API_E_ROOM_NOT_FOUND,     /* no such race room */
    API_E_NOT_HOST,           /* only the room's host may do that */
    API_E_ROOM_FULL,          /* every seat of the room is taken */
    API_E_RACE_UNDER_WAY,     /* the room is racing (or counting down) */
    API_E_RACE_NOT_STARTED,   /* a race step before the countdown ended */
    API_E_RACE_OVER,          /* a race step after the player finished, or left */
    API_E_UNKNOWN_DIFFICULTY, /* a generated race level of no known difficulty */
    API_E_USER_NOT_FOUND,     /* no such player to watch */
    API_E_NOT_WATCHABLE,      /* the player does not let others watch (or is a guest) */
    API_E_RATE_LIMITED, /* too many log-ins, sign-ups, rooms or race entries; see Retry-After */
    API_E_HINT_PENDING, /* a hint of the same game is being computed */
    API_E_REVERSE_GAME, /* hints and box pushes are for forward games */
    API_E_INTERNAL,
    API_E_NOT_IMPLEMENTED,  /* a transfer coding other than chunked */
    API_E_UNAVAILABLE,      /* the database is busy or the server is stopping */
    API_E_STORAGE_FULL,     /* the disk is full: nothing was written */
    API_E_QUOTA_EXCEEDED,   /* the player's storage quota is full: nothing was written */
    API_E_INVALID_LEVEL,    /* a board to publish the core refuses, or too large */
    API_E_DUPLICATE_LEVEL,  /* a board to publish that the library holds, maybe turned */
    API_E_LEVEL_UNSOLVABLE, /* a board the solver did not solve within its limits */
    API_E_AUTHOR_BLOCKED,   /* an author an admin blocked from publishing */
    API_E_COUNT
};

/* The code's name as it appears in answers ("level_not_found"). Never NULL. */
const char *api_error_name(enum api_error code);

/* The HTTP status every answer with this code carries (404 for
 * level_not_found); 500 for a value outside the enum. */
unsigned api_error_status(enum api_error code);

#endif
