/* The benchmarks' HTTP client and JSON reading, on answers and streams
 * written here: a benchmark that misreads sokod prints wrong figures
 * without failing, so what it reads is tested on its own. */
#include "bench_http.h"
#include "bench_json.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* A copy of text with room for the NUL that bench_http_head_read writes. */
static char *copy(const char *text)
{
    size_t n = strlen(text);
    char *c = malloc(n + 1);
    memcpy(c, text, n + 1);
    return c;
}

static void head_is_read_once_its_blank_line_came(void)
{
    char *in = copy("HTTP/1.1 201 Created\r\nContent-Length: 12\r\n");
    struct bench_http_head h = {0};
    CHECK(!bench_http_head_read(in, strlen(in), &h, NULL, 0));
    free(in);
    in = copy("HTTP/1.1 201 Created\r\ncontent-length: 12\r\nConnection:  close\r\n\r\n{\"a\":1}");
    CHECK(bench_http_head_read(in, strlen(in), &h, NULL, 0));
    CHECK_INT(h.status, 201);
    CHECK_INT(h.length, 12);
    CHECK(h.closing);
    CHECK(!h.chunked);
    CHECK_INT(h.size, strlen(in) - strlen("{\"a\":1}"));
    free(in);
}

static void head_keeps_and_ends_the_session_cookie(void)
{
    char cookie[64] = "";
    char *in = copy("HTTP/1.1 200 OK\r\nSet-Cookie: sokod_session=abc; Path=/; HttpOnly\r\n"
                    "Transfer-Encoding: chunked\r\n\r\n");
    struct bench_http_head h = {0};
    CHECK(bench_http_head_read(in, strlen(in), &h, cookie, sizeof cookie));
    CHECK_STR(cookie, "sokod_session=abc");
    CHECK(h.chunked);
    CHECK_INT(h.length, -1);
    free(in);
    in = copy("HTTP/1.1 200 OK\r\nSet-Cookie: sokod_session=; Max-Age=0\r\n\r\n");
    CHECK(bench_http_head_read(in, strlen(in), &h, cookie, sizeof cookie));
    CHECK_STR(cookie, "");
    free(in);
}

/* Chunks given a byte at a time decode to the same text as given whole. */
static void chunks_decode_across_reads(void)
{
    const char body[] = "5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n";
    char *out = NULL;
    size_t len = 0, cap = 0;
    struct bench_http_chunks d = {0, -1};
    int r = 0;
    for (size_t n = 1; n <= strlen(body) && r == 0; n++)
        r = bench_http_dechunk(&d, body, n, &out, &len, &cap);
    CHECK_INT(r, 1);
    CHECK_STR(out, "hello, world");
    free(out);
    out = NULL;
    len = cap = 0;
    d = (struct bench_http_chunks){0, -1};
    CHECK_INT(bench_http_dechunk(&d, "zz\r\nhello\r\n", 11, &out, &len, &cap), -1);
    free(out);
}

struct seen {
    char text[512];
    int heartbeats;
};

static void record(void *arg, const struct bench_http_event *e)
{
    struct seen *s = arg;
    if (e->type == NULL) {
        s->heartbeats++;
        return;
    }
    size_t n = strlen(s->text);
    snprintf(s->text + n, sizeof s->text - n, "[%s|%s]", e->type, e->data);
}

