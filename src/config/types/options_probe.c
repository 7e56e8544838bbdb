/*
 * OPTION_PROBE: the probe's rate and request size (struct probe_settings),
 * "RATE[,SIZE]" on the command line ("2000,64"; "0" or "off": no probe),
 * and in JSON a number (the rate, SIZE its default), an object
 * {"rate_hz", "size"}, the command line's text, or null (no probe).  A run's "probe" object holds
 * the probe's figures beside its settings (idle, loaded): a reader takes
 * the two keys it knows and leaves the rest to the export's own reader.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "jsonfile.h"
#include "options_private.h"
#include "options_type_common.h"
#include "units.h"

static int probe_range(struct probe_settings *p, const char *where,
		       char **cause)
{
	if (p->rate_hz > PROBE_RATE_MAX)
		return cause_set(cause, -EINVAL,
				 "%s: a rate of %u probes a second; at most "
				 "%d",
				 where, p->rate_hz, PROBE_RATE_MAX);
	if (p->size < PROBE_SIZE_MIN || p->size > PROBE_SIZE_MAX)
		return cause_set(cause, -EINVAL,
				 "%s: a probe of %u bytes; it must hold %d .. "
				 "%d (a sequence number and a send time)",
				 where, p->size, PROBE_SIZE_MIN,
				 PROBE_SIZE_MAX);
	return 0;
}

/* "RATE[,SIZE]" or "off" into *out: 0, or -EINVAL naming label. */
static int probe_parse(const char *text, const char *label,
		       struct probe_settings *out, char **cause)
{
	struct probe_settings p = {.size = PROBE_SIZE_DEFAULT};
	const char *comma = strchr(text, ',');
	char rate[32];
	unsigned long hz;
	uint64_t bytes;

	if (strcmp(text, "off") == 0) {
		*out = p;
		return 0;
	}
	snprintf(rate, sizeof(rate), "%.*s",
		 (int)(comma ? (size_t)(comma - text) : strlen(text)), text);
	if (units_parse_uint(rate, 0, PROBE_RATE_MAX, &hz) < 0)
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not RATE[,SIZE] (probes a "
				 "second 0 .. %d, then bytes a probe %d .. "
				 "%d, 64 unless given; 0 or off: none)",
				 label, text, PROBE_RATE_MAX, PROBE_SIZE_MIN,
				 PROBE_SIZE_MAX);
	p.rate_hz = (unsigned int)hz;
	if (comma) {
		if (units_parse_bytes(comma + 1, &bytes) < 0 ||
		    bytes > PROBE_SIZE_MAX)
			return cause_set(cause, -EINVAL,
					 "%s: '%s' is not a probe size in "
					 "bytes (%d .. %d, or with K)",
					 label, comma + 1, PROBE_SIZE_MIN,
					 PROBE_SIZE_MAX);
		p.size = (unsigned int)bytes;
	}
	if (probe_range(&p, label, cause) < 0)
		return -EINVAL;
	*out = p;
	return 0;
}

static int probe_from_text(struct options *o, const struct option_row *row,
			   const char *label, const char *text, char **cause)
{
	return probe_parse(text, label, options_at(o, row->offset), cause);
}

/* A whole number of key in obj, within 0 .. max: 0, 1 if missing, -EINVAL. */
static int probe_member(const cJSON *obj, const char *key, unsigned int max,
			const char *where, unsigned int *out, char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	uint64_t n;

	if (!v)
		return 1;
	if (jsonfile_u64(v, &n) < 0 || n > max)
		return cause_set(cause, -EINVAL,
				 "%s.%s: must be an integer 0 .. %u", where,
				 key, max);
	*out = (unsigned int)n;
	return 0;
}

static int probe_value_from_json(const struct option_row *row, const cJSON *v,
				 const char *where, bool viewing, void *value,
				 char **cause)
{
	struct probe_settings p = {.size = PROBE_SIZE_DEFAULT};
	uint64_t n;
	int r;

	(void)row;
	(void)viewing;
	if (cJSON_IsNull(v)) {
		*(struct probe_settings *)value = p;
		return 0;
	}
	if (cJSON_IsString(v))
		return probe_parse(v->valuestring, where, value, cause);
	if (cJSON_IsNumber(v)) {
		if (jsonfile_u64(v, &n) < 0 || n > PROBE_RATE_MAX)
			return cause_set(cause, -EINVAL,
					 "%s: must be a rate 0 .. %d, an "
					 "object {\"rate_hz\", \"size\"} or "
					 "null",
					 where, PROBE_RATE_MAX);
		p.rate_hz = (unsigned int)n;
	} else if (cJSON_IsObject(v)) {
		r = probe_member(v, "rate_hz", PROBE_RATE_MAX, where,
				 &p.rate_hz, cause);
		if (r == 1)
			return cause_set(cause, -EINVAL, "%s.rate_hz: missing",
					 where);
		if (r == 0)
			r = probe_member(v, "size", PROBE_SIZE_MAX, where,
					 &p.size, cause);
		if (r < 0)
			return r;
	} else {
		return cause_set(cause, -EINVAL,
				 "%s: must be a rate, an object {\"rate_hz\", "
				 "\"size\"} or null",
				 where);
	}
	if (probe_range(&p, where, cause) < 0)
		return -EINVAL;
	*(struct probe_settings *)value = p;
	return 0;
}

