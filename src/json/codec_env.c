/*
 * The environment as JSON: "sysctl" and "mitigations" are objects of names
 * to text (null where the file was not there), "links" the senders' and
 * the receivers' as topo_link_record says, the rest text.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cause.h"
#include "codec.h"

static cJSON *text_or_null(const char *text)
{
	return text[0] ? cJSON_CreateString(text) : cJSON_CreateNull();
}

static cJSON *entries(const struct env_entry *e, size_t count)
{
	cJSON *obj = cJSON_CreateObject();

	for (size_t i = 0; i < count; i++)
		cJSON_AddItemToObject(obj, e[i].name, text_or_null(e[i].value));
	return obj;
}

cJSON *codec_environment(const struct host_env *env)
{
	cJSON *obj = cJSON_CreateObject(), *links;

	cJSON_AddItemToObject(obj, "sysctl",
			      entries(env->sysctl, env->sysctl_count));
	if (env->has_links) {
		links = cJSON_AddObjectToObject(obj, "links");
		cJSON_AddItemToObject(
			links, "senders",
			codec_object(&topo_link_record, &env->link[0]));
		cJSON_AddItemToObject(
			links, "receivers",
			codec_object(&topo_link_record, &env->link[1]));
	} else {
		cJSON_AddNullToObject(obj, "links");
	}
	cJSON_AddItemToObject(obj, "cpu_governor", text_or_null(env->governor));
	cJSON_AddItemToObject(obj, "transparent_hugepages",
			      text_or_null(env->thp));
	cJSON_AddItemToObject(obj, "mitigations",
			      entries(env->mitigation, env->mitigation_count));
	cJSON_AddItemToObject(obj, "cmdline", text_or_null(env->cmdline));
	return obj;
}

/* An object of names to text or null, as many as fit. */
static int read_entries(const cJSON *from, struct env_entry *e, size_t max,
			size_t *count, const char *path, char **cause)
{
	const cJSON *item;

	*count = 0;
	if (!cJSON_IsObject(from))
		return cause_set(cause, -EINVAL, "%s: must be an object", path);
	cJSON_ArrayForEach(item, from)
	{
		if (*count == max)
			break;
		if (!cJSON_IsString(item) && !cJSON_IsNull(item))
			return cause_set(cause, -EINVAL,
					 "%s: each value must be text or null",
					 path);
		if (strlen(item->string) >= sizeof(e->name) ||
		    (item->valuestring &&
		     strlen(item->valuestring) >= sizeof(e->value)))
			return cause_set(cause, -EINVAL,
					 "%s: a name over %zu or a value over "
					 "%zu characters",
					 path, sizeof(e->name) - 1,
					 sizeof(e->value) - 1);
		snprintf(e[*count].name, sizeof(e->name), "%s", item->string);
		snprintf(e[*count].value, sizeof(e->value), "%s",
			 item->valuestring ? item->valuestring : "");
		(*count)++;
	}
	return 0;
}

/* Text or null at key into out; absent is "". */
static int read_text(const cJSON *from, const char *key, char *out, size_t size,
		     const char *path, char **cause)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(from, key);

	out[0] = '\0';
	if (!item || cJSON_IsNull(item))
		return 0;
	if (!cJSON_IsString(item) || strlen(item->valuestring) >= size)
		return cause_set(cause, -EINVAL,
				 "%s.%s: must be text of at most %zu "
				 "characters, or null",
				 path, key, size - 1);
	snprintf(out, size, "%s", item->valuestring);
	return 0;
}

int codec_read_environment(const cJSON *from, struct host_env *env,
			   const char *path, char **cause)
{
	const cJSON *links = cJSON_GetObjectItemCaseSensitive(from, "links");
	char at[4400];

	memset(env, 0, sizeof(*env));
	if (!cJSON_IsObject(from))
		return cause_set(cause, -EINVAL, "%s: must be an object", path);
	snprintf(at, sizeof(at), "%s.sysctl", path);
	if (read_entries(cJSON_GetObjectItemCaseSensitive(from, "sysctl"),
			 env->sysctl, ENV_SYSCTLS_MAX, &env->sysctl_count, at,
			 cause) < 0)
		return -EINVAL;
	snprintf(at, sizeof(at), "%s.mitigations", path);
	if (read_entries(cJSON_GetObjectItemCaseSensitive(from, "mitigations"),
			 env->mitigation, ENV_MITIGATIONS_MAX,
			 &env->mitigation_count, at, cause) < 0)
		return -EINVAL;
	if (read_text(from, "cpu_governor", env->governor,
		      sizeof(env->governor), path, cause) < 0 ||
	    read_text(from, "transparent_hugepages", env->thp, sizeof(env->thp),
		      path, cause) < 0 ||
	    read_text(from, "cmdline", env->cmdline, sizeof(env->cmdline), path,
		      cause) < 0)
		return -EINVAL;
	env->has_links = links && !cJSON_IsNull(links);
	for (int i = 0; i < 2 && env->has_links; i++) {
		const char *key = i ? "receivers" : "senders";

		snprintf(at, sizeof(at), "%s.links.%s", path, key);
		if (codec_read(&topo_link_record,
			       cJSON_GetObjectItemCaseSensitive(links, key),
			       &env->link[i], at, CODEC_FILE, cause) < 0)
			return -EINVAL;
	}
	return 0;
}
