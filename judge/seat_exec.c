/* The first program in a sandboxed seat, compiled: what SEAT_EXEC in
 * clinea/judge/sandbox.py does in Python, without an interpreter's start
 * (10 ms of CPU a seat, most of what the sandbox added to one).
 *
 *   seat_exec GIVEN TAKEN STATUS PROCESSES PROGRAM [ARGS...]
 *
 * GIVEN becomes stdin and TAKEN stdout; STATUS is closed by a good exec,
 * and gets the errno (in decimal) of a failed one; PROCESSES, if not 0, is
 * the RLIMIT_NPROC to set inside the seat's user namespace. PROGRAM is
 * looked up in PATH as Python's os.execvp does: never run by /bin/sh when
 * it is no executable (execvp(3) would), the first error other than "not
 * found" reported, else the last. */
#define _GNU_SOURCE  /* strchrnul */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

extern char **environ;

static int number(const char *text, long *value) {
    char *end;
    errno = 0;
    *value = strtol(text, &end, 10);
    return errno == 0 && end != text && *end == '\0';
}

static void fail(int status, int error) {
    char text[16];
    int size = snprintf(text, sizeof text, "%d", error);
    if (write(status, text, (size_t)size) < 0) {
        /* nobody to tell: the exit status says it */
    }
    _exit(127);
}

int main(int argc, char **argv) {
    long given, taken, status, processes;
    if (argc < 6 || !number(argv[1], &given) || !number(argv[2], &taken) || !number(argv[3], &status)
            || !number(argv[4], &processes)) {
        fputs("usage: seat_exec GIVEN TAKEN STATUS PROCESSES PROGRAM [ARGS...]\n", stderr);
        return 2;
    }
    if (dup2((int)given, 0) < 0 || dup2((int)taken, 1) < 0)
        fail((int)status, errno);
    close((int)given);
    close((int)taken);
    fcntl((int)status, F_SETFD, FD_CLOEXEC);
    if (processes > 0) {
        struct rlimit limit = {(rlim_t)processes, (rlim_t)processes};
        if (setrlimit(RLIMIT_NPROC, &limit) < 0)
            fail((int)status, errno);
    }
    char **command = argv + 5;
    if (strchr(command[0], '/') != NULL) {
        execve(command[0], command, environ);
        fail((int)status, errno);
    }
    const char *path = getenv("PATH");
    if (path == NULL)
        path = "/bin:/usr/bin";
    int first = 0, last = ENOENT;
    char full[PATH_MAX];
    for (const char *start = path;; ) {
        const char *end = strchrnul(start, ':');
        size_t length = (size_t)(end - start);
        /* an empty entry is the working folder, as os.execvp takes it */
        int size = length ? snprintf(full, sizeof full, "%.*s/%s", (int)length, start, command[0])
                          : snprintf(full, sizeof full, "%s", command[0]);
        if (size > 0 && (size_t)size < sizeof full) {
            execve(full, command, environ);
            last = errno;
        } else {
            last = ENAMETOOLONG;
        }
        if (first == 0 && last != ENOENT && last != ENOTDIR)
            first = last;
        if (*end == '\0')
            break;
        start = end + 1;
    }
    fail((int)status, first ? first : last);
    return 127;
}
