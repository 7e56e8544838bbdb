/*
 * Units.  strto*() would skip white space and take a sign, so every parser
 * first insists on a digit.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "units.h"

static bool starts_with_digit(const char *text)
{
	return isdigit((unsigned char)text[0]);
}

/*
 * Digits with an optional binary suffix K, M, G or T (up to max_suffix):
 * the number of bytes, or -ERANGE past 2^64 - 1.
 */
static int parse_scaled(const char *text, char max_suffix, uint64_t *bytes)
{
	static const char suffixes[] = "KMGT";
	unsigned long long value, scale = 1;
	const char *s;
	char *end;

	if (!starts_with_digit(text))
		return -EINVAL;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno)
		return -ERANGE;
	s = *end ? strchr(suffixes, toupper((unsigned char)*end)) : NULL;
	if (s && *s <= max_suffix) {
		scale = 1ull << (10 * (s - suffixes + 1));
		end++;
	}
	if (*end)
		return -EINVAL;
	if (value > UINT64_MAX / scale)
		return -ERANGE;
	*bytes = value * scale;
	return 0;
}

int units_parse_size(const char *text, size_t *bytes)
{
	uint64_t value;
	int r = parse_scaled(text, 'M', &value);

	if (r < 0)
		return r;
	if (value < MESSAGE_SIZE_MIN || value > MESSAGE_SIZE_MAX)
		return -ERANGE;
	*bytes = (size_t)value;
	return 0;
}

void units_format_size(size_t bytes, char *out, size_t size)
{
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
		snprintf(out, size, "%zuM", bytes / (1024 * 1024));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(out, size, "%zuK", bytes / 1024);
	else
		snprintf(out, size, "%zu", bytes);
}

void units_format_size_iec(size_t bytes, char *out, size_t size)
{
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
		snprintf(out, size, "%zu MiB", bytes / (1024 * 1024));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(out, size, "%zu KiB", bytes / 1024);
	else
		snprintf(out, size, "%zu B", bytes);
}

int units_parse_bytes(const char *text, uint64_t *bytes)
{
	int r = parse_scaled(text, 'T', bytes);

	return r == 0 && *bytes == 0 ? -ERANGE : r;
}

void units_format_bytes(uint64_t bytes, char *out, size_t size)
{
	static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
	double value = (double)bytes;
	int u = -1;

	while (value >= 1024 && u < 3) {
		value /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(out, size, "%llu bytes", (unsigned long long)bytes);
	else
		snprintf(out, size, "%.1f %s", value, units[u]);
}

int units_parse_rate(const char *text, uint64_t min, uint64_t max,
		     uint64_t *bits_per_s)
{
	double value, scale = 1;
	char *end;

	if (!starts_with_digit(text))
		return -EINVAL;
	errno = 0;
	value = strtod(text, &end);
	if (end == text || errno || !isfinite(value))
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		scale = 1e3;
	else if (*end == 'M' || *end == 'm')
		scale = 1e6;
	else if (*end == 'G' || *end == 'g')
		scale = 1e9;
	if (scale != 1)
		end++;
	if (*end)
		return -EINVAL;
	value *= scale;
	if (value < (double)min || value > (double)max)
		return -ERANGE;
	*bits_per_s = (uint64_t)value;
	return 0;
}

void units_format_rate(uint64_t bits_per_s, char *out, size_t size)
{
	static const char suffix[] = " KMG";
	double v = (double)bits_per_s;
	int s = 0;

	while (v >= 1000 && s < 3) {
		v /= 1000;
		s++;
	}
	snprintf(out, size, "%.3g%.*s", v, s ? 1 : 0, &suffix[s]);
}

int units_parse_number(const char *text, double min, double max, double *value)
{
	char *end;

	if (!starts_with_digit(text) &&
	    !(text[0] == '.' && isdigit((unsigned char)text[1])))
		return text[0] == '-' ? -ERANGE : -EINVAL;
	errno = 0;
	*value = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(*value))
		return -EINVAL;
	return *value < min || *value > max ? -ERANGE : 0;
}

int units_parse_uint(const char *text, unsigned long min, unsigned long max,
		     unsigned long *value)
{
	char *end;

	if (!starts_with_digit(text))
		return -EINVAL;
	errno = 0;
	*value = strtoul(text, &end, 10);
	if (end == text || *end || errno)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	return *value < min || *value > max ? -ERANGE : 0;
}

static int add_cpu(struct cpu_list *cpus, unsigned long cpu)
{
	if (cpu >= CPU_SETSIZE)
		return -ERANGE;
	if (cpus->count == SETTINGS_CPUS_MAX)
		return -E2BIG;
	cpus->cpu[cpus->count++] = (uint16_t)cpu;
	return 0;
}

int units_parse_cpus(const char *text, struct cpu_list *cpus)
{
	const char *p = text;

	*cpus = (struct cpu_list){0};
	while (*p) {
		unsigned long first, last;
		char *end;
		int r;

		if (!starts_with_digit(p))
			return -EINVAL;
		first = last = strtoul(p, &end, 10);
		if (*end == '-') {
			if (!starts_with_digit(end + 1))
				return -EINVAL;
			last = strtoul(end + 1, &end, 10);
			if (last < first)
				return -EINVAL;
		}
		if (*end && *end != ',')
			return -EINVAL;
		for (unsigned long c = first; c <= last; c++) {
			r = add_cpu(cpus, c);
			if (r < 0)
				return r;
		}
		p = *end ? end + 1 : end;
		if (*end == ',' && !*p)
			return -EINVAL;
	}
	return cpus->count ? 0 : -EINVAL;
}

void units_format_cpus(const struct cpu_list *cpus, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (unsigned int i = 0; i < cpus->count && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%u", i ? "," : "",
				      cpus->cpu[i]);
}

bool units_name_valid(const char *name, size_t max)
{
	size_t len = strlen(name);

	return len > 0 && len <= max &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == len &&
	       name[0] != '.';
}
