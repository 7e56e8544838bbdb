/*
 * The control protocol: line framing, the table of messages and their keys
 * that every received message is checked against, and the shared parts
 * (totals, counter readings and values, histograms) in both directions.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonfile.h"
#include "proto.h"

#define TEXT_MAX 4096

enum field_kind {
	FIELD_TEXT,
	FIELD_INTEGER, /* exact, min .. max */
	FIELD_NUMBER,  /* finite, or null: unknown */
	FIELD_BOOL,
	FIELD_OBJECT,
	FIELD_LIST,
};

struct field {
	const char *key;
	enum field_kind kind;
	bool required;
	bool nullable;
	uint64_t min, max; /* integers; lengths of text and lists */
};

struct message_type {
	const char *name;
	const struct field *fields;
};

#define RUN_ID                                                                 \
	{                                                                      \
		"run", FIELD_INTEGER, true, false, 1, UINT32_MAX               \
	}
#define END                                                                    \
	{                                                                      \
		NULL, 0, false, false, 0, 0                                    \
	}
#define TEXT(k, r, max)                                                        \
	{                                                                      \
		k, FIELD_TEXT, r, false, 0, max                                \
	}

static const struct field hello_fields[] = {
	{"version", FIELD_INTEGER, true, false, 0, UINT32_MAX},
	TEXT("secret", false, PROTO_SECRET_MAX),
	TEXT("tool", false, 64),
	END,
};
static const struct field welcome_fields[] = {
	{"version", FIELD_INTEGER, true, false, 0, UINT32_MAX},
	TEXT("tool", true, 64),
	{"host", FIELD_OBJECT, true, false, 0, 0},
	{"capabilities", FIELD_OBJECT, true, false, 0, 0},
	END,
};
static const struct field error_fields[] = {
	TEXT("error", true, TEXT_MAX),
	{"version", FIELD_INTEGER, false, false, 0, UINT32_MAX},
	END,
};
static const struct field refused_fields[] = {
	RUN_ID,
	TEXT("error", true, TEXT_MAX),
	END,
};
static const struct field run_fields[] = {
	RUN_ID,
	TEXT("agent_side", true, 16),
	{"config", FIELD_OBJECT, true, false, 0, 0},
	END,
};
static const struct field ready_fields[] = {
	RUN_ID,
	{"port", FIELD_INTEGER, true, false, 1, 65535},
	END,
};
static const struct field flows_fields[] = {
	RUN_ID,
	{"ports", FIELD_LIST, true, false, 1, 64},
	END,
};
static const struct field run_only_fields[] = {RUN_ID, END};
static const struct field abort_fields[] = {
	RUN_ID,
	TEXT("reason", false, TEXT_MAX),
	END,
};
static const struct field tick_fields[] = {
	RUN_ID,
	{"totals", FIELD_OBJECT, true, false, 0, 0},
	{"counting", FIELD_BOOL, true, false, 0, 0},
	{"pmu", FIELD_BOOL, true, false, 0, 0},
	{"counters", FIELD_LIST, true, false, 0, COUNTERS_MAX},
	{"open", FIELD_LIST, true, false, 0, COUNTERS_MAX},
	{"latency", FIELD_OBJECT, true, true, 0, 0},
	{"error", FIELD_TEXT, true, true, 0, TEXT_MAX},
	END,
};
static const struct field result_fields[] = {
	RUN_ID,
	{"totals", FIELD_OBJECT, true, false, 0, 0},
	{"measured_s", FIELD_NUMBER, true, true, 0, 0},
	{"gbps", FIELD_NUMBER, true, true, 0, 0},
	{"msgs_per_s", FIELD_NUMBER, true, true, 0, 0},
	{"counted", FIELD_BOOL, true, false, 0, 0},
	{"counters", FIELD_LIST, true, false, 0, COUNTERS_MAX},
	{"derived", FIELD_OBJECT, true, true, 0, 0},
	{"latency", FIELD_OBJECT, true, true, 0, 0},
	{"error", FIELD_TEXT, true, true, 0, TEXT_MAX},
	END,
};

static const struct message_type message_types[] = {
	{"hello", hello_fields},      {"welcome", welcome_fields},
	{"error", error_fields},      {"refused", refused_fields},
	{"run", run_fields},	      {"ready", ready_fields},
	{"flows", flows_fields},      {"started", run_only_fields},
	{"measure", run_only_fields}, {"stop", run_only_fields},
	{"abort", abort_fields},      {"tick", tick_fields},
	{"result", result_fields},
};

