#define _GNU_SOURCE 1
#include <stdio.h>
#include "cstream.h"

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
