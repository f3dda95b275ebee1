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

struct bench_sokod_usage bench_sokod_usage(const struct bench_sokod *s)
{
    return bench_process_usage(s->pid);
}

struct bench_sokod_usage bench_process_usage(pid_t pid)
{
    struct bench_sokod_usage u = {-1, 0, 0};
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0)
            u.rss_kb = atol(line + 6);
    }
    if (f != NULL)
        fclose(f);
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    f = fopen(path, "r");
    if (f != NULL && fgets(line, sizeof line, f) != NULL) {
        /* The name may hold spaces: fields are counted from its ')'. After
         * it, state is the 3rd field, utime the 14th and stime the 15th. */
        const char *p = strrchr(line, ')');
        if (p != NULL)
            sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &u.utime,
                   &u.stime);
    }
    if (f != NULL)
        fclose(f);
    return u;
}

long long bench_sokod_file_size(const struct bench_sokod *s, const char *name)
{
    char path[PATH_MAX + 32];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    return stat(path, &st) == 0 ? (long long)st.st_size : 0;
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