static int proto_fail(char **cause, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int proto_fail(char **cause, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(cause, fmt, ap) < 0)
		*cause = NULL;
	va_end(ap);
	return -EINVAL;
}

int proto_read_secret(const char *path, char *secret, size_t size, char **cause)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	ssize_t n;
	char *nl;

	if (fd < 0)
		return proto_fail(cause, "--auth-file: %s: %s", path,
				  strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return proto_fail(cause, "--auth-file: %s: not a regular file",
				  path);
	}
	n = read(fd, secret, size - 1);
	close(fd);
	if (n < 0)
		return proto_fail(cause, "--auth-file: %s: %s", path,
				  strerror(errno));
	secret[n] = '\0';
	nl = strpbrk(secret, "\r\n");
	if (nl)
		*nl = '\0';
	else if ((size_t)n == size - 1)
		return proto_fail(cause,
				  "--auth-file: %s: the secret is longer than "
				  "%zu bytes",
				  path, size - 2);
	if (!secret[0] || strlen(secret) != strcspn(secret, "\r\n"))
		return proto_fail(cause,
				  "--auth-file: %s: the first line holds no "
				  "secret",
				  path);
	return 0;
}

bool proto_secret_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char diff = la != lb;

	for (size_t i = 0; i < la; i++)
		diff |= (unsigned char)a[i] ^ (unsigned char)b[i % (lb + 1)];
	return diff == 0;
}

int proto_reader_init(struct proto_reader *r, size_t max)
{
	*r = (struct proto_reader){.max = max};
	r->buf = malloc(max + 1);
	return r->buf ? 0 : -ENOMEM;
}

