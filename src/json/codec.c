/*
 * Records to JSON and back.  64-bit integers are written as raw decimal text
 * (cJSON keeps numbers as doubles, exact only up to 2^53) and read back from
 * the number's own text, which jsonfile keeps.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "codec.h"
#include "strategy.h"
#include "jsonfile.h"

#define KEY_MAX 128
/* A run's totals and its receive side's counters, as one record. */
#define TOTALS_FIELDS_MAX 32
/* Paths name a file, then keys: "run.json: runs[3].sender.derived". */
#define WHERE_MAX 4400

static void *field_at(const struct record_field *f, const void *obj)
{
	return (char *)obj + f->offset;
}

/* The object that holds key's last part, made as needed: "a.b.c" -> a.b. */
static cJSON *group_for_write(cJSON *into, const char *key, const char **last)
{
	const char *dot;

	while ((dot = strchr(key, '.'))) {
		char part[KEY_MAX];
		cJSON *next;

		snprintf(part, sizeof(part), "%.*s", (int)(dot - key), key);
		next = cJSON_GetObjectItemCaseSensitive(into, part);
		if (!cJSON_IsObject(next)) {
			cJSON_DeleteItemFromObjectCaseSensitive(into, part);
			next = cJSON_AddObjectToObject(into, part);
		}
		into = next;
		key = dot + 1;
	}
	*last = key;
	return into;
}

static cJSON *number_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *field_json(const struct record_field *f, const void *obj)
{
	const void *p = field_at(f, obj);
	double d;

	switch (f->kind) {
	case RECORD_U64:
		return jsonfile_u64_item(*(const uint64_t *)p);
	case RECORD_SIZE:
		return jsonfile_u64_item(*(const size_t *)p);
	case RECORD_UINT:
		return cJSON_CreateNumber(*(const unsigned int *)p);
	case RECORD_INT:
		return cJSON_CreateNumber(*(const int *)p);
	case RECORD_NUMBER:
	case RECORD_FINITE:
		return number_or_null(*(const double *)p);
	case RECORD_COUNT:
		d = *(const double *)p;
		if (!isfinite(d))
			return cJSON_CreateNull();
		return jsonfile_u64_item(d <= 0 ? 0 : (uint64_t)llround(d));
	case RECORD_BOOL:
		return cJSON_CreateBool(*(const bool *)p);
	case RECORD_TEXT:
		return *(const char *)p ? cJSON_CreateString(p)
					: cJSON_CreateNull();
	case RECORD_ENUM:
		return cJSON_CreateString(f->names[*(const int *)p]);
	case RECORD_DELIVERED:
		break; /* several keys: codec_write() writes them */
	}
	return cJSON_CreateNull();
}

/* The delivered figures of v, each under its metric's key in into. */
static void write_delivered(const struct metric_values *v, cJSON *into)
{
	for (size_t i = 0; i < metric_count; i++)
		if (metrics[i].delivered)
			cJSON_AddItemToObject(into, metrics[i].key,
					      number_or_null(v->value[i]));
}

void codec_write(const struct record *rec, const void *obj, cJSON *into)
{
	for (size_t i = 0; i < rec->count; i++) {
		const struct record_field *f = &rec->field[i];
		const char *last;
		cJSON *group;

		if (f->kind == RECORD_DELIVERED) {
			write_delivered(field_at(f, obj), into);
			continue;
		}
		group = group_for_write(into, f->key, &last);
		cJSON_AddItemToObject(group, last, field_json(f, obj));
	}
}

/*
 * A run's totals and its receive side's counters as one record: the
 * totals' fields, then the side's (a strict read refuses any other key).
 */
static const struct record *totals_record(enum rx_mode rx)
{
	static struct record_field fields[RX_MODE_COUNT][TOTALS_FIELDS_MAX];
	static struct record records[RX_MODE_COUNT];
	const struct record *side = rx_side_of(rx)->counters;
	size_t n = 0;

	if ((unsigned int)rx >= RX_MODE_COUNT)
		rx = RX_COPY;
	if (records[rx].field)
		return &records[rx];
	for (size_t i = 0; i < run_totals_record.count && n < TOTALS_FIELDS_MAX;
	     i++)
		fields[rx][n++] = run_totals_record.field[i];
	for (size_t i = 0; side && i < side->count && n < TOTALS_FIELDS_MAX;
	     i++)
		fields[rx][n++] = side->field[i];
	records[rx] = (struct record){
		.name = "run_totals", .field = fields[rx], .count = n};
	return &records[rx];
}

