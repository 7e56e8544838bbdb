/*
 * Shell completions, generated from the option table: every option's long
 * and short name, and the values the table knows -- strategies, the names
 * of a choice (modes, receive sides, GRO, TCP_NODELAY, topologies), presets
 * and themes by the names in their folders, files for a path, the shells
 * themselves -- for bash, zsh and fish.  A row added to the table is
 * completed everywhere.
 *
 * Preset and theme names are file names anyone may have chosen (a shared
 * NIO_TOP_PRESETS folder, an unpacked preset pack), so no script ever
 * evaluates one: each lists the folders with a glob, whose results are
 * never expanded again, offers every name as one word, and leaves quoting
 * it on the command line to the shell.  The folders are the ones nio-top
 * reads: preset_dirs() for presets, theme_dir() for themes.
 */
#include <stdio.h>
#include <string.h>

#include "options_private.h"

/* What a row's value completes to. */
enum completion_kind {
	COMPLETE_NONE,	   /* a number, a size, free text */
	COMPLETE_WORDS,	   /* words (names), fixed */
	COMPLETE_PRESETS,  /* preset names, from their folders, or a file */
	COMPLETE_THEMES,   /* theme names, from their folder */
	COMPLETE_FILES,	   /* a path */
	COMPLETE_SHELLS,   /* the shells below */
	COMPLETE_NO_VALUE, /* a flag */
};

/* The folders, as each shell says them. */
#define PRESET_DIRS_SH                                                         \
	"${NIO_TOP_PRESETS:+\"$NIO_TOP_PRESETS\"} "                            \
	"\"${XDG_CONFIG_HOME:-$HOME/.config}/nio-top/presets\" "               \
	"'" NIO_TOP_PRESET_DIR "' '" NIO_TOP_SOURCE_PRESET_DIR "'"
#define THEME_NAMES_SH                                                         \
	"if [ -n \"$NIO_TOP_THEMES\" ]; then "                                 \
	"_nio_top_names theme \"$NIO_TOP_THEMES\"; else "                      \
	"_nio_top_names theme '" NIO_TOP_THEME_DIR "' "                        \
	"'" NIO_TOP_SOURCE_THEME_DIR "'; fi"
#define PRESET_DIRS_FISH                                                       \
	"$NIO_TOP_PRESETS (set -q XDG_CONFIG_HOME; and echo "                  \
	"$XDG_CONFIG_HOME; or echo ~/.config)/nio-top/presets "                \
	"\"" NIO_TOP_PRESET_DIR "\" \"" NIO_TOP_SOURCE_PRESET_DIR "\""
#define THEME_DIRS_FISH                                                        \
	"(set -q NIO_TOP_THEMES; and echo $NIO_TOP_THEMES; or printf "         \
	"\"%s\\n\" \"" NIO_TOP_THEME_DIR "\" \"" NIO_TOP_SOURCE_THEME_DIR      \
	"\")"

/* Whether a row's value is a comma list (its last item completes). */
static bool completion_list(const struct option_row *row)
{
	return row->count_offset != 0 || row->type == OPTION_STRATEGIES;
}

static enum completion_kind completion_of(const struct option_row *row)
{
	if (!row->arg)
		return COMPLETE_NO_VALUE;
	if (row->type == OPTION_PRESET)
		return COMPLETE_PRESETS;
	if (row->type == OPTION_PATH)
		return COMPLETE_FILES;
	if (row->type == OPTION_NAME && strcmp(row->name, "theme") == 0)
		return COMPLETE_THEMES;
	if (row->type == OPTION_NAME && strcmp(row->name, "completion") == 0)
		return COMPLETE_SHELLS;
	if (row->type == OPTION_STRATEGIES || row->names)
		return COMPLETE_WORDS;
	return COMPLETE_NONE;
}

/* The words of a COMPLETE_WORDS or COMPLETE_SHELLS row, space separated. */
static void completion_words(FILE *out, const struct option_row *row)
{
	if (completion_of(row) == COMPLETE_SHELLS) {
		fprintf(out, "bash zsh fish");
		return;
	}
	if (row->type == OPTION_STRATEGIES) {
		for (size_t i = 0; i < strategy_count(); i++)
			fprintf(out, "%s ", strategy_at(i)->name);
		fprintf(out, "all");
		return;
	}
	for (int i = 0; row->names[i]; i++)
		fprintf(out, "%s%s", i ? " " : "", row->names[i]);
}

/*
 * bash: _nio_top_names EXT DIR... adds to COMPREPLY the names of DIR/ *.EXT
 * that begin with the word being completed, compared as text (compgen -W
 * would expand them), each once.  -o filenames has bash quote each one it
 * inserts.
 */
