/*
 * The UI's life: the terminal taken over and given back, suspended and
 * resumed, the theme, and what is remembered between starts.  Keys are
 * keys.c's.
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

#include "analysis.h"
#include "cause.h"
#include "ui_private.h"

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

static int ui_set_theme(struct ui *ui, const char *name, char **cause)
{
	struct theme theme;
	int r;

	if (!ui->theme_dir) {
		if (strcmp(name, "default") != 0)
			return cause_set(cause, -ENOENT,
					 "theme '%s': no themes folder found "
					 "(set NIO_TOP_THEMES)",
					 name);
		theme_default(&ui->theme);
		return 0;
	}
	r = theme_load(ui->theme_dir, name, &theme, cause);
	if (r < 0)
		return r;
	ui->theme = theme;
	return 0;
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
	ui_charts_init(ui);
	snprintf(ui->sort, sizeof(ui->sort), "#");
	/* Beside the delivered throughput: what it cost the sender. */
	for (size_t i = 0; i < ui->metric_count; i++)
		if (ui->metric[i].metric == (size_t)metric_find("cpu_pct") &&
		    ui->metric[i].side == SIDE_SENDER)
			ui->graph_metric = i;

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
	for (size_t i = 0; i < ui->theme_count; i++)
		free(ui->theme_names[i]);
	free(ui->theme_names);
	free(ui);
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
	for (size_t i = 0; i < ui->theme_count; i++)
		free(ui->theme_names[i]);
	free(ui->theme_names);
	free(ui->marked);
	if (ui->frozen) {
		free(ui->frozen_history);
		analysis_fini(&ui->frozen_analysis);
	}
	free(ui);
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
	for (size_t i = 0; i < UI_CHART_SERIES && n < most; i++)
		if (theme_role_rgb(&theme, ui_chart_roles[i], rgb[n]))
			n++;
	return n == UI_CHART_SERIES || n == most ? n : 0;
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
	snprintf(p->sort, sizeof(p->sort), "%s", ui->sort);
	p->sort_descending = ui->descending;
}

void ui_recall(struct ui *ui, const struct prefs *p)
{
	struct ui_column col[UI_COLUMNS_MAX];
	size_t n = ui_runs_columns(col);
	bool known = strcmp(p->sort, "run") == 0 ||
		     strcmp(p->sort, "secs") == 0;

	for (size_t c = 0; c < n; c++)
		known |= strcmp(col[c].key, p->sort) == 0;
	if (!known)
		return;
	snprintf(ui->sort, sizeof(ui->sort), "%s", p->sort);
	ui->descending = p->sort_descending;
}

void ui_next_theme(struct ui *ui)
{
	size_t next = 0;
	char *cause = NULL;

	if (!ui->theme_count) {
		snprintf(ui->note, sizeof(ui->note),
			 "no themes folder: only the built-in colours");
		return;
	}
	for (size_t i = 0; i < ui->theme_count; i++)
		if (strcmp(ui->theme_names[i], ui->theme.name) == 0)
			next = (i + 1) % ui->theme_count;
	if (ui_set_theme(ui, ui->theme_names[next], &cause) < 0) {
		snprintf(ui->note, sizeof(ui->note), "%s",
			 cause ? cause : "cannot load the theme");
		free(cause);
		return;
	}
	theme_apply(&ui->theme);
	snprintf(ui->note, sizeof(ui->note), "theme: %s", ui->theme.name);
}