/* A chunked stream whose events are cut across chunks and reads. */
static void stream_splits_events_across_chunks(void)
{
    const char text[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "1c\r\nevent: ready\ndata: {}\n\nevent\r\n"
                        "17\r\n: step\ndata: {\"seq\":1}\n\r\n"
                        "4\r\n\n:\n\n\r\n";
    struct bench_http_stream s = {0};
    struct seen seen = {"", 0};
    size_t half = strlen(text) / 2;
    CHECK_INT(bench_http_stream_take(&s, text, half, record, &seen), 1);
    CHECK_INT(bench_http_stream_take(&s, text + half, strlen(text) - half, record, &seen), 1);
    note("events: %s", seen.text);
    CHECK_STR(seen.text, "[ready|{}][step|{\"seq\":1}]");
    CHECK_INT(seen.heartbeats, 1);
    bench_http_stream_reset(&s);
    free(s.in);
    free(s.text);
}

static void stream_refused_shows_its_answer(void)
{
    const char text[] = "HTTP/1.1 429 Too Many Requests\r\nContent-Length: 33\r\n\r\n"
                        "{\"error\":{\"code\":\"rate_limited\"}}";
    struct bench_http_stream s = {0};
    struct seen seen = {"", 0};
    CHECK_INT(bench_http_stream_take(&s, text, strlen(text), record, &seen), 1);
    CHECK_INT(s.head.status, 429);
    json_t *doc = bench_json_parse(s.in + s.head.size);
    CHECK_STR(bench_json_text(doc, "error.code"), "rate_limited");
    CHECK_STR(seen.text, "");
    json_decref(doc);
    free(s.in);
    free(s.text);
}

/* The members are found whatever the order of the keys, and a key of the
 * same name elsewhere (a room's "id" before the game's) is not taken. */
static void json_members_by_path_in_any_order(void)
{
    const char *const answers[] = {
        "{\"steps\":\"rR\",\"game\":{\"id\":7,\"seq\":5,\"player\":{\"x\":2,\"y\":3},"
        "\"solved\":true}}",
        "{\"room\":{\"id\":99,\"y\":9},\"game\":{\"solved\":true,\"player\":{\"y\":3,\"x\":2},"
        "\"seq\":5,\"id\":7},\"steps\":\"rR\"}",
    };
    for (size_t i = 0; i < 2; i++) {
        note("answer: %s", answers[i]);
        json_t *doc = bench_json_parse(answers[i]);
        CHECK(doc != NULL);
        CHECK_INT(bench_json_long(doc, "game.id", 0), 7);
        CHECK_INT(bench_json_long(doc, "game.seq", 0), 5);
        CHECK_INT(bench_json_long(doc, "game.player.x", 0), 2);
        CHECK_INT(bench_json_long(doc, "game.player.y", 0), 3);
        CHECK(bench_json_true(doc, "game.solved"));
        CHECK_STR(bench_json_text(doc, "steps"), "rR");
        json_decref(doc);
    }
}

static void json_fallbacks_for_missing_members(void)
{
    json_t *doc = bench_json_parse("{\"game\":{\"seq\":\"5\",\"lurd\":null},\"solved\":1}");
    CHECK_INT(bench_json_long(doc, "game.seq", -1), -1);
    CHECK_INT(bench_json_long(doc, "game.seq.x", -1), -1);
    CHECK_INT(bench_json_long(doc, "nothing.here", 4), 4);
    CHECK(bench_json_text(doc, "game.lurd") == NULL);
    CHECK(!bench_json_true(doc, "solved"));
    json_decref(doc);
    CHECK(bench_json_parse("{\"seq\":") == NULL);
    CHECK_INT(bench_json_long(NULL, "seq", 3), 3);
}

static void json_finds_a_seat_by_its_user(void)
{
    json_t *doc = bench_json_parse("{\"room\":{\"players\":[{\"user_id\":10,\"game_id\":null},"
                                   "{\"game_id\":31,\"user_id\":1}]},\"you\":{\"user_id\":1}}");
    const json_t *seat = bench_json_find(doc, "room.players", "user_id", 1);
    CHECK_INT(bench_json_long(seat, "game_id", 0), 31);
    CHECK_INT(bench_json_long(bench_json_find(doc, "room.players", "user_id", 10), "game_id", 0),
              0);
    CHECK(bench_json_find(doc, "room.players", "user_id", 2) == NULL);
    CHECK(bench_json_find(doc, "you", "user_id", 1) == NULL);
    json_decref(doc);
}

int main(void)
{
    RUN(head_is_read_once_its_blank_line_came);
    RUN(head_keeps_and_ends_the_session_cookie);
    RUN(chunks_decode_across_reads);
    RUN(stream_splits_events_across_chunks);
    RUN(stream_refused_shows_its_answer);
    RUN(json_members_by_path_in_any_order);
    RUN(json_fallbacks_for_missing_members);
    RUN(json_finds_a_seat_by_its_user);
    return check_finish();
}