static void completion_bash_names(FILE *out)
{
	fprintf(out, "_nio_top_names()\n{\n"
		     "\tlocal ext=$1 d f n\n"
		     "\tlocal -A seen\n"
		     "\tshift\n"
		     "\tfor d in \"$@\"; do\n"
		     "\t\tfor f in \"$d\"/*.\"$ext\"; do\n"
		     "\t\t\t[ -e \"$f\" ] || continue\n"
		     "\t\t\tn=${f##*/}\n"
		     "\t\t\tn=${n%%.\"$ext\"}\n"
		     "\t\t\t[ \"$n\" = schema ] && continue\n"
		     "\t\t\t[[ $n == \"$cur\"* && -z ${seen[$n]} ]] || "
		     "continue\n"
		     "\t\t\tseen[$n]=1\n"
		     "\t\t\tCOMPREPLY+=(\"$n\")\n"
		     "\t\tdone\n"
		     "\tdone\n"
		     "\tcompopt -o filenames 2>/dev/null\n"
		     "}\n\n");
}

/*
 * bash: _nio_top_files adds the paths that begin with the word, by a glob
 * (compgen -f would split a name at a newline); a word that starts with ~
 * is the shell's to expand, and compgen's.
 */
static void completion_bash_files(FILE *out)
{
	fprintf(out, "_nio_top_files()\n{\n"
		     "\tlocal f\n"
		     "\tif [[ $cur == \"~\"* ]]; then\n"
		     "\t\twhile IFS= read -r f; do COMPREPLY+=(\"$f\"); "
		     "done < <(compgen -f -- \"$cur\")\n"
		     "\telse\n"
		     "\t\tfor f in \"$cur\"*; do\n"
		     "\t\t\t[ -e \"$f\" ] && COMPREPLY+=(\"$f\")\n"
		     "\t\tdone\n"
		     "\tfi\n"
		     "\tcompopt -o filenames 2>/dev/null\n"
		     "}\n\n");
}

/* bash: one case of the value's completion, for a row that has one. */
static void completion_bash_case(FILE *out, const struct option_row *row,
				 enum completion_kind kind)
{
	fprintf(out, "\t");
	if (row->letter)
		fprintf(out, "-%c|", row->letter);
	fprintf(out, "--%s)\n\t\t", row->name);
	switch (kind) {
	case COMPLETE_WORDS:
	case COMPLETE_SHELLS:
		fprintf(out, "words=\"");
		completion_words(out, row);
		fprintf(out, "\"");
		if (completion_list(row))
			fprintf(out, "\n\t\thead=${cur%%\"${cur##*,}\"}");
		break;
	case COMPLETE_PRESETS:
		fprintf(out, "_nio_top_names json " PRESET_DIRS_SH "\n"
			     "\t\t_nio_top_files\n\t\treturn");
		break;
	case COMPLETE_THEMES:
		fprintf(out, THEME_NAMES_SH "\n\t\treturn");
		break;
	case COMPLETE_FILES:
		fprintf(out, "_nio_top_files\n\t\treturn");
		break;
	default:
		fprintf(out, "return");
	}
	fprintf(out, " ;;\n");
}

static void completion_bash(FILE *out)
{
	bool first = true;

	fprintf(out, "# bash completion for nio-top, made from its option "
		     "table (nio-top --completion bash)\n");
	completion_bash_names(out);
	completion_bash_files(out);
	fprintf(out, "_nio_top()\n{\n"
		     "\tlocal cur=${COMP_WORDS[COMP_CWORD]} "
		     "prev=${COMP_WORDS[COMP_CWORD-1]} words= head=\n"
		     "\tCOMPREPLY=()\n"
		     "\tcase $prev in\n");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		enum completion_kind kind = completion_of(row);

		if (row->name && kind != COMPLETE_NO_VALUE)
			completion_bash_case(out, row, kind);
	}
	fprintf(out, "\tesac\n"
		     "\tif [ -n \"$words\" ]; then\n"
		     "\t\tCOMPREPLY+=($(compgen -P \"$head\" -W \"$words\" -- "
		     "\"${cur##*,}\"))\n"
		     "\t\treturn\n"
		     "\tfi\n"
		     "\tCOMPREPLY=($(compgen -W \"");
	for (size_t i = 0; i < option_row_count; i++) {
		if (!option_rows[i].name)
			continue;
		fprintf(out, "%s", first ? "" : " ");
		if (option_rows[i].letter)
			fprintf(out, "-%c ", option_rows[i].letter);
		fprintf(out, "--%s", option_rows[i].name);
		first = false;
	}
	fprintf(out, "\" -- \"$cur\"))\n}\ncomplete -F _nio_top nio-top\n");
}

/* A help text safe inside zsh's [...] and fish's '...'. */
static void completion_help(FILE *out, const char *help, size_t most)
{
	for (size_t i = 0; help[i] && i < most; i++) {
		char c = help[i];

		if (c == '[' || c == ']')
			c = c == '[' ? '(' : ')';
		if (c == '\'' || c == '\\' || c == ':' || c == '`' || c == '$')
			continue;
		fputc(c, out);
	}
}

/*
 * zsh: _nio_top_names EXT DIR... offers the names of DIR/ *.EXT through
 * compadd, which quotes each one it inserts; (N) lets a folder be empty.
 */