void codec_write_totals(const struct run_totals *t, enum rx_mode rx,
			cJSON *into)
{
	codec_write(totals_record(rx), t, into);
}

int codec_read_totals(const cJSON *from, struct run_totals *t, enum rx_mode rx,
		      const char *path, enum codec_mode mode, char **cause)
{
	return codec_read(totals_record(rx), from, t, path, mode, cause);
}

cJSON *codec_object(const struct record *rec, const void *obj)
{
	cJSON *o = cJSON_CreateObject();

	codec_write(rec, obj, o);
	return o;
}

/*
 * The item at key under from: NULL if missing; *null_group when a group on
 * the way is null (its fields read as zeros).
 */
static const cJSON *item_at(const cJSON *from, const char *key,
			    bool *null_group)
{
	const char *dot;

	*null_group = false;
	while ((dot = strchr(key, '.'))) {
		char part[KEY_MAX];

		snprintf(part, sizeof(part), "%.*s", (int)(dot - key), key);
		from = cJSON_GetObjectItemCaseSensitive(from, part);
		if (cJSON_IsNull(from)) {
			*null_group = true;
			return NULL;
		}
		key = dot + 1;
	}
	return cJSON_GetObjectItemCaseSensitive(from, key);
}

/* Puts size bytes of value at p, unless p is NULL (only checking). */
static void store(void *p, const void *value, size_t size)
{
	if (p)
		memcpy(p, value, size);
}

/*
 * Reads item as field f into p, or only checks it when p is NULL: 0, or
 * -EINVAL with *cause naming path.key and the rule it broke.
 */
static int read_field(const struct record_field *f, const cJSON *item, void *p,
		      const char *path, char **cause)
{
	const char *where = path[0] ? "." : "";
	uint64_t u;
	double d;

	switch (f->kind) {
	case RECORD_U64:
	case RECORD_SIZE:
		if (jsonfile_u64(item, &u) < 0 ||
		    (f->kind == RECORD_SIZE && u > SIZE_MAX))
			return cause_set(cause, -EINVAL,
					 "%s%s%s: must be an integer 0 .. "
					 "2^64-1",
					 path, where, f->key);
		if (f->kind == RECORD_U64) {
			store(p, &u, sizeof(u));
		} else {
			size_t size = (size_t)u;

			store(p, &size, sizeof(size));
		}
		return 0;
	case RECORD_UINT: {
		unsigned int value;

		if (jsonfile_u64(item, &u) < 0 || u > UINT_MAX)
			return cause_set(cause, -EINVAL,
					 "%s%s%s: must be an integer 0 .. %u",
					 path, where, f->key, UINT_MAX);
		value = (unsigned int)u;
		store(p, &value, sizeof(value));
		return 0;
	}
	case RECORD_INT: {
		int value;

		if (!cJSON_IsNumber(item) || item->valuedouble < INT_MIN ||
		    item->valuedouble > INT_MAX ||
		    item->valuedouble != floor(item->valuedouble))
			return cause_set(cause, -EINVAL,
					 "%s%s%s: must be an integer", path,
					 where, f->key);
		value = (int)item->valuedouble;
		store(p, &value, sizeof(value));
		return 0;
	}
	case RECORD_NUMBER:
	case RECORD_FINITE:
	case RECORD_COUNT:
		if (cJSON_IsNull(item) && f->kind != RECORD_FINITE) {
			d = NAN;
			store(p, &d, sizeof(d));
			return 0;
		}
		d = cJSON_IsNumber(item) ? item->valuedouble : NAN;
		if (!isfinite(d) || (f->kind != RECORD_NUMBER && d < 0))
			return cause_set(cause, -EINVAL, "%s%s%s: must be %s",
					 path, where, f->key,
					 f->kind == RECORD_COUNT
						 ? "a count >= 0 or null"
					 : f->kind == RECORD_FINITE
						 ? "a number >= 0"
						 : "a number or null");
		store(p, &d, sizeof(d));
		return 0;
	case RECORD_BOOL: {
		bool value = cJSON_IsTrue(item);

		if (!cJSON_IsBool(item))
			return cause_set(cause, -EINVAL,
					 "%s%s%s: must be true or false", path,
					 where, f->key);
		store(p, &value, sizeof(value));
		return 0;
	}
	case RECORD_TEXT:
		if (cJSON_IsNull(item)) {
			store(p, "", 1);
			return 0;
		}
		if (!cJSON_IsString(item) ||
		    strlen(item->valuestring) >= f->size)
			return cause_set(cause, -EINVAL,
					 "%s%s%s: must be text of at most %zu "
					 "bytes, or null",
					 path, where, f->key, f->size - 1);
		store(p, item->valuestring, strlen(item->valuestring) + 1);
		return 0;
	case RECORD_ENUM: {
		char list[160] = "";

		for (int i = 0; f->names[i]; i++) {
			if (cJSON_IsString(item) &&
			    strcmp(item->valuestring, f->names[i]) == 0) {
				store(p, &i, sizeof(i));
				return 0;
			}
			snprintf(list + strlen(list),
				 sizeof(list) - strlen(list), "%s\"%s\"",
				 i ? ", " : "", f->names[i]);
		}
		return cause_set(cause, -EINVAL, "%s%s%s: must be one of %s",
				 path, where, f->key, list);
	}
	case RECORD_DELIVERED:
		break; /* several keys: read_delivered() reads them */
	}
	return -EINVAL;
}