void proto_reader_fini(struct proto_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

void proto_reader_reset(struct proto_reader *r)
{
	r->len = r->scanned = r->taken = 0;
}

ssize_t proto_reader_fill(struct proto_reader *r, int fd)
{
	ssize_t n;

	if (r->len == r->max)
		return -EMSGSIZE;
	n = read(fd, r->buf + r->len, r->max - r->len);
	if (n < 0)
		return -errno;
	r->len += (size_t)n;
	return n;
}

int proto_reader_next(struct proto_reader *r, char **line, size_t *len)
{
	char *nl;

	/* The line handed out last time is gone from the front. */
	if (r->taken) {
		memmove(r->buf, r->buf + r->taken, r->len - r->taken);
		r->len -= r->taken;
		r->taken = r->scanned = 0;
	}
	nl = memchr(r->buf + r->scanned, '\n', r->len - r->scanned);
	if (!nl) {
		r->scanned = r->len;
		return r->len == r->max ? -EMSGSIZE : 0;
	}
	*nl = '\0';
	*line = r->buf;
	*len = (size_t)(nl - r->buf);
	r->taken = *len + 1;
	return 1;
}

static const char *const field_kind_rule[] = {
	[FIELD_TEXT] = "must be text",
	[FIELD_INTEGER] = "must be an integer",
	[FIELD_NUMBER] = "must be a number",
	[FIELD_BOOL] = "must be true or false",
	[FIELD_OBJECT] = "must be an object",
	[FIELD_LIST] = "must be a list",
};

static int check_field(const struct field *f, const cJSON *item,
		       const char *type, char **cause)
{
	uint64_t n;
	size_t len;

	if (cJSON_IsNull(item) && f->nullable)
		return 0;
	switch (f->kind) {
	case FIELD_TEXT:
		if (!cJSON_IsString(item))
			break;
		len = strlen(item->valuestring);
		if (len > f->max)
			return proto_fail(
				cause, "%s.%s: longer than %" PRIu64 " bytes",
				type, f->key, f->max);
		return 0;
	case FIELD_INTEGER:
		if (jsonfile_u64(item, &n) < 0 || n < f->min || n > f->max)
			return proto_fail(cause,
					  "%s.%s: must be an integer %" PRIu64
					  " .. %" PRIu64,
					  type, f->key, f->min, f->max);
		return 0;
	case FIELD_NUMBER:
		if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
			break;
		return 0;
	case FIELD_BOOL:
		if (!cJSON_IsBool(item))
			break;
		return 0;
	case FIELD_OBJECT:
		if (!cJSON_IsObject(item))
			break;
		return 0;
	case FIELD_LIST:
		if (!cJSON_IsArray(item))
			break;
		if ((uint64_t)cJSON_GetArraySize(item) < f->min ||
		    (uint64_t)cJSON_GetArraySize(item) > f->max)
			return proto_fail(cause,
					  "%s.%s: must hold %" PRIu64
					  " .. %" PRIu64 " items",
					  type, f->key, f->min, f->max);
		return 0;
	}
	return proto_fail(cause, "%s.%s: %s%s", type, f->key,
			  field_kind_rule[f->kind],
			  f->nullable ? " or null" : "");
}

/* Every key known, every required key there, every value of its kind. */
static int check_message(const struct message_type *t, const cJSON *msg,
			 char **cause)
{
	const cJSON *item;

	cJSON_ArrayForEach(item, msg)
	{
		const struct field *f = t->fields;

		if (strcmp(item->string, "type") == 0)
			continue;
		while (f->key && strcmp(f->key, item->string) != 0)
			f++;
		if (!f->key)
			return proto_fail(cause, "%s.%s: not a key of %s",
					  t->name, item->string, t->name);
		if (check_field(f, item, t->name, cause) < 0)
			return -EINVAL;
	}
	for (const struct field *f = t->fields; f->key; f++) {
		if (f->required &&
		    !cJSON_GetObjectItemCaseSensitive(msg, f->key))
			return proto_fail(cause, "%s.%s: missing", t->name,
					  f->key);
	}
	return 0;
}

/*
 * A version, wherever given, is checked before anything else: a message of
 * another version may hold other keys, and the error must say the versions.
 */
static int check_version(const cJSON *msg, char **cause)
{
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(msg, "version");
	uint64_t v;

	if (!version || jsonfile_u64(version, &v) < 0 || v == PROTO_VERSION)
		return 0;
	if (asprintf(cause,
		     "protocol version %" PRIu64
		     " is not supported: this nio-top speaks version %d",
		     v, PROTO_VERSION) < 0)
		*cause = NULL;
	return -EPROTONOSUPPORT;
}

int proto_parse(const char *line, size_t len, cJSON **msg, const char **type,
		char **cause)
{
	const cJSON *name;
	int r;

	*msg = NULL;
	*cause = NULL;
	r = jsonfile_parse("message", line, len, msg, cause);
	if (r < 0)
		return -EINVAL;
	if (!cJSON_IsObject(*msg)) {
		r = proto_fail(cause, "message: must be an object");
		goto err;
	}
	name = cJSON_GetObjectItemCaseSensitive(*msg, "type");
	if (!cJSON_IsString(name)) {
		r = proto_fail(cause, "type: missing, or not text");
		goto err;
	}
	for (size_t i = 0; i < sizeof(message_types) / sizeof(*message_types);
	     i++) {
		if (strcmp(name->valuestring, message_types[i].name) != 0)
			continue;
		r = check_version(*msg, cause);
		if (r == 0)
			r = check_message(&message_types[i], *msg, cause);
		if (r < 0)
			goto err;
		*type = message_types[i].name;
		return 0;
	}
	r = proto_fail(cause, "type: \"%.64s\" is not a message",
		       name->valuestring);
err:
	cJSON_Delete(*msg);
	*msg = NULL;
	return r;
}

cJSON *proto_message(const char *type, unsigned int id)
{
	cJSON *msg = cJSON_CreateObject();

	cJSON_AddStringToObject(msg, "type", type);
	if (id)
		cJSON_AddNumberToObject(msg, "run", id);
	return msg;
}

int proto_send(int fd, const cJSON *msg)
{
	char *text = cJSON_PrintUnformatted(msg);
	size_t len, done = 0;
	int r = 0;

	if (!text)
		return -ENOMEM;
	len = strlen(text);
	text[len++] = '\n'; /* over the NUL: the length is known */
	while (done < len) {
		ssize_t n = send(fd, text + done, len - done, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EPIPE;
			break;
		}
		done += (size_t)n;
	}
	cJSON_free(text);
	return r;
}

int proto_send_error(int fd, const char *text)
{
	cJSON *msg = proto_message("error", 0);
	int r;

	cJSON_AddStringToObject(msg, "error", text);
	cJSON_AddNumberToObject(msg, "version", PROTO_VERSION);
	r = proto_send(fd, msg);
	cJSON_Delete(msg);
	return r;
}

unsigned int proto_run_id(const cJSON *msg)
{
	uint64_t id;

	if (jsonfile_u64(cJSON_GetObjectItemCaseSensitive(msg, "run"), &id) <
		    0 ||
	    id > UINT32_MAX)
		return 0;
	return (unsigned int)id;
}

/* A number that may be unknown: NaN goes as null. */
static cJSON *number(double value)
{
	return isfinite(value) ? cJSON_CreateNumber(value) : cJSON_CreateNull();
}

static int read_number(const cJSON *item, const char *path, const char *key,
		       double *value, char **cause)
{
	if (cJSON_IsNull(item)) {
		*value = NAN;
		return 0;
	}
	if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
		return proto_fail(cause, "%s.%s: must be a number or null",
				  path, key);
	*value = item->valuedouble;
	return 0;
}

static int read_u64(const cJSON *item, const char *path, const char *key,
		    uint64_t *value, char **cause)
{
	if (jsonfile_u64(item, value) < 0)
		return proto_fail(cause,
				  "%s.%s: must be an integer 0 .. 2^64-1", path,
				  key);
	return 0;
}

/* Exactly the keys given: none missing, none unknown. */
static int check_keys(const cJSON *obj, const char *path,
		      const char *const *keys, size_t count, char **cause)
{
	const cJSON *item;

	if (!cJSON_IsObject(obj))
		return proto_fail(cause, "%s: must be an object", path);
	cJSON_ArrayForEach(item, obj)
	{
		size_t i = 0;

		while (i < count && strcmp(keys[i], item->string) != 0)
			i++;
		if (i == count)
			return proto_fail(cause, "%s.%s: not a key here", path,
					  item->string);
	}
	for (size_t i = 0; i < count; i++) {
		if (!cJSON_GetObjectItemCaseSensitive(obj, keys[i]))
			return proto_fail(cause, "%s.%s: missing", path,
					  keys[i]);
	}
	return 0;
}

/* The totals' keys, and where each goes in struct run_totals. */
#define TOTAL(name)                                                            \
	{                                                                      \
#name, offsetof(struct run_totals, name)                       \
	}
static const struct sample_field totals_keys[] = {
	TOTAL(messages_sent),  TOTAL(bytes_sent),     TOTAL(messages_received),
	TOTAL(bytes_received), TOTAL(checked),	      TOTAL(corrupt),
	TOTAL(zc_sends),       TOTAL(zc_completions), TOTAL(zc_copied),
	TOTAL(zc_enobufs),
};
#undef TOTAL

#define TOTALS_COUNT (sizeof(totals_keys) / sizeof(*totals_keys))

/* Exactly the keys of a part: none missing, none unknown. */
static int check_part(const cJSON *obj, const char *path,
		      const struct sample_field *keys, size_t count,
		      char **cause)
{
	const char *names[16];

	if (count > sizeof(names) / sizeof(*names))
		return proto_fail(cause, "%s: too many keys", path);

	for (size_t i = 0; i < count; i++)
		names[i] = keys[i].key;
	return check_keys(obj, path, names, count, cause);
}

cJSON *proto_totals(const struct run_totals *t)
{
	cJSON *obj = cJSON_CreateObject();

	for (size_t i = 0; i < TOTALS_COUNT; i++)
		jsonfile_add_u64(obj, totals_keys[i].key,
				 *(const uint64_t *)((const char *)t +
						     totals_keys[i].offset));
	return obj;
}

int proto_read_totals(const cJSON *item, const char *path, struct run_totals *t,
		      char **cause)
{
	if (check_part(item, path, totals_keys, TOTALS_COUNT, cause))
		return -EINVAL;
	for (size_t i = 0; i < TOTALS_COUNT; i++) {
		const char *key = totals_keys[i].key;

		if (read_u64(cJSON_GetObjectItemCaseSensitive(item, key), path,
			     key,
			     (uint64_t *)((char *)t + totals_keys[i].offset),
			     cause))
			return -EINVAL;
	}
	return 0;
}

/* A list of exactly count items, each a list of exactly width. */
static int check_rows(const cJSON *item, const char *path, unsigned int count,
		      int width, char **cause)
{
	const cJSON *row;
	unsigned int i = 0;

	if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != (int)count)
		return proto_fail(cause, "%s: must be a list of %u items", path,
				  count);
	cJSON_ArrayForEach(row, item)
	{
		if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != width)
			return proto_fail(cause,
					  "%s[%u]: must be a list of %d items",
					  path, i, width);
		i++;
	}
	return 0;
}

