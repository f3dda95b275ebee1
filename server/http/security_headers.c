/* Security headers: one policy for every answer, static or API, so that an
 * error page or a JSON answer opened in a tab is as confined as the client.
 *
 * The client is plain ES modules, CSS files and core.wasm, all from this
 * origin, with no inline script or style: the policy allows exactly that,
 * plus 'wasm-unsafe-eval', which WebAssembly.instantiateStreaming needs and
 * which lets no JavaScript be evaluated from strings. Images are drawn on
 * canvases or come from this origin; nothing is fetched from elsewhere. */
#include "http/security_headers.h"

const char security_headers_csp[] =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; "
    "media-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

void security_headers_add(struct MHD_Response *r)
{
    MHD_add_response_header(r, "Content-Security-Policy", security_headers_csp);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    /* Paths name games and levels: other sites learn only the origin. */
    MHD_add_response_header(r, "Referrer-Policy", "strict-origin-when-cross-origin");
    /* For browsers older than frame-ancestors. */
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Cross-Origin-Opener-Policy", "same-origin");
    MHD_add_response_header(r, "Cross-Origin-Resource-Policy", "same-origin");
}
