/* A growing text: doubling buffer, sticky failure, JSON strings. */
#include "base/textbuf.h"

#include "base/utf8.h"

#include <stdlib.h>
#include <string.h>

char *textbuf_room(struct textbuf *b, size_t n)
{
    if (b->failed)
        return NULL;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap == 0 ? 512 : b->cap;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *bigger = realloc(b->data, cap);
        if (bigger == NULL) {
            free(b->data);
            *b = (struct textbuf){.failed = true};
            return NULL;
        }
        b->data = bigger;
        b->cap = cap;
    }
    return b->data + b->len;
}

void textbuf_put(struct textbuf *b, const char *s, size_t n)
{
    char *at = textbuf_room(b, n);
    if (at == NULL)
        return;
    memcpy(at, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void textbuf_puts(struct textbuf *b, const char *s)
{
    textbuf_put(b, s, strlen(s));
}

void textbuf_int(struct textbuf *b, int64_t v)
{
    char digits[24];
    size_t n = sizeof digits;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        digits[--n] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        digits[--n] = '-';
    textbuf_put(b, digits + n, sizeof digits - n);
}

void textbuf_json_string(struct textbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    bool valid = utf8_valid(s, n);
    /* At worst six bytes per byte (\u00XX), and the quotes. */
    char *out = textbuf_room(b, n * 6 + 2);
    if (out == NULL)
        return;
    char *p = out;
    *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') {
            *p++ = '\\';
            *p++ = (char)ch;
        } else if (ch < 0x20) {
            memcpy(p, "\\u00", 4);
            p[4] = hex[ch >> 4];
            p[5] = hex[ch & 15];
            p += 6;
        } else {
            *p++ = ch >= 0x80 && !valid ? '?' : (char)ch;
        }
    }
    *p++ = '"';
    b->len += (size_t)(p - out);
    b->data[b->len] = '\0';
}

char *textbuf_take(struct textbuf *b, size_t *len)
{
    char *text = b->failed ? NULL : b->data;
    *len = b->failed ? 0 : b->len;
    if (text == NULL && !b->failed) {
        text = calloc(1, 1);
    }
    *b = (struct textbuf){0};
    return text;
}

void textbuf_free(struct textbuf *b)
{
    free(b->data);
    *b = (struct textbuf){0};
}
