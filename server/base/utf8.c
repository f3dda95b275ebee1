/* Text from level files made UTF-8. */
#include "base/utf8.h"

#include <stdint.h>
#include <stdlib.h>

bool utf8_valid(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        unsigned char b = s[i];
        size_t extra;
        uint32_t cp;
        if (b < 0x80) {
            i++;
            continue;
        } else if ((b & 0xE0) == 0xC0) {
            extra = 1;
            cp = b & 0x1F;
        } else if ((b & 0xF0) == 0xE0) {
            extra = 2;
            cp = b & 0x0F;
        } else if ((b & 0xF8) == 0xF0) {
            extra = 3;
            cp = b & 0x07;
        } else {
            return false;
        }
        if (extra > len - i - 1)
            return false;
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += extra + 1;
    }
    return true;
}

char *utf8_copy(const char *s, size_t len)
{
    bool valid = utf8_valid(s, len);
    char *out = malloc(len * 2 + 1);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char b = (unsigned char)s[i];
        if ((b < 0x20 && b != '\t' && b != '\n') || b == 0x7F)
            continue;
        if (valid || b < 0x80) {
            out[n++] = (char)b;
        } else {
            out[n++] = (char)(0xC0 | (b >> 6));
            out[n++] = (char)(0x80 | (b & 0x3F));
        }
    }
    out[n] = '\0';
    return out;
}

char *utf8_copy_line(const char *s, size_t len)
{
    char *out = utf8_copy(s, len);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    bool blank = false;
    for (const char *p = out; *p != '\0'; p++) {
        bool space = *p == ' ' || *p == '\t' || *p == '\n';
        if (space) {
            blank = n > 0;
            continue;
        }
        if (blank)
            out[n++] = ' ';
        blank = false;
        out[n++] = *p;
    }
    out[n] = '\0';
    return out;
}
