/* The audit log: who changed what in the library, and when. */
#ifndef SOKOD_AUDIT_H
#define SOKOD_AUDIT_H

#include <jansson.h>
#include <stdint.h>

/* Who acts: an admin of the API, or the command line (user_id 0). */
struct audit_actor {
    int64_t user_id;
    char name[64];
};

/* The command line as an actor: "command line (LOGIN)" from the
 * environment's user name when there is one. */
void audit_command_line(struct audit_actor *who);

/* Records an action inside the caller's transaction: `action` such as
 * "collection.rename", `target` such as "collection 4", `details` a JSON
 * object (the reference is stolen; NULL for none). Returns a STORAGE_* code. */
int audit_record(const struct audit_actor *who, const char *action, const char *target,
                 json_t *details);

#endif
