/*
 * Text that came from elsewhere -- a file, a peer, the host -- made safe for
 * a terminal, a log or a document before it is shown.
 */
#ifndef NIO_TOP_ESCAPE_H
#define NIO_TOP_ESCAPE_H

#include <stdarg.h>
#include <stdio.h>

/*
 * A copy of text (the caller frees; NULL without memory) in which the C0
 * controls, DEL, the C1 controls (U+0080 .. U+009F, CSI among them), the
 * noncharacters XML forbids (U+FFFE, U+FFFF) and bytes that are not UTF-8
 * (overlong forms and surrogates among them) are written as \xHH: nothing
 * in it can move a terminal's cursor, forge a line or break an XML
 * document.
 */
char *text_escape(const char *text);

/*
 * One line on f: prefix, then the formatted text escaped as above, then a
 * newline; flushed.  Out of memory, a line saying so.
 */
void escape_vprint(FILE *f, const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
void escape_print(FILE *f, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
