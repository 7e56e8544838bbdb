/*
 * Fuzz targets: each file defines LLVMFuzzerTestOneInput for one parser that
 * reads what a user hands nio-top.  Built twice: with libFuzzer (clang,
 * -Dfuzz=true) to search, and with replay.c into a plain test that runs the
 * seed corpus and every input that once crashed, in every build.
 *
 * A target checks the parser's promises, not only that it survives: a broken
 * promise aborts, which libFuzzer records as a crash.
 */
#ifndef NIO_TOP_FUZZ_H
#define NIO_TOP_FUZZ_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (it may hold NULs of its own). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	return text;
}

/* A broken promise: say which, then crash so the fuzzer keeps the input. */
__attribute__((format(printf, 1, 2), noreturn)) static inline void fuzz_fail(
	const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fuzz: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

#endif
