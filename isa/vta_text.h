/*
 * vta_text.h - input text made safe to quote in a one-line message.
 *
 * Every diagnostic is one line a terminal shows as is, but what it quotes (a YAML key or
 * scalar, an assembler token, a .npy header, a file name) comes from outside: it may hold
 * newlines, escape sequences or bytes that are not UTF-8, and be of any length. One rule,
 * written here: control bytes (C0, DEL and the C1 range), bytes that are not part of valid
 * UTF-8 and the byte 0 show as \xNN (tab, newline and carriage return as \t, \n, \r);
 * printable ASCII and valid UTF-8 stay as they are. vta_quote also cuts the text to
 * VTA_QUOTE_CHARS characters, marking the cut with "...". vta_fail applies the escaping to
 * every detail it records, so no message can span lines whatever its arguments.
 */
#ifndef VTA_TEXT_H
#define VTA_TEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Characters of input text a message quotes at most. */
#define VTA_QUOTE_CHARS 48

/* Room for VTA_QUOTE_CHARS escaped characters (4 bytes each at worst), "..." and NUL. */
typedef struct vta_quoted {
	char text[VTA_QUOTE_CHARS * 4 + 4];
} vta_quoted;

/* The first `len` bytes of `s`, escaped and cut as above, in q; returns q->text. */
const char *vta_quote_bytes(vta_quoted *q, const void *s, size_t len);
/* The same for a NUL-terminated string (NULL quotes as empty). */
const char *vta_quote(vta_quoted *q, const char *s);

/* Bytes of a file name a message shows at most. A file name is input text too, escaped like
 * any; it is not cut to VTA_QUOTE_CHARS (paths of a few dozen characters are common and the
 * user chose them), but one longer than this keeps only its end, after "...": the end names
 * the file, and the message's own words stay on the line. */
#define VTA_PATH_CHARS 96

typedef struct vta_quoted_path {
	char text[VTA_PATH_CHARS * 4 + 4];
} vta_quoted_path;

/* `path` (NULL quotes as empty), escaped and cut at its front as above, in q. */
const char *vta_quote_path(vta_quoted_path *q, const char *path);

/* The same in one expression, for a message's argument (C only: a compound literal holds the
 * text until the end of the enclosing block, one per use, so a message may quote twice). */
#define VTA_Q(s) vta_quote(&(vta_quoted){{0}}, (s))
#define VTA_QPATH(p) vta_quote_path(&(vta_quoted_path){{0}}, (p))

/* Escape `len` bytes of `s` into out (size bytes, NUL-terminated, never overrun) with no
 * cut beyond what fits; returns the bytes written. Text already escaped is left as is. */
size_t vta_escape(char *out, size_t size, const void *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* VTA_TEXT_H */
