// tactus-peak-memory REPORT COMMAND [ARGUMENT...]: runs COMMAND as its child, waits for it
// with wait4 and writes the child's own peak resident memory, in kilobytes, to the file REPORT;
// then exits as the child did (its status, or the signal that ended it). SIGINT, SIGTERM,
// SIGHUP and SIGQUIT are passed on to the child.
//
// Why a process in between: Linux records, at exec, the peak of the memory a new process
// leaves behind, and a child spawned by a large process (vfork or fork) leaves behind its
// parent's. A test process that has grown to 200 MB would see every child it spawns report
// at least 200 MB (ru_maxrss from wait4 and RUSAGE_CHILDREN alike). This helper is small
// when it spawns the command, so the figure it reports is the command's own.
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;
static volatile pid_t child = 0;

static void forward(int signal) {
    if (child > 0) kill(child, signal);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: tactus-peak-memory REPORT COMMAND [ARGUMENT...]\n");
        return 64;
    }
    int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = forward;
        sigaction(forwarded[i], &action, NULL);
    }
    pid_t pid;
    int error = posix_spawn(&pid, argv[2], NULL, NULL, argv + 2, environ);
    if (error != 0) {
        fprintf(stderr, "tactus-peak-memory: %s: %s\n", argv[2], strerror(error));
        return 127;
    }
    child = pid;
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("tactus-peak-memory: wait4");
            return 70;
        }
    }
#ifdef __APPLE__
    long kilobytes = (long)(usage.ru_maxrss / 1024);  // bytes on Darwin
#else
    long kilobytes = (long)usage.ru_maxrss;  // kilobytes on Linux
#endif
    FILE *report = fopen(argv[1], "w");
    if (report == NULL || fprintf(report, "%ld\n", kilobytes) < 0 || fclose(report) != 0) {
        perror("tactus-peak-memory: report");
        return 70;
    }
    if (WIFSIGNALED(status)) {
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 70;
}