/*
 * The delivered figures under from into v (or only checked, v NULL): each
 * must be there, a number or null (unknown).
 */
static int read_delivered(const cJSON *from, struct metric_values *v,
			  const char *path, char **cause)
{
	const char *where = path[0] ? "." : "";

	for (size_t i = 0; i < metric_count; i++) {
		const cJSON *item;
		double d;

		if (!metrics[i].delivered)
			continue;
		item = cJSON_GetObjectItemCaseSensitive(from, metrics[i].key);
		if (!item)
			return cause_set(cause, -EINVAL, "%s%s%s: missing",
					 path, where, metrics[i].key);
		if (cJSON_IsNull(item))
			d = NAN;
		else if (cJSON_IsNumber(item) && isfinite(item->valuedouble) &&
			 item->valuedouble >= 0)
			d = item->valuedouble;
		else
			/* Every metric is a rate or a ratio of counts. */
			return cause_set(cause, -EINVAL,
					 "%s%s%s: must be a number >= 0 or "
					 "null",
					 path, where, metrics[i].key);
		if (v)
			v->value[i] = d;
	}
	return 0;
}

/* Whether name (under prefix) is a field of rec or a group of fields. */
static bool known_key(const struct record *rec, const char *prefix,
		      const char *name)
{
	size_t plen = strlen(prefix), nlen = strlen(name);

	for (size_t i = 0; i < rec->count; i++) {
		const char *key = rec->field[i].key;
		int metric;

		if (rec->field[i].kind == RECORD_DELIVERED) {
			metric = metric_find(name);
			if (!plen && metric >= 0 && metrics[metric].delivered)
				return true;
			continue;
		}
		if (strncmp(key, prefix, plen) != 0 ||
		    strncmp(key + plen, name, nlen) != 0)
			continue;
		if (key[plen + nlen] == '\0' || key[plen + nlen] == '.')
			return true;
	}
	return false;
}

