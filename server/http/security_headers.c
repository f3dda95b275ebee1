/* Security headers: every answer is as confined as the client, so that an
 * error page or an answer opened in a tab runs, frames and sniffs nothing.
 *
 * Pages and files (the client's HTML, modules, style sheets, core.wasm)
 * carry the client's policy. The client is plain ES modules, CSS files and
 * core.wasm, all from this origin, with no inline script or style: the
 * policy allows exactly that, plus 'wasm-unsafe-eval', which
 * WebAssembly.instantiateStreaming needs and which lets no JavaScript be
 * evaluated from strings. Images are drawn on canvases or come from this
 * origin; nothing is fetched from elsewhere.
 *
 * Data answers (JSON, event streams), which the client reads with fetch
 * and which step answers make the most of, carry the three headers data
 * needs: a policy that allows nothing and no framing, nosniff, and no
 * reading from other origins. The others concern documents: a referrer
 * (a data answer has no links), frame-ancestors for browsers older than
 * CSP 2 (a data answer has nothing to click), and the opener (a data
 * answer opens no window). */
#include "http/security_headers.h"

#include <stdbool.h>
#include <string.h>

const char security_headers_csp[] =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; "
    "media-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

const char security_headers_data_csp[] = "default-src 'none'; frame-ancestors 'none'";

/* Whether content_type is a data answer's (see above). */
static bool is_data(const char *content_type)
{
    static const char *const kinds[] = {"application/json", "text/event-stream"};
    if (content_type == NULL)
        return false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i]);
        if (strncmp(content_type, kinds[i], n) == 0 &&
            (content_type[n] == '\0' || content_type[n] == ';'))
            return true;
    }
    return false;
}

void security_headers_add(struct MHD_Response *r)
{
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Cross-Origin-Resource-Policy", "same-origin");
    if (is_data(MHD_get_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE))) {
        MHD_add_response_header(r, "Content-Security-Policy", security_headers_data_csp);
        return;
    }
    MHD_add_response_header(r, "Content-Security-Policy", security_headers_csp);
    /* Paths name games and levels: other sites learn only the origin. */
    MHD_add_response_header(r, "Referrer-Policy", "strict-origin-when-cross-origin");
    /* For browsers older than frame-ancestors. */
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Cross-Origin-Opener-Policy", "same-origin");
}
