/* sokod admin: admin accounts from the command line. The password of a new
 * admin is read from the terminal with echo off (twice), or from the first
 * line of standard input when that is not a terminal; never from an
 * argument, which other users of the machine could read. */
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_storage.h"

#include "accounts/accounts.h"
#include "base/clock.h"
#include "base/config.h"
#include "library/audit.h"
#include "storage/storage.h"
#include "storage/storage_admin.h"
#include "storage/storage_users.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static const char synopsis[] = "sokod admin create|grant|revoke NAME [--db PATH]";

static const char about[] =
    "  create NAME   creates the account NAME with the admin right; its password is\n"
    "                read from the terminal (echo off, asked twice), or from the\n"
    "                first line of standard input when it is not a terminal\n"
    "  grant NAME    gives the existing account NAME the admin right\n"
    "  revoke NAME   takes it back\n"
    "\nEach change is recorded in the audit log. Exit status: 0 done, 1 refused or\n"
    "failed, 2 usage.\n";

/* Reads one line into buf (without its line end); false at end of input
 * or when the line does not fit. */
static bool read_line(FILE *in, char *buf, size_t cap)
{
    if (fgets(buf, (int)cap, in) == NULL)
        return false;
    size_t n = strlen(buf);
    if (n > 0 && buf[n - 1] != '\n' && !feof(in))
        return false;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
    return true;
}

/* Asks on the terminal with echo off. */
static bool ask_hidden(const char *prompt, char *buf, size_t cap)
{
    struct termios old, quiet;
    fprintf(stderr, "%s", prompt);
    fflush(stderr);
    bool echo_off = tcgetattr(STDIN_FILENO, &old) == 0;
    if (echo_off) {
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        quiet.c_lflag |= ECHONL;
        echo_off = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0;
    }
    bool ok = read_line(stdin, buf, cap);
    if (echo_off)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
    return ok;
}

/* The new password into buf; false (with a message) when there is none. */
static bool read_password(const char *name, char *buf, size_t cap)
{
    if (!isatty(STDIN_FILENO)) {
        if (!read_line(stdin, buf, cap)) {
            fprintf(stderr, "sokod admin: no password on standard input (one line)\n");
            return false;
        }
        return true;
    }
    char prompt[128], again[PASSWORD_MAX + 2];
    snprintf(prompt, sizeof prompt, "Password for %s: ", name);
    if (!ask_hidden(prompt, buf, cap) ||
        !ask_hidden("The same password again: ", again, sizeof again)) {
        fprintf(stderr, "sokod admin: no password read\n");
        return false;
    }
    bool same = strcmp(buf, again) == 0;
    sodium_memzero(again, sizeof again);
    if (!same)
        fprintf(stderr, "sokod admin: the two passwords differ\n");
    return same;
}

static int create(const char *name, const struct audit_actor *who)
{
    char password[PASSWORD_MAX + 2];
    if (!read_password(name, password, sizeof password))
        return 1;
    size_t len = strlen(password);
    if (len < PASSWORD_MIN || len > PASSWORD_MAX) {
        fprintf(stderr, "sokod admin: a password has %d to %d bytes\n", PASSWORD_MIN, PASSWORD_MAX);
        sodium_memzero(password, sizeof password);
        return 1;
    }
    char hash[crypto_pwhash_STRBYTES];
    int rc = crypto_pwhash_str(hash, password, len, crypto_pwhash_OPSLIMIT_INTERACTIVE,
                               crypto_pwhash_MEMLIMIT_INTERACTIVE);
    sodium_memzero(password, sizeof password);
    if (rc != 0) {
        fprintf(stderr, "sokod admin: cannot hash the password (out of memory?)\n");
        return 1;
    }
    int64_t id = 0;
    char target[96];
    snprintf(target, sizeof target, "user %s", name);
    int status = storage_begin();
    if (status == STORAGE_OK)
        status = storage_user_create(name, hash, clock_now(), &id);
    if (status == STORAGE_OK)
        status = storage_user_set_admin(name, true, &id);
    if (status == STORAGE_OK)
        status = audit_record(who, "admin.create", target, json_pack("{s:I}", "user_id", id));
    if (status == STORAGE_OK)
        status = storage_commit();
    else
        storage_rollback();
    if (status == STORAGE_CONFLICT) {
        fprintf(stderr,
                "sokod admin: the username '%s' is taken; 'sokod admin grant %s' makes that "
                "account an admin\n",
                name, name);
        return 1;
    }
    if (status != STORAGE_OK)
        return 1;
    printf("created the admin account '%s' (user %lld)\n", name, (long long)id);
    return 0;
}

static int set_right(const char *name, bool admin, const struct audit_actor *who)
{
    int64_t id = 0;
    char target[96];
    snprintf(target, sizeof target, "user %s", name);
    int status = storage_begin();
    if (status == STORAGE_OK)
        status = storage_user_set_admin(name, admin, &id);
    if (status == STORAGE_OK)
        status = audit_record(who, admin ? "admin.grant" : "admin.revoke", target,
                              json_pack("{s:I}", "user_id", id));
    if (status == STORAGE_OK)
        status = storage_commit();
    else
        storage_rollback();
    if (status == STORAGE_NOT_FOUND) {
        fprintf(stderr, "sokod admin: there is no account named '%s'%s\n", name,
                admin ? " ('sokod admin create' makes one)" : "");
        return 1;
    }
    if (status != STORAGE_OK)
        return 1;
    printf("%s '%s' (user %lld) the admin right\n", admin ? "gave" : "took from", name,
           (long long)id);
    return 0;
}

int cli_admin(int argc, char **argv)
{
    struct config cfg;
    int early = cli_config(&cfg, CONFIG_ADMIN, argc, argv, synopsis, about);
    if (early >= 0)
        return early;
    static const char *const actions[] = {"create", "grant", "revoke"};
    size_t action = 0;
    while (cfg.nargs == 2 && action < 3 && strcmp(cfg.args[0], actions[action]) != 0)
        action++;
    if (cfg.nargs != 2 || action == 3) {
        fprintf(stderr, "usage: %s\n", synopsis);
        return 2;
    }
    const char *name = cfg.args[1];
    /* Only a new account's name must follow today's rule: an older
     * account keeps its name, and may still be granted or refused the right. */
    if (action == 0 && !accounts_username_ok(name)) {
        fprintf(stderr, "sokod admin: %s\n", ACCOUNTS_USERNAME_RULE);
        return 2;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "sokod admin: libsodium failed to start\n");
        return 1;
    }
    if (!cli_storage_open(&cfg))
        return 1;
    struct audit_actor who;
    audit_command_line(&who);
    int status = action == 0 ? create(name, &who) : set_right(name, action == 1, &who);
    storage_shutdown();
    return status;
}