/* Whether some field's key starts with prefix ("zerocopy."). */
static bool is_group(const struct record *rec, const char *prefix)
{
	for (size_t i = 0; i < rec->count; i++)
		if (strncmp(rec->field[i].key, prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* Strict: every key of from (and of its groups) is one of rec's. */
static int check_unknown(const struct record *rec, const cJSON *from,
			 const char *prefix, const char *path, char **cause)
{
	const cJSON *item;

	cJSON_ArrayForEach(item, from)
	{
		char deeper[KEY_MAX];

		if (!known_key(rec, prefix, item->string))
			return cause_set(
				cause, -EINVAL, "%s%s%s%s: not a key here",
				path, path[0] ? "." : "", prefix, item->string);
		snprintf(deeper, sizeof(deeper), "%s%s.", prefix, item->string);
		if (cJSON_IsObject(item) && is_group(rec, deeper) &&
		    check_unknown(rec, item, deeper, path, cause) < 0)
			return -EINVAL;
	}
	return 0;
}

bool codec_has_key(const struct record *rec, const char *key)
{
	return known_key(rec, "", key);
}

/*
 * Reads rec's fields of from into obj, or only checks them when obj is NULL;
 * a field marked optional may be missing if lacking_optional says so.
 */
static int read_fields(const struct record *rec, const cJSON *from, void *obj,
		       const char *path, bool lacking_optional, char **cause)
{
	for (size_t i = 0; i < rec->count; i++) {
		const struct record_field *f = &rec->field[i];
		void *p = obj ? field_at(f, obj) : NULL;
		bool null_group;
		const cJSON *item;

		if (f->kind == RECORD_DELIVERED) {
			if (read_delivered(from, p, path, cause) < 0)
				return -EINVAL;
			continue;
		}
		item = item_at(from, f->key, &null_group);
		if (null_group)
			continue;
		if (!item) {
			if (lacking_optional && f->optional)
				continue;
			return cause_set(cause, -EINVAL, "%s%s%s: missing",
					 path, path[0] ? "." : "", f->key);
		}
		if (read_field(f, item, p, path, cause) < 0)
			return -EINVAL;
	}
	return 0;
}

int codec_read(const struct record *rec, const cJSON *from, void *obj,
	       const char *path, enum codec_mode mode, char **cause)
{
	if (!cJSON_IsObject(from))
		return cause_set(cause, -EINVAL, "%s: must be an object",
				 path[0] ? path : "(top level)");
	if (mode == CODEC_STRICT &&
	    check_unknown(rec, from, "", path, cause) < 0)
		return -EINVAL;
	return read_fields(rec, from, obj, path, mode == CODEC_FILE, cause);
}

int codec_check(const struct record *rec, const cJSON *from, const char *path,
		char **cause)
{
	if (!cJSON_IsObject(from))
		return cause_set(cause, -EINVAL, "%s: must be an object",
				 path[0] ? path : "(top level)");
	return read_fields(rec, from, NULL, path, false, cause);
}

cJSON *codec_list(const struct record *rec, const void *objs, size_t stride,
		  size_t count)
{
	cJSON *list = cJSON_CreateArray();

	for (size_t i = 0; i < count; i++)
		cJSON_AddItemToArray(
			list,
			codec_object(rec, (const char *)objs + i * stride));
	return list;
}

int codec_read_list(const struct record *rec, const cJSON *from, void *objs,
		    size_t stride, size_t count, const char *path,
		    enum codec_mode mode, char **cause)
{
	char at[WHERE_MAX];

	if (!cJSON_IsArray(from) || (size_t)cJSON_GetArraySize(from) != count)
		return cause_set(cause, -EINVAL,
				 "%s: must be a list of %zu items", path,
				 count);
	for (size_t i = 0; i < count; i++) {
		snprintf(at, sizeof(at), "%s[%zu]", path, i);
		if (codec_read(rec, cJSON_GetArrayItem(from, (int)i),
			       (char *)objs + i * stride, at, mode, cause) < 0)
			return -EINVAL;
	}
	return 0;
}

cJSON *codec_profile(const struct run_profile *p)
{
	cJSON *obj = codec_object(&run_profile_record, p);
	cJSON *shares = cJSON_CreateObject();

	for (size_t r = 0; r < role_count; r++) {
		cJSON *role = cJSON_CreateObject();

		cJSON_AddItemToObject(role, "share",
				      number_or_null(run_profile_share(p, r)));
		cJSON_AddItemToObject(role, "samples",
				      jsonfile_u64_item(p->role[r]));
		/* The function that gave the role most of its samples. */
		if (p->role_function[r][0])
			cJSON_AddStringToObject(role, "function",
						p->role_function[r]);
		else
			cJSON_AddNullToObject(role, "function");
		cJSON_AddItemToObject(shares, roles[r].key, role);
	}
	cJSON_AddItemToObject(obj, "roles", shares);
	cJSON_AddItemToObject(obj, "copy_share",
			      number_or_null(run_profile_copy_share(p)));
	cJSON_AddItemToObject(obj, "top_symbols",
			      codec_list(&profile_top_record, p->top,
					 sizeof(*p->top), p->top_count));
	cJSON_AddItemToObject(obj, "other_top",
			      codec_list(&profile_top_record, p->other,
					 sizeof(*p->other), p->other_count));
	return obj;
}

/* A list of at most PROFILE_TOP functions. */
static int read_tops(const cJSON *from, struct profile_top *top, size_t *count,
		     const char *path, enum codec_mode mode, char **cause)
{
	int n = cJSON_GetArraySize(from);

	if (!cJSON_IsArray(from) || n > PROFILE_TOP)
		return cause_set(cause, -EINVAL,
				 "%s: must be a list of at most %d functions",
				 path, PROFILE_TOP);
	*count = (size_t)n;
	return codec_read_list(&profile_top_record, from, top, sizeof(*top),
			       *count, path, mode, cause);
}

int codec_read_profile(const cJSON *from, struct run_profile *p,
		       const char *path, enum codec_mode mode, char **cause)
{
	const cJSON *shares = cJSON_GetObjectItemCaseSensitive(from, "roles");
	char at[WHERE_MAX];
	uint64_t sum = 0;

	memset(p, 0, sizeof(*p));
	if (codec_read(&run_profile_record, from, p, path, CODEC_FILE, cause) <
	    0)
		return -EINVAL;
	snprintf(at, sizeof(at), "%s.roles", path);
	if (!cJSON_IsObject(shares))
		return cause_set(cause, -EINVAL, "%s: must be an object", at);
	for (size_t r = 0; r < role_count; r++) {
		const cJSON *role = cJSON_GetObjectItemCaseSensitive(
			shares, roles[r].key);
		const cJSON *samples = cJSON_GetObjectItemCaseSensitive(
			role, "samples");
		const cJSON *function = cJSON_GetObjectItemCaseSensitive(
			role, "function");

		if (!role && mode == CODEC_FILE)
			continue; /* a role newer than the file */
		if (cJSON_IsString(function))
			snprintf(p->role_function[r],
				 sizeof(p->role_function[r]), "%s",
				 function->valuestring);
		if (jsonfile_u64(samples, &p->role[r]) < 0)
			return cause_set(cause, -EINVAL,
					 "%s.%s.samples: must be an integer "
					 "0 .. 2^64-1",
					 at, roles[r].key);
		sum += p->role[r];
	}
	/* A file's unknown roles are its own: other, as here. */
	if (sum > p->samples)
		return cause_set(cause, -EINVAL,
				 "%s: its roles hold %llu samples of %llu", at,
				 (unsigned long long)sum,
				 (unsigned long long)p->samples);
	p->role[role_other] += p->samples - sum;
	snprintf(at, sizeof(at), "%s.top_symbols", path);
	if (read_tops(cJSON_GetObjectItemCaseSensitive(from, "top_symbols"),
		      p->top, &p->top_count, at, mode, cause) < 0)
		return -EINVAL;
	snprintf(at, sizeof(at), "%s.other_top", path);
	if (read_tops(cJSON_GetObjectItemCaseSensitive(from, "other_top"),
		      p->other, &p->other_count, at, mode, cause) < 0)
		return -EINVAL;
	p->present = true;
	return 0;
}

cJSON *codec_time(const struct run_time *t)
{
	cJSON *obj = codec_object(&run_time_record, t);
	cJSON *list = cJSON_AddObjectToObject(obj, "reasons");

	for (size_t r = 0; r < reason_count; r++)
		cJSON_AddItemToObject(
			list, reasons[r].key,
			codec_object(&run_time_reason_record, &t->reason[r]));
	return obj;
}

/* A reason of a file this table lacks: its time and waits are other's. */
static int read_unknown_reason(const cJSON *item, struct run_time *t,
			       const char *path, char **cause)
{
	struct run_time_reason unknown = {0};

	if (codec_read(&run_time_reason_record, item, &unknown, path,
		       CODEC_FILE, cause) < 0)
		return -EINVAL;
	t->reason[reason_other].seconds += unknown.seconds;
	t->reason[reason_other].count += unknown.count;
	return 0;
}

/* Whether the parts of a side's time add up: its reasons and window. */
static int check_time(const struct run_time *t, const char *path, char **cause)
{
	double sum = 0, slack;

	for (size_t r = 0; r < reason_count; r++)
		sum += t->reason[r].seconds;
	/* Each part rounded to a nanosecond, and a file's own digits. */
	slack = 1e-6 * (double)(reason_count + 1) + 1e-9 * t->off_cpu_s;
	if (fabs(sum - t->off_cpu_s) > slack)
		return cause_set(cause, -EINVAL,
				 "%s.reasons: they hold %.9f s of %.9f s off "
				 "the CPU",
				 path, sum, t->off_cpu_s);
	if (t->on_cpu_s + t->off_cpu_s > t->window_s * 1.001 + slack ||
	    (isfinite(t->cpu_clock_s) &&
	     (t->cpu_clock_s < 0 ||
	      t->cpu_clock_s > t->window_s * 1.001 + slack)))
		return cause_set(cause, -EINVAL,
				 "%s: on_cpu_s %.6f and off_cpu_s %.6f, or "
				 "cpu_clock_s %.6f, beyond window_s %.6f",
				 path, t->on_cpu_s, t->off_cpu_s,
				 t->cpu_clock_s, t->window_s);
	return 0;
}

int codec_read_time(const cJSON *from, struct run_time *t, const char *path,
		    enum codec_mode mode, char **cause)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(from, "reasons");
	const cJSON *item;
	char at[WHERE_MAX];

	memset(t, 0, sizeof(*t));
	if (codec_read(&run_time_record, from, t, path, CODEC_FILE, cause) < 0)
		return -EINVAL;
	snprintf(at, sizeof(at), "%s.reasons", path);
	if (!cJSON_IsObject(list))
		return cause_set(cause, -EINVAL, "%s: must be an object", at);
	for (size_t r = 0; r < reason_count; r++) {
		snprintf(at, sizeof(at), "%s.reasons.%s", path, reasons[r].key);
		item = cJSON_GetObjectItemCaseSensitive(list, reasons[r].key);
		if (!item && mode == CODEC_FILE)
			continue; /* a reason newer than the file */
		if (codec_read(&run_time_reason_record, item, &t->reason[r], at,
			       mode, cause) < 0)
			return -EINVAL;
	}
	cJSON_ArrayForEach(item, list)
	{
		if (reason_find(item->string) != SIZE_MAX)
			continue;
		snprintf(at, sizeof(at), "%s.reasons.%s", path, item->string);
		if (mode != CODEC_FILE)
			return cause_set(cause, -EINVAL, "%s: no such reason",
					 at);
		if (read_unknown_reason(item, t, at, cause) < 0)
			return -EINVAL;
	}
	if (check_time(t, path, cause) < 0)
		return -EINVAL;
	t->present = true;
	return 0;
}

cJSON *codec_metrics(const struct metric_values *v, bool counted_only)
{
	cJSON *obj = cJSON_CreateObject();

	for (size_t i = 0; i < metric_count; i++)
		if (!counted_only || metric_counted(&metrics[i]))
			cJSON_AddItemToObject(obj, metrics[i].key,
					      number_or_null(v->value[i]));
	return obj;
}

int codec_read_metrics(const cJSON *from, struct metric_values *v,
		       bool counted_only, const char *path,
		       enum codec_mode mode, char **cause)
{
	const cJSON *item;

	metric_values_unknown(v);
	if (!cJSON_IsObject(from))
		return cause_set(cause, -EINVAL, "%s: must be an object", path);
	cJSON_ArrayForEach(item, from)
	{
		int i = metric_find(item->string);

		if (i < 0 || (counted_only && !metric_counted(&metrics[i]))) {
			if (mode == CODEC_STRICT)
				return cause_set(cause, -EINVAL,
						 "%s.%s: not a key here", path,
						 item->string);
			continue;
		}
		if (cJSON_IsNull(item))
			continue;
		if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
			return cause_set(cause, -EINVAL,
					 "%s.%s: must be a number or null",
					 path, item->string);
		v->value[i] = item->valuedouble;
	}
	/* A figure a file lacks is unknown; the protocol sends them all. */
	for (size_t i = 0; mode == CODEC_STRICT && i < metric_count; i++)
		if ((!counted_only || metric_counted(&metrics[i])) &&
		    !cJSON_GetObjectItemCaseSensitive(from, metrics[i].key))
			return cause_set(cause, -EINVAL, "%s.%s: missing", path,
					 metrics[i].key);
	return 0;
}

cJSON *codec_probe_window(const struct probe_summary *w)
{
	cJSON *obj = codec_object(&latency_summary_record, &w->rtt);

	codec_write(&probe_window_record, w, obj);
	return obj;
}

int codec_read_probe_window(const cJSON *from, struct probe_summary *w,
			    const char *path, char **cause)
{
	*w = (struct probe_summary){0};
	if (!cJSON_IsObject(from))
		return cause_set(cause, -EINVAL, "%s: must be an object", path);
	if (codec_read(&latency_summary_record, from, &w->rtt, path, CODEC_FILE,
		       cause) < 0 ||
	    codec_read(&probe_window_record, from, w, path, CODEC_FILE, cause) <
		    0)
		return -EINVAL;
	return 0;
}

cJSON *codec_hist(const struct latency_hist *h)
{
	cJSON *obj = cJSON_CreateObject();
	cJSON *buckets = cJSON_CreateArray();
	uint64_t count = 0;

	for (unsigned int i = 0; i < LATENCY_BUCKETS; i++) {
		cJSON *row;

		if (!h->bucket[i])
			continue;
		row = cJSON_CreateArray();
		cJSON_AddItemToArray(row, cJSON_CreateNumber(i));
		cJSON_AddItemToArray(row, jsonfile_u64_item(h->bucket[i]));
		cJSON_AddItemToArray(buckets, row);
		count += h->bucket[i];
	}
	/*
	 * Read while the recorders record, a count may be one ahead of its
	 * buckets: the buckets are what is written, so they give the count.
	 */
	jsonfile_add_u64(obj, "count", count);
	jsonfile_add_u64(obj, "sum_ns", h->sum_ns);
	jsonfile_add_u64(obj, "max_ns", h->max_ns);
	cJSON_AddItemToObject(obj, "buckets", buckets);
	return obj;
}

int codec_read_hist(const cJSON *from, struct latency_hist *h, const char *path,
		    char **cause)
{
	static const char *const keys[] = {"count", "sum_ns", "max_ns",
					   "buckets"};
	uint64_t *values[] = {&h->count, &h->sum_ns, &h->max_ns};
	const cJSON *buckets, *row;
	uint64_t total = 0, next = 0;

	memset(h, 0, sizeof(*h));
	if (!cJSON_IsObject(from))
		return cause_set(cause, -EINVAL, "%s: must be an object", path);
	cJSON_ArrayForEach(row, from)
	{
		size_t k = 0;

		while (k < 4 && strcmp(keys[k], row->string) != 0)
			k++;
		if (k == 4)
			return cause_set(cause, -EINVAL,
					 "%s.%s: not a key here", path,
					 row->string);
	}
	for (size_t k = 0; k < 3; k++)
		if (jsonfile_u64(
			    cJSON_GetObjectItemCaseSensitive(from, keys[k]),
			    values[k]) < 0)
			return cause_set(cause, -EINVAL,
					 "%s.%s: must be an integer 0 .. "
					 "2^64-1",
					 path, keys[k]);
	buckets = cJSON_GetObjectItemCaseSensitive(from, "buckets");
	if (!cJSON_IsArray(buckets))
		return cause_set(cause, -EINVAL, "%s.buckets: must be a list",
				 path);
	cJSON_ArrayForEach(row, buckets)
	{
		uint64_t i, n;

		if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != 2 ||
		    jsonfile_u64(cJSON_GetArrayItem(row, 0), &i) < 0 ||
		    jsonfile_u64(cJSON_GetArrayItem(row, 1), &n) < 0)
			return cause_set(cause, -EINVAL,
					 "%s.buckets: each must be [bucket, "
					 "count]",
					 path);
		if (i < next || i >= LATENCY_BUCKETS)
			return cause_set(cause, -EINVAL,
					 "%s.buckets: bucket %" PRIu64
					 " out of order or past %u",
					 path, i, LATENCY_BUCKETS - 1);
		if (n > UINT64_MAX - total)
			return cause_set(cause, -EINVAL,
					 "%s.buckets: counts overflow", path);
		h->bucket[i] = n;
		total += n;
		next = i + 1;
	}
	if (total != h->count)
		return cause_set(cause, -EINVAL,
				 "%s.count: %" PRIu64
				 " but the buckets hold %" PRIu64,
				 path, h->count, total);
	return 0;
}

cJSON *codec_host(const struct host_info *host)
{
	return codec_object(&host_info_record, host);
}

static cJSON *capability_json(const struct capability *cap)
{
	cJSON *obj = codec_object(&capability_record, cap);

	/* Available: no reason, whatever the probe left there. */
	if (cap->available)
		cJSON_ReplaceItemInObjectCaseSensitive(obj, "reason",
						       cJSON_CreateNull());
	return obj;
}

/* The capabilities that are one capability each, by key. */
static const struct {
	const char *key;
	size_t offset;
	bool optional; /* newer than files that may lack it */
} plain_capabilities[] = {
	{"netns", offsetof(struct host_info, netns), false},
	{"veth", offsetof(struct host_info, veth), false},
	{"tbf", offsetof(struct host_info, tbf), false},
	{"netem", offsetof(struct host_info, netem), false},
	{"rx_zerocopy", offsetof(struct host_info, rx_zerocopy), true},
	{"uring_fixed", offsetof(struct host_info, uring_fixed), true},
	{"rx_uring", offsetof(struct host_info, rx_uring), true},
	{"rx_bundle", offsetof(struct host_info, rx_bundle), true},
	{"profile", offsetof(struct host_info, profile), true},
};

cJSON *codec_capabilities(const struct host_info *host)
{
	cJSON *obj = cJSON_CreateObject(), *pmu, *events, *strategies;

	for (size_t i = 0;
	     i < sizeof(plain_capabilities) / sizeof(*plain_capabilities); i++)
		cJSON_AddItemToObject(
			obj, plain_capabilities[i].key,
			capability_json((
				const struct capability *)((const char *)host +
							   plain_capabilities[i]
								   .offset)));
	pmu = capability_json(&host->pmu);
	events = cJSON_AddObjectToObject(pmu, "events");
	for (unsigned int i = 0; i < host->event_count; i++)
		cJSON_AddStringToObject(
			events, host->event_name[i],
			counter_status_name(host->event[i].status));
	cJSON_AddItemToObject(obj, "pmu", pmu);
	strategies = cJSON_CreateObject();
	for (size_t i = 0; i < strategy_count() && i < STRATEGIES_MAX; i++) {
		if (strategy_at(i) == &strategy_zero_copy)
			cJSON_AddItemToObject(
				obj, "zerocopy",
				capability_json(&host->strategy[i]));
		cJSON_AddItemToObject(strategies, strategy_at(i)->name,
				      capability_json(&host->strategy[i]));
	}
	cJSON_AddItemToObject(obj, "strategies", strategies);
	return obj;
}

int codec_read_host(const cJSON *host_json, const cJSON *capabilities,
		    struct host_info *host, const char *host_path,
		    const char *at, enum codec_mode mode, char **cause)
{
	const cJSON *item, *events, *strategies;
	char pmu[WHERE_MAX];

	memset(host, 0, sizeof(*host));
	if (codec_read(&host_info_record, host_json, host, host_path, mode,
		       cause) < 0)
		return -EINVAL;
	if (!cJSON_IsObject(capabilities))
		return cause_set(cause, -EINVAL, "%s: must be an object", at);
	for (size_t i = 0;
	     i < sizeof(plain_capabilities) / sizeof(*plain_capabilities);
	     i++) {
		char where[WHERE_MAX];

		snprintf(where, sizeof(where), "%s.%s", at,
			 plain_capabilities[i].key);
		if (plain_capabilities[i].optional &&
		    !cJSON_GetObjectItemCaseSensitive(
			    capabilities, plain_capabilities[i].key))
			continue;
		if (codec_read(&capability_record,
			       cJSON_GetObjectItemCaseSensitive(
				       capabilities, plain_capabilities[i].key),
			       (char *)host + plain_capabilities[i].offset,
			       where, CODEC_FILE, cause) < 0)
			return -EINVAL;
	}
	item = cJSON_GetObjectItemCaseSensitive(capabilities, "pmu");
	snprintf(pmu, sizeof(pmu), "%s.pmu", at);
	if (codec_read(&capability_record, item, &host->pmu, pmu, CODEC_FILE,
		       cause) < 0)
		return -EINVAL;
	events = cJSON_GetObjectItemCaseSensitive(item, "events");
	cJSON_ArrayForEach(item, events)
	{
		unsigned int n = host->event_count;

		if (n == COUNTERS_MAX || !cJSON_IsString(item))
			return cause_set(cause, -EINVAL,
					 "%s.events.%s: must be a status", pmu,
					 item->string);
		snprintf(host->event_name[n], sizeof(host->event_name[n]), "%s",
			 item->string);
		host->event[n].status = COUNTER_NOT_COUNTED;
		for (int s = 0; counter_status_names[s]; s++)
			if (strcmp(item->valuestring,
				   counter_status_names[s]) == 0)
				host->event[n].status = (enum counter_status)s;
		host->event_count++;
	}
	strategies = cJSON_GetObjectItemCaseSensitive(capabilities,
						      "strategies");
	cJSON_ArrayForEach(item, strategies)
	{
		const struct strategy_ops *ops = strategy_find(item->string);
		char where[WHERE_MAX];

		/* Another nio-top's strategy this one lacks: not shown. */
		if (!ops)
			continue;
		snprintf(where, sizeof(where), "%s.strategies.%s", at,
			 item->string);
		if (codec_read(&capability_record, item,
			       &host->strategy[strategy_index(ops)], where,
			       CODEC_FILE, cause) < 0)
			return -EINVAL;
	}
	return 0;
}
