/*
 * Themes against their page: every shipped theme loads, nio-top-theme(5)
 * documents every key nio-top reads, and bad files are refused with what is
 * wrong: the line for a syntax error, the size for a file too long to read
 * whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "text.h"
#include "theme.h"

static void test_shipped(const char *dir)
{
	const char *names[] = {"default", "gruvbox-dark", "monochrome", "nord"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct theme theme;
		char *cause = NULL;
		int r = theme_load(dir, names[i], &theme, &cause);

		ok(r == 0 && strcmp(theme.name, names[i]) == 0,
		   "themes/%s.theme loads (%s)", names[i],
		   cause ? cause : "ok");
		free(cause);
	}
}

static void test_page(const char *page)
{
	char *text = read_text(page);

	ok(text != NULL, "%s reads", page);
	for (int k = 0; text && k < THEME_KEY_COUNT; k++) {
		char item[64];

		snprintf(item, sizeof(item), "\n.It Li %s\n",
			 theme_key_names[k]);
		ok(strstr(text, item) != NULL, "the page documents %s",
		   theme_key_names[k]);
	}
	free(text);
}

static void test_bad(void)
{
	char dir[] = "/tmp/nio-top-theme.XXXXXX", path[64], *cause = NULL;
	struct theme theme;
	FILE *f;
	int r;

	if (!ok(mkdtemp(dir) != NULL, "a temporary folder"))
		return;
	theme_default(&theme);
	r = theme_parse("# ok\ntheme[hi_fg]=\"#123\"\n", &theme, &cause);
	ok(r < 0 && cause &&
		   strcmp(cause, "line 2: not a colour (#rrggbb, "
				 "#gg or \"r g b\"): hi_fg") == 0,
	   "a bad colour names its line and key (%s)", cause);
	free(cause);
	cause = NULL;
	r = theme_parse("theme[hi_fg]=\"1 2 3\"\ntheme[btop_only]=\"x\"\n",
			&theme, &cause);
	ok(r == 0 && theme.colour[KEY_HI_FG].r == 1 &&
		   theme.colour[KEY_HI_FG].b == 3,
	   "\"r g b\" reads, a key nio-top does not use is ignored");
	free(cause);
	cause = NULL;

	/* Lines of comments, each fine, past the size nio-top reads whole. */
	snprintf(path, sizeof(path), "%s/long.theme", dir);
	f = fopen(path, "w");
	for (int i = 0; f && i < 400; i++)
		fprintf(f, "# a comment line of forty-odd characters\n");
	fprintf(f, "theme[hi_fg]=\"#zz\"\n");
	fclose(f);
	r = theme_load(dir, "long", &theme, &cause);
	ok(r < 0 && cause && strstr(cause, "longer than"),
	   "a theme too long to read whole is refused (%s)", cause);
	free(cause);
	remove(path);

	/* A name from a settings file never reaches outside the folder. */
	snprintf(path, sizeof(path), "%s/evil.theme", dir);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	cause = NULL;
	r = theme_load(dir, "../tmp/evil", &theme, &cause);
	ok(r == -EINVAL && cause && strstr(cause, "not a theme's name"),
	   "a theme named by a path is refused (%s)", cause);
	free(cause);
	remove(path);
	remove(dir);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr,
			"usage: test-theme THEMES_DIR nio-top-theme.5\n");
		return 2;
	}
	test_shipped(argv[1]);
	test_page(argv[2]);
	test_bad();
	return tap_done();
}
