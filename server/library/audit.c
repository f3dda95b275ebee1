/* The audit log, written through storage inside the caller's transaction. */
#include "library/audit.h"

#include "base/clock.h"
#include "storage/storage_admin.h"

#include <stdio.h>
#include <stdlib.h>

void audit_command_line(struct audit_actor *who)
{
    const char *login = getenv("USER");
    who->user_id = 0;
    if (login != NULL && login[0] != '\0')
        snprintf(who->name, sizeof who->name, "command line (%.40s)", login);
    else
        snprintf(who->name, sizeof who->name, "command line");
}

int audit_record(const struct audit_actor *who, const char *action, const char *target,
                 json_t *details)
{
    char *text = details != NULL ? json_dumps(details, JSON_COMPACT) : NULL;
    json_decref(details);
    int status = storage_audit_add(who->user_id, who->name, action, target,
                                   text != NULL ? text : "{}", clock_now());
    free(text);
    return status;
}