cJSON *proto_readings(const struct counter_reading *r, unsigned int count)
{
	cJSON *list = cJSON_CreateArray();

	for (unsigned int i = 0; i < count; i++) {
		cJSON *row = cJSON_CreateArray();

		cJSON_AddItemToArray(row, number(r[i].value));
		cJSON_AddItemToArray(row, jsonfile_u64_item(r[i].enabled_ns));
		cJSON_AddItemToArray(row, jsonfile_u64_item(r[i].running_ns));
		cJSON_AddItemToArray(list, row);
	}
	return list;
}

int proto_read_readings(const cJSON *item, const char *path,
			struct counter_reading *r, unsigned int count,
			char **cause)
{
	char at[64];

	if (check_rows(item, path, count, 3, cause))
		return -EINVAL;
	for (unsigned int i = 0; i < count; i++) {
		const cJSON *row = cJSON_GetArrayItem(item, (int)i);

		snprintf(at, sizeof(at), "%s[%u]", path, i);
		if (read_number(cJSON_GetArrayItem(row, 0), at, "value",
				&r[i].value, cause) ||
		    read_u64(cJSON_GetArrayItem(row, 1), at, "enabled_ns",
			     &r[i].enabled_ns, cause) ||
		    read_u64(cJSON_GetArrayItem(row, 2), at, "running_ns",
			     &r[i].running_ns, cause))
			return -EINVAL;
		if (isnan(r[i].value) || r[i].value < 0)
			return proto_fail(cause, "%s.value: must be >= 0", at);
	}
	return 0;
}

