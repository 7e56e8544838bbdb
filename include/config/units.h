/*
 * The units a user types: message sizes ("16K"), byte counts ("2G"), rates
 * ("1G", bit/s), seconds, plain numbers and CPU lists ("0,2-3"), each
 * parsed and spelt back one way for the command line, presets and screens.
 * Parsers return 0, -EINVAL (not that kind of value) or -ERANGE (out of
 * range); none skips white space or takes a sign.
 */
#ifndef NIO_TOP_UNITS_H
#define NIO_TOP_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "settings.h"

/* "4K" -> 4096; within MESSAGE_SIZE_MIN .. MESSAGE_SIZE_MAX. */
int units_parse_size(const char *text, size_t *bytes);
/* 4096 -> "4K": the way the command line spells a size. */
void units_format_size(size_t bytes, char *out, size_t size);

/* 4096 -> "4 KiB": the way screens and reports say a size. */
void units_format_size_iec(size_t bytes, char *out, size_t size);

/* "2G" -> 2^31 (K, M, G, T are binary); more than 0. */
int units_parse_bytes(const char *text, uint64_t *bytes);
/* 1610612736 -> "1.5 GiB": for people. */
void units_format_bytes(uint64_t bytes, char *out, size_t size);

/* "2G" -> 2e9 bit/s (K, M, G are decimal), within min .. max. */
int units_parse_rate(const char *text, uint64_t min, uint64_t max,
		     uint64_t *bits_per_s);

/* 17179869176 -> "17.2G": a rate as --rate takes one. */
void units_format_rate(uint64_t bits_per_s, char *out, size_t size);

/* A whole number within min .. max. */
int units_parse_uint(const char *text, unsigned long min, unsigned long max,
		     unsigned long *value);
/* A finite number within min .. max. */
int units_parse_number(const char *text, double min, double max, double *value);

/*
 * "0,2-3" -> 0, 2, 3: CPU numbers below CPU_SETSIZE, at most
 * SETTINGS_CPUS_MAX of them, in the order given.
 */
int units_parse_cpus(const char *text, struct cpu_list *cpus);
void units_format_cpus(const struct cpu_list *cpus, char *out, size_t size);

/* A name that is safe as a file name: [A-Za-z0-9_.-], not starting '.'. */
bool units_name_valid(const char *name, size_t max);

#endif
