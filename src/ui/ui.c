/*
 * The UI's life: the terminal taken over and given back, suspended and
 * resumed, the views' states made and freed, and what is remembered
 * between starts.  Drawing is frame.c's, keys are input.c's.
 *
 * The terminal is restored on every way out: ui_close() on ordinary exits
 * (signals arrive in the main loop as events), and for a crash signal a
 * handler that writes the saved terminal modes back and re-raises.
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <unistd.h>

#include "cause.h"
#include "frame.h"
#include "freeze.h"
#include "input.h"
#include "keymap.h"
#include "measures.h"
#include "series.h"
#include "skin.h"
#include "table.h"
#include "ui.h"
#include "views.h"

/* What a crash handler needs, set before curses takes over. */
static struct termios crash_termios;
static bool crash_termios_saved;
static int crash_stdin_flags = -1;
static const char crash_reset[] = "\033[?1000l\033[?1006l\033[0m"
				  "\033[?25h\033[?1049l\r\n";

static void crash_handler(int sig)
{
	if (crash_termios_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &crash_termios);
	if (crash_stdin_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, crash_stdin_flags);
	(void)!write(STDOUT_FILENO, crash_reset, sizeof(crash_reset) - 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void crash_handlers(bool install)
{
	static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL,
					    SIGABRT};
	struct sigaction sa = {.sa_handler = install ? crash_handler : SIG_DFL};

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(int); i++)
		sigaction(crash_signals[i], &sa, NULL);
}

/* TERM must name a terminal that can at least move the cursor. */
static int terminal_usable(char **cause)
{
	const char *term = getenv("TERM");
	int err = 0;

	if (!term || !*term)
		return cause_set(cause, -ENOTTY,
				 "TERM is not set: set it to your terminal "
				 "(e.g. TERM=xterm-256color), or run with "
				 "--batch");
	if (setupterm(term, STDOUT_FILENO, &err) != OK)
		return cause_set(cause, -ENOTTY,
				 "unknown terminal type '%s': install its "
				 "terminfo (ncurses-term) or run with --batch",
				 term);
	if (!tigetstr("cup") || tigetstr("cup") == (char *)-1) {
		del_curterm(cur_term);
		return cause_set(cause, -ENOTTY,
				 "terminal type '%s' cannot move the cursor: "
				 "run with --batch",
				 term);
	}
	del_curterm(cur_term);
	return 0;
}

/* The views' own states; false when one could not be made. */
static bool views_open(struct ui *ui)
{
	ui->overlay = SIZE_MAX;
	for (size_t i = 0; i < ui_view_count; i++) {
		if (!ui_views[i]->open)
			continue;
		ui->state[i] = ui_views[i]->open(ui);
		if (!ui->state[i])
			return false;
	}
	return true;
}

static void views_close(struct ui *ui)
{
	for (size_t i = 0; i < ui_view_count; i++)
		if (ui_views[i]->close)
			ui_views[i]->close(ui->state[i]);
}

static void ui_free(struct ui *ui)
{
	views_close(ui);
	for (size_t i = 0; i < ui->theme_count; i++)
		free(ui->theme_names[i]);
	free(ui->theme_names);
	free(ui->runs.marked);
	ui_freeze_free(ui);
	free(ui);
}

int ui_open(struct ui **out, const char *theme, char **cause)
{
	struct ui *ui;
	int r;

	*cause = NULL;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return cause_set(cause, -ENOTTY,
				 "not a terminal: run with --batch");
	r = terminal_usable(cause);
	if (r < 0)
		return r;
	ui = calloc(1, sizeof(*ui));
	if (!ui)
		return -ENOMEM;
	ui->theme_dir = theme_dir();
	if (ui->theme_dir)
		theme_list(ui->theme_dir, &ui->theme_names, &ui->theme_count);
	r = ui_set_theme(ui, theme, cause);
	if (r < 0)
		goto err;
	ui->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	ui_metrics_init(ui);
	snprintf(ui->runs.sort, sizeof(ui->runs.sort), "#");
	if (!views_open(ui)) {
		r = -ENOMEM;
		goto err;
	}

	if (tcgetattr(STDIN_FILENO, &ui->saved) == 0) {
		crash_termios = ui->saved;
		crash_termios_saved = true;
	}
	ui->screen = newterm(NULL, stdout, stdin);
	if (!ui->screen) {
		r = cause_set(cause, -ENOTTY,
			      "curses cannot use this terminal");
		goto err;
	}
	/*
	 * ncurses may read() again after a mouse event, even in nodelay mode
	 * (it waits for the rest of a click); on a blocking descriptor that
	 * read would stall the main loop until the next key.
	 */
	ui->stdin_flags = fcntl(STDIN_FILENO, F_GETFL);
	crash_stdin_flags = ui->stdin_flags;
	if (ui->stdin_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, ui->stdin_flags | O_NONBLOCK);
	crash_handlers(true);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	/* Quick clicks in a row arrive as double and triple clicks. */
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED |
			  BUTTON1_TRIPLE_CLICKED | BUTTON4_PRESSED |
			  BUTTON5_PRESSED,
		  NULL);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	theme_apply(&ui->theme);
	getmaxyx(stdscr, ui->rows, ui->cols);
	*out = ui;
	return 0;

err:
	ui_free(ui);
	return r;
}

void ui_close(struct ui *ui)
{
	if (!ui)
		return;
	endwin();
	delscreen(ui->screen);
	tcsetattr(STDIN_FILENO, TCSANOW, &ui->saved);
	if (ui->stdin_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, ui->stdin_flags);
	crash_stdin_flags = -1;
	crash_handlers(false);
	crash_termios_saved = false;
	ui_free(ui);
}

