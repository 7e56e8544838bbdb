/*
 * Shell completions, generated from the option table: every option's long
 * and short name, and the values the table knows -- strategies, the names
 * of a choice (modes, receive sides, GRO, TCP_NODELAY, topologies), presets
 * and themes by the names in their folders, files for a path -- for bash,
 * zsh and fish.  A row added to the table is completed everywhere.
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
	COMPLETE_NO_VALUE, /* a flag */
};

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
	if (row->type == OPTION_STRATEGIES || row->names)
		return COMPLETE_WORDS;
	return COMPLETE_NONE;
}

/* The words of a COMPLETE_WORDS row, space separated. */
static void completion_words(FILE *out, const struct option_row *row)
{
	if (row->type == OPTION_STRATEGIES) {
		for (size_t i = 0; i < strategy_count(); i++)
			fprintf(out, "%s ", strategy_at(i)->name);
		fprintf(out, "all");
		return;
	}
	for (int i = 0; row->names[i]; i++)
		fprintf(out, "%s%s", i ? " " : "", row->names[i]);
}

/* The names of *.ext files in the folders, a shell command's output. */
static void completion_names(FILE *out, const char *dirs, const char *ext)
{
	fprintf(out,
		"$(for d in %s; do for f in \"$d\"/*.%s; do "
		"[ -e \"$f\" ] && basename \"$f\" .%s; done; done "
		"2>/dev/null | grep -vx schema | sort -u)",
		dirs, ext, ext);
}

#define PRESET_DIRS                                                            \
	"\"${NIO_TOP_PRESETS:-/nonexistent}\" "                                \
	"\"${XDG_CONFIG_HOME:-$HOME/.config}/nio-top/"                         \
	"presets\" " NIO_TOP_PRESET_DIR
#define THEME_DIRS                                                             \
	"\"${XDG_CONFIG_HOME:-$HOME/.config}/nio-top/"                         \
	"themes\" " NIO_TOP_THEME_DIR

static void completion_bash(FILE *out)
{
	fprintf(out, "# bash completion for nio-top, made from its option "
		     "table (nio-top --completion bash)\n"
		     "_nio_top()\n{\n"
		     "\tlocal cur=${COMP_WORDS[COMP_CWORD]} "
		     "prev=${COMP_WORDS[COMP_CWORD-1]} words= head=\n"
		     "\tCOMPREPLY=()\n"
		     "\tcase $prev in\n");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		enum completion_kind kind = completion_of(row);

		if (kind == COMPLETE_NO_VALUE)
			continue;
		fprintf(out, "\t");
		if (row->letter)
			fprintf(out, "-%c|", row->letter);
		fprintf(out, "--%s)\n\t\t", row->name);
		switch (kind) {
		case COMPLETE_WORDS:
			fprintf(out, "words=\"");
			completion_words(out, row);
			fprintf(out, "\"");
			break;
		case COMPLETE_PRESETS:
			fprintf(out, "words=\"");
			completion_names(out, PRESET_DIRS, "json");
			fprintf(out, "\"\n\t\tCOMPREPLY=($(compgen -f -- "
				     "\"$cur\"))");
			break;
		case COMPLETE_THEMES:
			fprintf(out, "words=\"");
			completion_names(out, THEME_DIRS, "theme");
			fprintf(out, "\"");
			break;
		case COMPLETE_FILES:
			fprintf(out, "COMPREPLY=($(compgen -f -- \"$cur\"))\n"
				     "\t\treturn");
			break;
		default:
			fprintf(out, "return");
		}
		if (kind != COMPLETE_FILES && kind != COMPLETE_NONE &&
		    completion_list(row))
			fprintf(out, "\n\t\thead=${cur%%\"${cur##*,}\"}");
		fprintf(out, " ;;\n");
	}
	fprintf(out, "\tesac\n"
		     "\tif [ -n \"$words\" ]; then\n"
		     "\t\tCOMPREPLY+=($(compgen -P \"$head\" -W \"$words\" -- "
		     "\"${cur##*,}\"))\n"
		     "\t\treturn\n"
		     "\tfi\n"
		     "\tCOMPREPLY=($(compgen -W \"");
	for (size_t i = 0; i < option_row_count; i++) {
		if (option_rows[i].letter)
			fprintf(out, "-%c ", option_rows[i].letter);
		fprintf(out, "--%s%s", option_rows[i].name,
			i + 1 < option_row_count ? " " : "");
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

static void completion_zsh(FILE *out)
{
	fprintf(out, "#compdef nio-top\n"
		     "# zsh completion for nio-top, made from its option table "
		     "(nio-top --completion zsh)\n"
		     "_arguments -s \\\n");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		enum completion_kind kind = completion_of(row);
		const char *forms[2] = {NULL, NULL};
		char letter[3] = {'-', row->letter, 0};
		char name[64];

		snprintf(name, sizeof(name), "--%s", row->name);
		forms[0] = name;
		forms[1] = row->letter ? letter : NULL;
		for (int f = 0; f < 2 && forms[f]; f++) {
			fprintf(out, "\t'%s%s[", forms[f],
				kind != COMPLETE_NO_VALUE && f == 0 ? "=" : "");
			completion_help(out, row->help, 70);
			fprintf(out, "]");
			if (kind == COMPLETE_WORDS) {
				fprintf(out, ":%s:(", row->arg);
				completion_words(out, row);
				fprintf(out, ")");
			} else if (kind == COMPLETE_PRESETS ||
				   kind == COMPLETE_FILES) {
				fprintf(out, ":%s:_files", row->arg);
			} else if (kind == COMPLETE_THEMES) {
				fprintf(out, ":%s:( ", row->arg);
				completion_names(out, THEME_DIRS, "theme");
				fprintf(out, " )");
			} else if (kind == COMPLETE_NONE) {
				fprintf(out, ":%s: ", row->arg);
			}
			fprintf(out, "' \\\n");
		}
	}
	fprintf(out, "\t&& return 0\n");
}

static void completion_fish(FILE *out)
{
	fprintf(out, "# fish completion for nio-top, made from its option "
		     "table (nio-top --completion fish)\n"
		     "complete -c nio-top -f\n");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		enum completion_kind kind = completion_of(row);

		fprintf(out, "complete -c nio-top -l %s", row->name);
		if (row->letter)
			fprintf(out, " -s %c", row->letter);
		if (kind != COMPLETE_NO_VALUE)
			fprintf(out, " -r");
		if (kind == COMPLETE_WORDS) {
			fprintf(out, " -xa '");
			completion_words(out, row);
			fprintf(out, "'");
		} else if (kind == COMPLETE_PRESETS || kind == COMPLETE_FILES) {
			fprintf(out, " -F");
		} else if (kind == COMPLETE_THEMES) {
			fprintf(out, " -xa '(");
			fprintf(out,
				"for d in ~/.config/nio-top/themes %s; "
				"for f in $d/*.theme; basename $f .theme; "
				"end; end 2>/dev/null",
				NIO_TOP_THEME_DIR);
			fprintf(out, ")'");
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
