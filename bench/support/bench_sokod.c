/* Starting and stopping the sokod of a benchmark. */
#include "bench_sokod.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LISTENING "listening on http://127.0.0.1:"

bool bench_sokod_prepare(struct bench_sokod *s, const char *name, char *why, size_t cap)
{
    s->pid = -1;
    s->port = 0;
    snprintf(s->dir, sizeof s->dir, "/tmp/sokod-bench-%s-XXXXXX", name);
    if (mkdtemp(s->dir) == NULL) {
        s->dir[0] = '\0';
        snprintf(why, cap, "cannot make a temporary folder");
        return false;
    }
    snprintf(s->levels, sizeof s->levels, "%s/levels", s->dir);
    if (mkdir(s->levels, 0700) != 0) {
        snprintf(why, cap, "cannot make %s", s->levels);
        return false;
    }
    return true;
}

bool bench_sokod_run(struct bench_sokod *s, char *why, size_t cap)
{
    char self[PATH_MAX], sokod[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(why, cap, "cannot find this program's folder");
        return false;
    }
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    snprintf(sokod, sizeof sokod, "%s/../sokod", self);
    int out[2];
    if (pipe(out) != 0) {
        snprintf(why, cap, "cannot make a pipe");
        return false;
    }
    s->pid = fork();
    if (s->pid < 0) {
        snprintf(why, cap, "cannot fork");
        return false;
    }
    if (s->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        setpgid(0, 0);
        char db[PATH_MAX + 16], log[PATH_MAX + 16];
        snprintf(db, sizeof db, "%s/sokod.db", s->dir);
        snprintf(log, sizeof log, "%s/stderr.log", s->dir);
        dup2(out[1], 1);
        int err = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (err >= 0)
            dup2(err, 2);
        close(out[0]);
        execl(sokod, sokod, "serve", "--port", "0", "--db", db, "--levels", s->levels,
              (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    char buf[512];
    size_t len = 0;
    while (s->port == 0 && len < sizeof buf - 1) {
        ssize_t r = read(out[0], buf + len, sizeof buf - 1 - len);
        if (r <= 0)
            break;
        len += (size_t)r;
        buf[len] = '\0';
        char *at = strstr(buf, LISTENING);
        if (at != NULL && strchr(at, '\n') != NULL)
            s->port = (unsigned)atoi(at + strlen(LISTENING));
    }
    close(out[0]);
    if (s->port == 0) {
        snprintf(why, cap, "%s did not start or did not say its port (its log: %s/stderr.log)",
                 sokod, s->dir);
        return false;
    }
    return true;
}

void bench_sokod_stop(struct bench_sokod *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        waitpid(s->pid, NULL, 0);
    }
    s->pid = -1;
}

void bench_sokod_remove(struct bench_sokod *s)
{
    bench_sokod_stop(s);
    if (s->dir[0] == '\0')
        return;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", s->dir);
    s->dir[0] = '\0';
}