static cJSON *probe_value_to_json(const struct option_row *row,
				  const void *value)
{
	const struct probe_settings *p = value;
	cJSON *obj;

	(void)row;
	if (!p->rate_hz)
		return cJSON_CreateNull();
	obj = cJSON_CreateObject();
	cJSON_AddNumberToObject(obj, "rate_hz", p->rate_hz);
	cJSON_AddNumberToObject(obj, "size", p->size);
	return obj;
}

static int probe_from_json(struct options *o, const struct option_row *row,
			   const cJSON *v, const char *where, char **cause)
{
	return probe_value_from_json(row, v, where, false,
				     options_at(o, row->offset), cause);
}

static cJSON *probe_to_json(const struct options *o,
			    const struct option_row *row)
{
	return probe_value_to_json(row, options_at(o, row->offset));
}

static bool probe_empty(const struct option_row *row, const void *value)
{
	(void)row;
	return ((const struct probe_settings *)value)->rate_hz == 0;
}

static cJSON *probe_schema(const struct option_row *row)
{
	cJSON *s = cJSON_CreateObject(),
	      *one = cJSON_AddArrayToObject(s, "oneOf");
	cJSON *rate = cJSON_CreateObject(), *obj = cJSON_CreateObject();
	cJSON *props, *p;
	const char *required[] = {"rate_hz"};

	(void)row;
	cJSON_AddStringToObject(rate, "type", "integer");
	cJSON_AddNumberToObject(rate, "minimum", 0);
	cJSON_AddNumberToObject(rate, "maximum", PROBE_RATE_MAX);
	cJSON_AddItemToArray(one, rate);
	cJSON_AddStringToObject(obj, "type", "object");
	cJSON_AddItemToObject(obj, "required",
			      cJSON_CreateStringArray(required, 1));
	props = cJSON_AddObjectToObject(obj, "properties");
	p = cJSON_AddObjectToObject(props, "rate_hz");
	cJSON_AddStringToObject(p, "type", "integer");
	cJSON_AddNumberToObject(p, "minimum", 0);
	cJSON_AddNumberToObject(p, "maximum", PROBE_RATE_MAX);
	p = cJSON_AddObjectToObject(props, "size");
	cJSON_AddStringToObject(p, "type", "integer");
	cJSON_AddNumberToObject(p, "minimum", PROBE_SIZE_MIN);
	cJSON_AddNumberToObject(p, "maximum", PROBE_SIZE_MAX);
	cJSON_AddItemToArray(one, obj);
	p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "type", "string");
	cJSON_AddStringToObject(p, "pattern", "^(off|[0-9]+(,[0-9]+[Kk]?)?)$");
	cJSON_AddItemToArray(one, p);
	p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "type", "null");
	cJSON_AddItemToArray(one, p);
	return s;
}

static void probe_describe(FILE *out, const struct option_row *row)
{
	(void)row;
	fprintf(out,
		"Probes a second, 0 to %d, with requests of %d bytes; an "
		"object of\n.Li rate_hz\nand\n.Li size\n(bytes, %d to %d); "
		"or the command line's text,\n.Qq 2000,64 ;\n0,\n.Qq off\nor "
		"null: no probe.\n",
		PROBE_RATE_MAX, PROBE_SIZE_DEFAULT, PROBE_SIZE_MIN,
		PROBE_SIZE_MAX);
}

static void probe_help_range(const struct option_row *row, char *out,
			     size_t size)
{
	(void)row;
	snprintf(out, size, "RATE 0 .. %d a second, SIZE %d .. %d",
		 PROBE_RATE_MAX, PROBE_SIZE_MIN, PROBE_SIZE_MAX);
}

const struct option_type_ops option_type_probe = {
	.from_text = probe_from_text,
	.from_json = probe_from_json,
	.to_json = probe_to_json,
	.empty = probe_empty,
	.schema = probe_schema,
	.describe = probe_describe,
	.help_range = probe_help_range,
	.value_from_json = probe_value_from_json,
	.value_to_json = probe_value_to_json,
	.value_size = sizeof(struct probe_settings),
};