size_t ui_chart_colours(const struct ui *ui, const char *name,
			unsigned char (*rgb)[3], size_t most)
{
	struct theme theme;
	const char *dir = theme_dir();
	char *cause = NULL;
	size_t n = 0;

	if (ui) {
		theme = ui->theme;
	} else if (!dir || theme_load(dir, name, &theme, &cause) < 0) {
		free(cause);
		if (strcmp(name, "default") != 0)
			return 0;
		theme_default(&theme);
	}
	for (size_t i = 0; i < UI_SERIES && n < most; i++)
		if (theme_role_rgb(&theme, ui_series_roles[i], rgb[n]))
			n++;
	return n == UI_SERIES || n == most ? n : 0;
}

int ui_input_fd(const struct ui *ui)
{
	(void)ui;
	return STDIN_FILENO;
}

void ui_resize(struct ui *ui)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row &&
	    ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
	getmaxyx(stdscr, ui->rows, ui->cols);
	clearok(curscr, TRUE);
}

void ui_suspend(struct ui *ui)
{
	endwin();
	tcsetattr(STDIN_FILENO, TCSANOW, &ui->saved);
	if (ui->stdin_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, ui->stdin_flags);
}

/*
 * After `fg` the terminal may have been changed by the shell: the program's
 * mode again, the keypad in application mode (so the first arrow key is an
 * arrow), and the whole screen drawn anew.
 */
void ui_resume(struct ui *ui)
{
	reset_prog_mode();
	if (ui->stdin_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, ui->stdin_flags | O_NONBLOCK);
	keypad(stdscr, TRUE);
	curs_set(0);
	ui_resize(ui);
}

void ui_remember(const struct ui *ui, struct prefs *p)
{
	snprintf(p->theme, sizeof(p->theme), "%s", ui->theme.name);
	snprintf(p->sort, sizeof(p->sort), "%s", ui->runs.sort);
	p->sort_descending = ui->runs.descending;
}

void ui_recall(struct ui *ui, const struct prefs *p)
{
	ui_runs_sort_by(ui, p->sort, p->sort_descending);
}

size_t ui_read(struct ui *ui, const struct explorer *e,
	       struct ui_command cmd[UI_COMMANDS_MAX])
{
	struct ui_commands out = {.count = 0};
	size_t kept = 0;
	int ch;

	while ((ch = kept < ui->typeahead_count ? ui->typeahead[kept++]
						: getch()) != ERR) {
		/* resizeterm() queued it: the size is already known. */
		if (ch == KEY_RESIZE)
			getmaxyx(stdscr, ui->rows, ui->cols);
		else if (ch == KEY_MOUSE)
			ui_mouse(ui, e, &out);
		else
			ui_key(ui, e, ch, &out);
	}
	ui->typeahead_count = 0;
	memcpy(cmd, out.cmd, out.count * sizeof(*cmd));
	return out.count;
}

bool ui_typeahead(struct ui *ui)
{
	bool typing = ui->prompt == PROMPT_NAME || ui->prompt == PROMPT_FILTER;
	bool quits = false, read = false;
	int ch;

	while ((ch = getch()) != ERR) {
		const struct ui_key *k = ui_key_find(ch);
		MEVENT ignored;

		read = true;
		if (ch == KEY_MOUSE) {
			getmouse(&ignored);
			continue;
		}
		if (k && k->action == ACT_QUIT && !typing)
			quits = true;
		if (ui->typeahead_count < UI_TYPEAHEAD_MAX)
			ui->typeahead[ui->typeahead_count++] = ch;
	}
	return quits || !read;
}

bool ui_typeahead_kept(const struct ui *ui)
{
	return ui->typeahead_count > 0;
}

void ui_draw(struct ui *ui, const struct explorer *e)
{
	/*
	 * A loaded export runs nothing: it opens on its runs; a crossover
	 * search, on the search.
	 */
	if (!ui->drawn && e->viewing)
		ui->view = ui_view_find("runs");
	if (!ui->drawn && e->session->crossover)
		ui->view = ui_view_find("crossover");
	ui->drawn = true;
	ui_frame_draw(ui, e);
	refresh();
}

/* A key list of nio-top(1): ".It Ic F5 , Ic w", then what it does. */
static void man_item(FILE *out, const char *keys, const char *where,
		     const char *help)
{
	char copy[96], *k, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", keys);
	fprintf(out, ".It");
	for (k = strtok_r(copy, " ", &save); k; k = strtok_r(NULL, " ", &save))
		fprintf(out, "%s Ic %s%s", k == copy ? "" : " ,",
			strchr("?-+<>/[]", k[0]) && !k[1] ? "\\&" : "", k);
	fprintf(out, "\n%s%s\n", where, help);
}

void ui_man_keys(FILE *out)
{
	char where[64];

	for (size_t i = 0; i < ui_key_count; i++) {
		char keys[64], help[160];

		if (!ui_keys[i].help)
			continue;
		ui_key_help(i, keys, sizeof(keys), help, sizeof(help));
		man_item(out, keys, "", help);
	}
	for (size_t k = 0; k < ui_runs_key_count; k++)
		man_item(out, ui_runs_keys[k].keys,
			 "runs table: ", ui_runs_keys[k].help);
	for (size_t i = 0; i < ui_view_count; i++)
		for (size_t k = 0; k < ui_view_key_count(ui_views[i]); k++) {
			snprintf(where, sizeof(where),
				 "%s: ", ui_views[i]->name);
			man_item(out, ui_views[i]->keys[k].keys, where,
				 ui_views[i]->keys[k].help);
		}
}
