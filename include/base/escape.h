/*
 * Text that came from elsewhere -- a file, a peer, the host -- made safe for
 * a terminal, a log or a document before it is shown.
 */
#ifndef NIO_TOP_ESCAPE_H
#define NIO_TOP_ESCAPE_H

/*
 * A copy of text (the caller frees; NULL without memory) in which the C0
 * controls, DEL, the C1 controls (U+0080 .. U+009F, CSI among them) and
 * bytes that are not UTF-8 are written as \xHH: nothing in it can move a
 * terminal's cursor, forge a line or break an XML document.
 */
char *text_escape(const char *text);

#endif