cJSON *proto_open_errors(const int *error, const bool *user_only,
			 unsigned int count)
{
	cJSON *list = cJSON_CreateArray();

	for (unsigned int i = 0; i < count; i++) {
		cJSON *row = cJSON_CreateArray();

		cJSON_AddItemToArray(row, cJSON_CreateNumber(-error[i]));
		cJSON_AddItemToArray(row, cJSON_CreateBool(user_only[i]));
		cJSON_AddItemToArray(list, row);
	}
	return list;
}

int proto_read_open_errors(const cJSON *item, const char *path, int *error,
			   bool *user_only, unsigned int count, char **cause)
{
	if (check_rows(item, path, count, 2, cause))
		return -EINVAL;
	for (unsigned int i = 0; i < count; i++) {
		const cJSON *row = cJSON_GetArrayItem(item, (int)i);
		const cJSON *uo = cJSON_GetArrayItem(row, 1);
		uint64_t err;

		if (jsonfile_u64(cJSON_GetArrayItem(row, 0), &err) < 0 ||
		    err > 4095)
			return proto_fail(
				cause, "%s[%u][0]: must be an errno 0 .. 4095",
				path, i);
		if (!cJSON_IsBool(uo))
			return proto_fail(cause,
					  "%s[%u][1]: must be true or false",
					  path, i);
		error[i] = -(int)err;
		user_only[i] = cJSON_IsTrue(uo);
	}
	return 0;
}

cJSON *proto_values(const struct counter_value *v, unsigned int count)
{
	cJSON *list = cJSON_CreateArray();

	for (unsigned int i = 0; i < count; i++) {
		cJSON *obj = cJSON_CreateObject();

		cJSON_AddStringToObject(obj, "status",
					counter_status_name(v[i].status));
		cJSON_AddItemToObject(obj, "value",
				      v[i].has_value ? number(v[i].value)
						     : cJSON_CreateNull());
		cJSON_AddItemToObject(obj, "running_pct",
				      number(v[i].running_pct));
		cJSON_AddStringToObject(obj, "reason", v[i].reason);
		cJSON_AddItemToArray(list, obj);
	}
	return list;
}

int proto_read_values(const cJSON *item, const char *path,
		      struct counter_value *v, unsigned int count, char **cause)
{
	static const char *const keys[] = {"status", "value", "running_pct",
					   "reason"};
	char at[64];

