/* Request body specs (server/http/body.c): each field's value lands where
 * its row says, absent fields leave their destinations alone, and a bad
 * body gets its error code and message with nothing stored. reply_error is
 * replaced here by one that records the answer, so no daemon is needed. A
 * failure prints the body sent and what was answered. */
#include "http/body.h"

#include "check.h"

#include <stdarg.h>

static enum api_error answered_code;
static char answered[512];
static int answers;

int reply_error(struct http_conn *c, enum api_error code, const char *fmt, ...)
{
    (void)c;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(answered, sizeof answered, fmt, ap);
    va_end(ap);
    answered_code = code;
    answers++;
    return 7;
}

/* Parses `text` as the body of a request to /api/v1/test with spec;
 * returns the object, or NULL when it was refused. */
static json_t *parse(const char *text, const struct body_field *spec)
{
    static char path[] = "/api/v1/test";
    struct http_conn c = {.path = path, .body = (char *)text, .body_len = strlen(text)};
    answers = 0;
    answered[0] = '\0';
    int result = 0;
    note("body %s", text);
    json_t *obj = body_parse(&c, spec, &result);
    if (obj == NULL) {
        note("answered %s: %s", api_error_name(answered_code), answered);
        CHECK_INT(result, 7);
        CHECK_INT(answers, 1);
    } else {
        CHECK_INT(answers, 0);
    }
    return obj;
}

/* Checks that `text` is refused with code and message, and stores nothing. */
static void refused(const char *text, const struct body_field *spec, enum api_error code,
                    const char *message)
{
    json_t *obj = parse(text, spec);
    CHECK(obj == NULL);
    json_decref(obj);
    CHECK_STR(api_error_name(answered_code), api_error_name(code));
    CHECK_STR(answered, message);
}

static void every_field_lands_where_its_row_says(void)
{
    struct body_text name = {0};
    json_int_t seq = 0;
    bool flag = false;
    json_t *box = NULL, *list = NULL;
    struct body_field spec[] = {
        body_text("name", &name), body_integer("seq", &seq), body_boolean("flag", &flag),
        body_object("box", &box), body_array("list", &list), body_end(),
    };
    json_t *obj = parse(
        "{\"list\": [1], \"name\": \"a\\u00e9\", \"seq\": 42, \"flag\": true, \"box\": {}}", spec);
    CHECK(obj != NULL);
    CHECK_STR(name.text, "a\xc3\xa9");
    CHECK_INT(name.len, 3);
    CHECK_INT(seq, 42);
    CHECK(flag);
    CHECK(box == json_object_get(obj, "box"));
    CHECK(list == json_object_get(obj, "list"));
    json_decref(obj);
}

static void an_absent_optional_field_leaves_its_destination(void)
{
    struct body_text name = {0};
    json_int_t seq = -1, count = 5;
    bool has_seq = true, has_count = false;
    struct body_field spec[] = {
        body_optional(body_text("name", &name), NULL),
        body_optional(body_integer("seq", &seq), &has_seq),
        body_optional(body_integer("count", &count), &has_count),
        body_end(),
    };
    json_t *obj = parse("{\"count\": 0}", spec);
    CHECK(obj != NULL);
    CHECK(name.text == NULL);
    CHECK_INT(seq, -1);
    CHECK(!has_seq);
    CHECK_INT(count, 0);
    CHECK(has_count);
    json_decref(obj);
    /* An empty body reads as {}. */
    obj = parse("", spec);
    CHECK(obj != NULL);
    CHECK(!has_count);
    json_decref(obj);
}

static void a_bad_body_is_answered_and_stores_nothing(void)
{
    json_int_t seq = 0, x = -1;
    struct body_field spec[] = {
        body_integer_in("seq", &seq, 1, 9, "'seq' is from 1 to 9"),
        body_optional(body_integer("x", &x), NULL),
        body_end(),
    };
    refused("{\"seq\": 1, ", spec, API_E_BAD_JSON,
            "the body is not JSON: string or '}' expected near end of file (line 1, column 11)");
    refused("[1]", spec, API_E_BAD_JSON, "the body must be a JSON object");
    refused("{\"x\": 3, \"seq\": 2, \"y\": 1}", spec, API_E_UNKNOWN_FIELD,
            "the body has a field 'y' that /api/v1/test does not take");
    refused("{\"x\": 3, \"seq\": \"2\"}", spec, API_E_WRONG_TYPE,
            "'seq' in the body must be an integer");
    refused("{\"x\": 3}", spec, API_E_MISSING_FIELD, "the body needs 'seq' (an integer)");
    refused("{\"x\": 3, \"seq\": 10}", spec, API_E_INVALID_VALUE, "'seq' is from 1 to 9");
    refused("{\"x\": 3, \"seq\": 0}", spec, API_E_INVALID_VALUE, "'seq' is from 1 to 9");
    CHECK_INT(seq, 0);
    CHECK_INT(x, -1);
    json_decref(parse("{\"x\": 3, \"seq\": 9}", spec));
    CHECK_INT(seq, 9);
    CHECK_INT(x, 3);
}

static void a_body_of_no_fields_takes_none(void)
{
    json_decref(parse("{}", NULL));
    refused("{\"a\": 1}", NULL, API_E_UNKNOWN_FIELD,
            "the body has a field 'a' that /api/v1/test does not take");
    struct body_field only_end[] = {body_end()};
    refused("{\"a\": 1}", only_end, API_E_UNKNOWN_FIELD,
            "the body has a field 'a' that /api/v1/test does not take");
}

int main(void)
{
    RUN(every_field_lands_where_its_row_says);
    RUN(an_absent_optional_field_leaves_its_destination);
    RUN(a_bad_body_is_answered_and_stores_nothing);
    RUN(a_body_of_no_fields_takes_none);
    return check_finish();
}
