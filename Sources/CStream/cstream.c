#define _GNU_SOURCE 1
#include <stdio.h>
#include "cstream.h"

static int nfctrace_close_nothing(void *cookie) { (void)cookie; return 0; }

FILE *nfctrace_open_read_stream(void *cookie, nfctrace_read_fn read) {
    cookie_io_functions_t functions = { .read = read, .write = NULL, .seek = NULL, .close = nfctrace_close_nothing };
    FILE *f = fopencookie(cookie, "r", functions);
    if (f) setvbuf(f, NULL, _IONBF, 0);   /* keep the caller's byte offset exact */
    return f;
}
