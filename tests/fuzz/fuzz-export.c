/*
 * The export loader (--load FILE): any text either loads as runs or is
 * refused with an error naming the file, and a refused load leaves nothing
 * allocated behind.  The runs are read one at a time (jsonlist.h): the
 * pieces must parse exactly when the whole text does, each run as the whole
 * tree holds it, and a refusal must say what the whole parse says.
 */
#include "export.h"
#include "fuzz.h"
#include "jsonfile.h"
#include "jsonlist.h"

/*
 * Whether two trees parsed from the same text are the same, in order.
 * Not cJSON_Compare: it calls 1e400 (infinity) unequal to itself.
 */
static bool same_json(const cJSON *a, const cJSON *b)
{
	if ((a->type & 0xFF) != (b->type & 0xFF))
		return false;
	if (cJSON_IsNumber(a))
		return a->valuedouble == b->valuedouble;
	if (cJSON_IsString(a))
		return strcmp(a->valuestring, b->valuestring) == 0;
	if (!cJSON_IsArray(a) && !cJSON_IsObject(a))
		return true; /* null, true, false */
	for (a = a->child, b = b->child; a && b; a = a->next, b = b->next)
		if ((a->string || b->string) &&
		    (!a->string || !b->string || strcmp(a->string, b->string)))
			return false;
		else if (!same_json(a, b))
			return false;
	return !a && !b;
}

/* The runs read in pieces, checked against the whole tree's. */
static int read_pieces(const char *text, size_t size, const cJSON *whole,
		       const char *whole_cause)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(whole, "runs");
	const cJSON *expect = cJSON_IsArray(runs) ? runs->child : NULL;
	struct jsonfile_list *list = NULL;
	cJSON *head = NULL, *item;
	char *cause = NULL, *copy = fuzz_text((const uint8_t *)text, size);
	int r;

	r = jsonfile_parse_list("fuzz.json", copy, size, "runs", &head, &list,
				&cause);
	while (r == 0 && (r = jsonfile_list_next(list, &item, &cause)) == 1) {
		/* A refused whole may hand out the runs before the fault. */
		if (whole && (!expect || !same_json(item, expect)))
			fuzz_fail("a run read alone is not the whole's");
		expect = expect ? expect->next : NULL;
		cJSON_Delete(item);
		r = 0;
	}
	if ((r < 0) != (whole == NULL))
		fuzz_fail("pieces %s what the whole %s",
			  r < 0 ? "refuse" : "accept",
			  whole ? "accepts" : "refuses");
	if (r < 0 && strcmp(cause, whole_cause) != 0)
		fuzz_fail("pieces say \"%s\", the whole \"%s\"", cause,
			  whole_cause);
	if (r == 0 && expect)
		fuzz_fail("runs left out of the pieces");
	jsonfile_list_free(list);
	cJSON_Delete(head);
	free(cause);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct options defaults;
	static int made;
	char *argv[] = {"nio-top", NULL};
	char *text = fuzz_text(data, size), *cause = NULL;
	struct jsonfile_list *runs;
	struct options opts;
	struct session session;
	cJSON *root = NULL;
	int r;

	if (!made) {
		if (options_parse(1, argv, &defaults, &cause) < 0)
			fuzz_fail("the defaults do not parse: %s", cause);
		defaults.viewing_only = 1;
		made = 1;
	}
	opts = defaults;
	r = jsonfile_parse("fuzz.json", text, size, &root, &cause);
	read_pieces(text, size, root, cause);
	if (r == 0) {
		runs = jsonfile_list_of(root, "runs");
		if (!runs)
			abort();
		r = export_from_json(root, runs, "fuzz.json", &session, &opts,
				     &cause);
		jsonfile_list_free(runs);
		if (r == 0) {
			if (session.result_count > 0 && !session.results)
				fuzz_fail("runs counted but not kept");
			session_close(&session);
		}
	}
	if (r < 0 && (!cause || strncmp(cause, "fuzz.json", 9) != 0))
		fuzz_fail("an error that does not name the file: \"%s\"",
			  cause ? cause : "(none)");
	free(opts.warnings);
	free(cause);
	cJSON_Delete(root);
	free(text);
	return 0;
}
