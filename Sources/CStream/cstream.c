#define _GNU_SOURCE 1
#include <stdio.h>
#include "cstream.h"

#if defined(__APPLE__)
#include <stdlib.h>

/* Darwin has no fopencookie: funopen takes one cookie and `int`-sized callbacks, so the
   cookie is a small heap struct holding the caller's cookie and read function, freed when the
   stream is closed. */
struct nfctrace_stream_cookie {
    void *cookie;
    nfctrace_read_fn read;
};

static int nfctrace_read_trampoline(void *raw, char *buffer, int size) {
    struct nfctrace_stream_cookie *c = raw;
    if (size <= 0) return 0;
    ssize_t n = c->read(c->cookie, buffer, (size_t)size);
    return n < 0 ? -1 : (int)n;   /* n <= size, so it fits an int */
}

static int nfctrace_close_cookie(void *raw) {
    free(raw);
    return 0;
}

FILE *nfctrace_open_read_stream(void *cookie, nfctrace_read_fn read) {
    struct nfctrace_stream_cookie *c = malloc(sizeof *c);
    if (!c) return NULL;
    c->cookie = cookie;
    c->read = read;
    FILE *f = funopen(c, nfctrace_read_trampoline, NULL, NULL, nfctrace_close_cookie);
    if (!f) {
        free(c);
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 16);
    return f;
}

size_t nfctrace_stream_buffered(FILE *stream) {
    /* BSD stdio: _r is what is left to read in the buffer; while ungetc data is pending
       (_ub._base set), _r counts that data and _ur holds the buffer's remainder. */
    long n = stream->_r;
    if (stream->_ub._base != NULL) n += stream->_ur;
    return n > 0 ? (size_t)n : 0;
}

#else

static int nfctrace_close_nothing(void *cookie) { (void)cookie; return 0; }

FILE *nfctrace_open_read_stream(void *cookie, nfctrace_read_fn read) {
    cookie_io_functions_t functions = { .read = read, .write = NULL, .seek = NULL, .close = nfctrace_close_nothing };
    FILE *f = fopencookie(cookie, "r", functions);
    if (f) setvbuf(f, NULL, _IOFBF, 1 << 16);
    return f;
}

size_t nfctrace_stream_buffered(FILE *stream) {
    if (stream->_IO_read_end < stream->_IO_read_ptr) return 0;
    return (size_t)(stream->_IO_read_end - stream->_IO_read_ptr);
}
#endif

#include <string.h>
#include <errno.h>
#if defined(__APPLE__)
#include <TargetConditionals.h>
#endif

#if defined(__APPLE__) && !TARGET_OS_OSX
/* iOS and the other Apple platforms: no pseudo-terminals for an app (NFCTestKit links this). */
int nfctrace_openpty(int *master, int *slave, char *name, size_t size) {
    (void)master; (void)slave; (void)name; (void)size;
    errno = ENOSYS;
    return -1;
}
#else
#if defined(__APPLE__)
#include <util.h>
#else
#include <pty.h>
#endif

int nfctrace_openpty(int *master, int *slave, char *name, size_t size) {
    char path[256];
    if (openpty(master, slave, path, NULL, NULL) != 0) return -1;
    if (strlen(path) + 1 > size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(name, path, strlen(path) + 1);
    return 0;
}
#endif

int nfctrace_flush_stdout(void) {
    if (fflush(stdout) != 0) return -1;
    if (ferror(stdout)) {
        if (errno == 0) errno = EIO;
        return -1;
    }
    return 0;
}
