/* vta_text.c - escaping and cutting input text for messages (see vta_text.h). */
#include "vta_text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if it is not one or if it
 * encodes a C1 control (U+0080..U+009F), which some terminals act on. */
static size_t utf8_len(const uint8_t *s, size_t n)
{
	uint32_t c;
	size_t k;
	if (s[0] < 0xc2)
		return 0; /* ASCII is handled by the caller; 0x80..0xc1 never start one */
	if (s[0] < 0xe0) {
		k = 2;
		c = s[0] & 0x1f;
	} else if (s[0] < 0xf0) {
		k = 3;
		c = s[0] & 0x0f;
	} else if (s[0] < 0xf5) {
		k = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && c < 0x800) || (k == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff) || (c >= 0x80 && c <= 0x9f))
		return 0;
	return k;
}

/* The escaped form of the character at s into piece; returns the input bytes it takes. */
static size_t escape_one(const uint8_t *s, size_t n, char piece[8])
{
	uint8_t b = s[0];
	if (b >= 0x20 && b < 0x7f) {
		piece[0] = (char)b;
		piece[1] = '\0';
		return 1;
	}
	if (b == '\n' || b == '\t' || b == '\r') {
		snprintf(piece, 8, "\\%c", b == '\n' ? 'n' : b == '\t' ? 't' : 'r');
		return 1;
	}
	size_t k = b >= 0x80 ? utf8_len(s, n) : 0;
	if (k) {
		memcpy(piece, s, k);
		piece[k] = '\0';
		return k;
	}
	snprintf(piece, 8, "\\x%02x", b);
	return 1;
}

/* Escape up to `chars` characters of s into out; *cut tells whether input was left. */
static size_t escape(char *out, size_t size, const uint8_t *s, size_t len, size_t chars,
		     int *cut)
{
	size_t o = 0, i = 0, c = 0;
	*cut = 0;
	if (!size)
		return 0;
	while (i < len) {
		char piece[8];
		size_t k = escape_one(s + i, len - i, piece);
		size_t p = strlen(piece);
		if (c == chars || o + p >= size) {
			*cut = 1;
			break;
		}
		memcpy(out + o, piece, p);
		o += p;
		i += k;
		c++;
	}
	out[o] = '\0';
	return o;
}

size_t vta_escape(char *out, size_t size, const void *s, size_t len)
{
	int cut;
	return escape(out, size, s, len, (size_t)-1, &cut);
}

const char *vta_quote_bytes(vta_quoted *q, const void *s, size_t len)
{
	int cut;
	size_t o = escape(q->text, sizeof(q->text) - 3, s, len, VTA_QUOTE_CHARS, &cut);
	if (cut)
		memcpy(q->text + o, "...", 4);
	return q->text;
}

const char *vta_quote(vta_quoted *q, const char *s)
{
	return vta_quote_bytes(q, s ? s : "", s ? strlen(s) : 0);
}

const char *vta_quote_path(vta_quoted_path *q, const char *path)
{
	const uint8_t *s = (const uint8_t *)(path ? path : "");
	size_t len = strlen((const char *)s), o = 0;
	int cut;
	if (len > VTA_PATH_CHARS) {
		s += len - VTA_PATH_CHARS;
		len = VTA_PATH_CHARS;
		while (len && (*s & 0xc0) == 0x80) { /* start on a whole character */
			s++;
			len--;
		}
		memcpy(q->text, "...", 3);
		o = 3;
	}
	escape(q->text + o, sizeof(q->text) - o, s, len, (size_t)-1, &cut);
	return q->text;
}