	if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != (int)count)
		return proto_fail(cause, "%s: must be a list of %u items", path,
				  count);
	for (unsigned int i = 0; i < count; i++) {
		const cJSON *obj = cJSON_GetArrayItem(item, (int)i);
		const cJSON *status, *reason;
		int s = COUNTER_OK;

		snprintf(at, sizeof(at), "%s[%u]", path, i);
		if (check_keys(obj, at, keys, 4, cause))
			return -EINVAL;
		v[i] = (struct counter_value){0};
		status = cJSON_GetObjectItemCaseSensitive(obj, "status");
		while (s <= COUNTER_USER_ONLY && cJSON_IsString(status) &&
		       strcmp(status->valuestring, counter_status_name(s)) != 0)
			s++;
		if (s > COUNTER_USER_ONLY || !cJSON_IsString(status))
			return proto_fail(cause, "%s.status: not a status", at);
		v[i].status = (enum counter_status)s;
		reason = cJSON_GetObjectItemCaseSensitive(obj, "reason");
		if (!cJSON_IsString(reason) ||
		    strlen(reason->valuestring) >= sizeof(v[i].reason))
			return proto_fail(cause,
					  "%s.reason: must be text of at most "
					  "%zu bytes",
					  at, sizeof(v[i].reason) - 1);
		strcpy(v[i].reason, reason->valuestring);
		if (read_number(cJSON_GetObjectItemCaseSensitive(obj, "value"),
				at, "value", &v[i].value, cause) ||
		    read_number(cJSON_GetObjectItemCaseSensitive(obj,
								 "running_pct"),
				at, "running_pct", &v[i].running_pct, cause))
			return -EINVAL;
		v[i].has_value = !isnan(v[i].value);
	}
	return 0;
}

cJSON *proto_derived(const struct counter_derived *d)
{
	cJSON *obj = cJSON_CreateObject();

	for (size_t i = 0; i < counter_derived_field_count; i++)
		cJSON_AddItemToObject(
			obj, counter_derived_fields[i].key,
			number(*(const double *)((const char *)d +
						 counter_derived_fields[i]
							 .offset)));
	return obj;
}

int proto_read_derived(const cJSON *item, const char *path,
		       struct counter_derived *d, char **cause)
{
	if (check_part(item, path, counter_derived_fields,
		       counter_derived_field_count, cause))
		return -EINVAL;
	for (size_t i = 0; i < counter_derived_field_count; i++) {
		const char *key = counter_derived_fields[i].key;

		if (read_number(cJSON_GetObjectItemCaseSensitive(item, key),
				path, key,
				(double *)((char *)d +
					   counter_derived_fields[i].offset),
				cause))
			return -EINVAL;
	}
	return 0;
}

cJSON *proto_hist(const struct latency_hist *h)
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
	 * buckets: the buckets are what is sent, so they give the count.
	 */
	jsonfile_add_u64(obj, "count", count);
	jsonfile_add_u64(obj, "sum_ns", h->sum_ns);
	jsonfile_add_u64(obj, "max_ns", h->max_ns);
	cJSON_AddItemToObject(obj, "buckets", buckets);
	return obj;
}

int proto_read_hist(const cJSON *item, const char *path, struct latency_hist *h,
		    char **cause)
{
	static const char *const keys[] = {"count", "sum_ns", "max_ns",
					   "buckets"};
	const cJSON *buckets, *row;
	uint64_t total = 0, next = 0;
	char at[64];

	memset(h, 0, sizeof(*h));
	if (check_keys(item, path, keys, 4, cause) ||
	    read_u64(cJSON_GetObjectItemCaseSensitive(item, "count"), path,
		     "count", &h->count, cause) ||
	    read_u64(cJSON_GetObjectItemCaseSensitive(item, "sum_ns"), path,
		     "sum_ns", &h->sum_ns, cause) ||
	    read_u64(cJSON_GetObjectItemCaseSensitive(item, "max_ns"), path,
		     "max_ns", &h->max_ns, cause))
		return -EINVAL;
	buckets = cJSON_GetObjectItemCaseSensitive(item, "buckets");
	if (!cJSON_IsArray(buckets))
		return proto_fail(cause, "%s.buckets: must be a list", path);
	snprintf(at, sizeof(at), "%s.buckets", path);
	cJSON_ArrayForEach(row, buckets)
	{
		uint64_t i, n;

		if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != 2 ||
		    jsonfile_u64(cJSON_GetArrayItem(row, 0), &i) < 0 ||
		    jsonfile_u64(cJSON_GetArrayItem(row, 1), &n) < 0)
			return proto_fail(
				cause, "%s: each must be [bucket, count]", at);
		if (i < next || i >= LATENCY_BUCKETS)
			return proto_fail(cause,
					  "%s: bucket %" PRIu64
					  " out of order or past %u",
					  at, i, LATENCY_BUCKETS - 1);
		if (n > UINT64_MAX - total)
			return proto_fail(cause, "%s: counts overflow", at);
		h->bucket[i] = n;
		total += n;
		next = i + 1;
	}
	if (total != h->count)
		return proto_fail(cause,
				  "%s.count: %" PRIu64
				  " but the buckets hold %" PRIu64,
				  path, h->count, total);
	return 0;
}