static void completion_zsh_names(FILE *out)
{
	fprintf(out, "_nio_top_names() {\n"
		     "\tlocal ext=$1 d f\n"
		     "\tlocal -a names\n"
		     "\tshift\n"
		     "\tfor d in \"$@\"; do\n"
		     "\t\tfor f in \"$d\"/*.$ext(N); do\n"
		     "\t\t\tnames+=(\"${${f:t}%%.$ext}\")\n"
		     "\t\tdone\n"
		     "\tdone\n"
		     "\tnames=(\"${(@)names:#schema}\")\n"
		     "\tcompadd -a names\n"
		     "}\n"
		     "_nio_top_presets() {\n"
		     "\t_nio_top_names json " PRESET_DIRS_SH "\n"
		     "\t_files\n"
		     "}\n"
		     "_nio_top_themes() {\n"
		     "\t" THEME_NAMES_SH "\n"
		     "}\n");
}

static void completion_zsh_value(FILE *out, const struct option_row *row,
				 enum completion_kind kind)
{
	switch (kind) {
	case COMPLETE_WORDS:
	case COMPLETE_SHELLS:
		fprintf(out, ":%s:(", row->arg);
		completion_words(out, row);
		fprintf(out, ")");
		break;
	case COMPLETE_PRESETS:
		fprintf(out, ":%s:_nio_top_presets", row->arg);
		break;
	case COMPLETE_FILES:
		fprintf(out, ":%s:_files", row->arg);
		break;
	case COMPLETE_THEMES:
		fprintf(out, ":%s:_nio_top_themes", row->arg);
		break;
	case COMPLETE_NONE:
		fprintf(out, ":%s: ", row->arg);
		break;
	default:
		break;
	}
}

static void completion_zsh(FILE *out)
{
	fprintf(out, "#compdef nio-top\n"
		     "# zsh completion for nio-top, made from its option table "
		     "(nio-top --completion zsh)\n");
	completion_zsh_names(out);
	fprintf(out, "_arguments -s \\\n");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		enum completion_kind kind = completion_of(row);
		const char *forms[2] = {NULL, NULL};
		char letter[3] = {'-', row->letter, 0};
		char name[64];

		if (!row->name)
			continue;
		snprintf(name, sizeof(name), "--%s", row->name);
		forms[0] = name;
		forms[1] = row->letter ? letter : NULL;
		for (int f = 0; f < 2 && forms[f]; f++) {
			fprintf(out, "\t'%s%s[", forms[f],
				kind != COMPLETE_NO_VALUE && f == 0 ? "=" : "");
			completion_help(out, row->help, 70);
			fprintf(out, "]");
			completion_zsh_value(out, row, kind);
			fprintf(out, "' \\\n");
		}
	}
	fprintf(out, "\t&& return 0\n");
}

/*
 * fish: a command substitution's output is never evaluated again; the names
 * come out of one NUL-separated (string split0), so that a name with a
 * newline is still one name, and fish escapes each one it inserts.
 */
static void completion_fish_names(FILE *out, const char *dirs, const char *ext)
{
	fprintf(out,
		" -a '(for d in %s; for f in $d/*.%s; "
		"set n (path basename -Z -- $f | path change-extension -z -Z "
		"\"\" | string split0); test \"$n\" != schema; "
		"and printf \"%%s\\0\" $n; end; end 2>/dev/null | string "
		"split0)'",
		dirs, ext);
}

static void completion_fish(FILE *out)
{
	fprintf(out, "# fish completion for nio-top, made from its option "
		     "table (nio-top --completion fish)\n"
		     "complete -c nio-top -f\n");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		enum completion_kind kind = completion_of(row);

		if (!row->name)
			continue;
		fprintf(out, "complete -c nio-top -l %s", row->name);
		if (row->letter)
			fprintf(out, " -s %c", row->letter);
		if (kind != COMPLETE_NO_VALUE)
			fprintf(out, " -r");
		if (kind == COMPLETE_WORDS || kind == COMPLETE_SHELLS) {
			fprintf(out, " -xa '");
			completion_words(out, row);
			fprintf(out, "'");
		} else if (kind == COMPLETE_PRESETS) {
			completion_fish_names(out, PRESET_DIRS_FISH, "json");
			fprintf(out, " -F");
		} else if (kind == COMPLETE_FILES) {
			fprintf(out, " -F");
		} else if (kind == COMPLETE_THEMES) {
			completion_fish_names(out, THEME_DIRS_FISH, "theme");
			fprintf(out, " -f");
		}
		fprintf(out, " -d '");
		completion_help(out, row->help, 60);
		fprintf(out, "'\n");
	}
}

int options_completion(FILE *out, const char *shell)
{
	if (strcmp(shell, "bash") == 0)
		completion_bash(out);
	else if (strcmp(shell, "zsh") == 0)
		completion_zsh(out);
	else if (strcmp(shell, "fish") == 0)
		completion_fish(out);
	else
		return -1;
	return 0;
}
