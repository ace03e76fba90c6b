/*
 * faultshim: an LD_PRELOAD library that makes file operations on delvetui's files fail, or
 * kills the process, at the Nth operation -- the I/O-error and crash injection of the
 * reliability tests (tests/test_reliability_io.py). SQLite writes through C, so this is the
 * one place such faults can be injected under the real code path.
 *
 * Only operations on files whose path contains FAULT_MATCH (default ".delve": the expedition
 * file and its -journal) are counted; pipes, the terminal and other files are left alone.
 *
 * Control, from the environment at start-up or at run time through ctypes:
 *   DELVETUI_FAULT_OPS     comma list of: write, sync, unlink, truncate (default write,sync)
 *   DELVETUI_FAULT_AT      N: the Nth counted operation fails (0 or unset: disarmed)
 *   DELVETUI_FAULT_PERSIST 1: every counted operation from the Nth on fails (default once)
 *   DELVETUI_FAULT_ERRNO   the errno to fail with, as a number (default EIO)
 *   DELVETUI_FAULT_KILL    1: raise SIGKILL at the Nth operation instead of failing it
 *   DELVETUI_FAULT_MATCH   the path substring that selects files (default ".delve")
 *
 *   void fault_arm(unsigned ops, long at, int persist, int err, int kill);
 *   void fault_disarm(void);
 *   long fault_seen(void);      counted operations since the last arm
 *   long fault_failed(void);    operations failed since the last arm
 *
 * Build: gcc -shared -fPIC -O2 -o faultshim.so faultshim.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define OP_WRITE 1u
#define OP_SYNC 2u
#define OP_UNLINK 4u
#define OP_TRUNCATE 8u

static unsigned fault_ops = OP_WRITE | OP_SYNC;
static long fault_at = 0;
static int fault_persist = 0;
static int fault_errno = EIO;
static int fault_kill = 0;
static long seen = 0;
static long failed = 0;
static char match[256] = ".delve";

static unsigned parse_ops(const char *text) {
    unsigned ops = 0;
    if (strstr(text, "write")) ops |= OP_WRITE;
    if (strstr(text, "sync")) ops |= OP_SYNC;
    if (strstr(text, "unlink")) ops |= OP_UNLINK;
    if (strstr(text, "truncate")) ops |= OP_TRUNCATE;
    return ops;
}

__attribute__((constructor)) static void fault_init(void) {
    const char *value;
    if ((value = getenv("DELVETUI_FAULT_OPS"))) fault_ops = parse_ops(value);
    if ((value = getenv("DELVETUI_FAULT_AT"))) fault_at = atol(value);
    if ((value = getenv("DELVETUI_FAULT_PERSIST"))) fault_persist = atoi(value);
    if ((value = getenv("DELVETUI_FAULT_ERRNO"))) fault_errno = atoi(value);
    if ((value = getenv("DELVETUI_FAULT_KILL"))) fault_kill = atoi(value);
    if ((value = getenv("DELVETUI_FAULT_MATCH"))) {
        strncpy(match, value, sizeof match - 1);
        match[sizeof match - 1] = '\0';
    }
}

void fault_arm(unsigned ops, long at, int persist, int err, int kill) {
    fault_ops = ops;
    fault_persist = persist;
    fault_errno = err;
    fault_kill = kill;
    seen = 0;
    failed = 0;
    fault_at = at;
}

void fault_disarm(void) { fault_at = 0; }
long fault_seen(void) { return seen; }
long fault_failed(void) { return failed; }

static int path_matches(const char *path) { return path && strstr(path, match) != NULL; }

static int fd_matches(int fd) {
    char link[64];
    char target[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n < 0) return 0;
    target[n] = '\0';
    return path_matches(target);
}

/* 0: go ahead; -1: fail with errno set. Only counted while armed. */
static int fault(unsigned op, int matches) {
    if (fault_at <= 0 || !(fault_ops & op) || !matches) return 0;
    seen++;
    if (seen < fault_at || (seen > fault_at && !fault_persist)) return 0;
    failed++;
    if (fault_kill) raise(SIGKILL);
    errno = fault_errno;
    return -1;
}

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef int (*fd_fn)(int);
typedef int (*truncate_fn)(int, off_t);
typedef int (*path_fn)(const char *);

#define REAL(name, type)                                  \
    static type real_##name;                              \
    if (!real_##name) real_##name = (type)dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *buf, size_t count) {
    REAL(write, write_fn);
    if (fault_at > 0 && fault(OP_WRITE, fd_matches(fd))) return -1;
    return real_write(fd, buf, count);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    REAL(pwrite, pwrite_fn);
    if (fault_at > 0 && fault(OP_WRITE, fd_matches(fd))) return -1;
    return real_pwrite(fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) {
    REAL(pwrite64, pwrite_fn);
    if (fault_at > 0 && fault(OP_WRITE, fd_matches(fd))) return -1;
    return real_pwrite64(fd, buf, count, offset);
}

int fsync(int fd) {
    REAL(fsync, fd_fn);
    if (fault_at > 0 && fault(OP_SYNC, fd_matches(fd))) return -1;
    return real_fsync(fd);
}

int fdatasync(int fd) {
    REAL(fdatasync, fd_fn);
    if (fault_at > 0 && fault(OP_SYNC, fd_matches(fd))) return -1;
    return real_fdatasync(fd);
}

int ftruncate(int fd, off_t length) {
    REAL(ftruncate, truncate_fn);
    if (fault_at > 0 && fault(OP_TRUNCATE, fd_matches(fd))) return -1;
    return real_ftruncate(fd, length);
}

int ftruncate64(int fd, off_t length) {
    REAL(ftruncate64, truncate_fn);
    if (fault_at > 0 && fault(OP_TRUNCATE, fd_matches(fd))) return -1;
    return real_ftruncate64(fd, length);
}

int unlink(const char *path) {
    REAL(unlink, path_fn);
    if (fault_at > 0 && fault(OP_UNLINK, path_matches(path))) return -1;
    return real_unlink(path);
}
