/* The cost limiter (server/http/cost_limit.c): each request is charged
 * its route's declared milliseconds against a bucket per address of ten
 * seconds of the rate; an address that owes time is never forgotten to
 * make room for new ones, however many arrive; and a request dearer than
 * the whole bucket runs from a full bucket only. Each failure prints what
 * was charged and when. */
#include "http/cost_limit.h"
#include "check.h"

#include <sodium.h>
#include <stdio.h>

/* 100 ms a second: a bucket of 1,000 ms. */
#define RATE 100u

static void an_address_spends_its_bucket_then_waits_for_the_rate(void)
{
    CHECK(cost_limit_start(RATE) == 0);
    unsigned retry = 0, taken = 0;
    while (taken < 100 && cost_limit_take("192.0.2.1", 30, 0, &retry))
        taken++;
    /* 33 charges of 30 ms fit 1,000 ms; the 34th needs 20 ms more of it. */
    CHECK_INT(taken, 33);
    CHECK_INT(retry, 1);
    /* Another address has a bucket of its own. */
    CHECK(cost_limit_take("192.0.2.2", 30, 0, &retry));
    /* 10 ms are left; at 100 ms a second, 10 ms more come back in 100 ms,
     * and 30 ms in 300 ms. */
    CHECK(!cost_limit_take("192.0.2.1", 30, 100, &retry));
    CHECK(cost_limit_take("192.0.2.1", 30, 300, &retry));
    cost_limit_stop();
}

static void an_address_that_owes_time_outlives_a_flood_of_new_ones(void)
{
    CHECK(cost_limit_start(RATE) == 0);
    unsigned retry = 0;
    CHECK(cost_limit_take("192.0.2.7", 1000, 0, &retry));
    CHECK(!cost_limit_take("192.0.2.7", 10, 0, &retry));
    /* 200,000 other addresses, each with a charge that it owes for ten
     * seconds: far more than the table's slots. */
    unsigned refused = 0;
    for (unsigned k = 0; k < 200000; k++) {
        char key[48];
        snprintf(key, sizeof key, "10.%u.%u.%u", k >> 16, (k >> 8) & 255, k & 255);
        if (!cost_limit_take(key, 1000, 1, &retry))
            refused++;
    }
    note("%u of 200,000 new addresses refused for want of a free slot", refused);
    CHECK(refused > 0);
    /* Five seconds on, the first address has 500 ms back, not a full
     * bucket: its debt was kept through the flood. */
    CHECK_MSG(!cost_limit_take("192.0.2.7", 600, 5000, &retry),
              "an address that spent its bucket at 0 ms had more than half of it at 5,000 ms "
              "after a flood of new addresses");
    CHECK(cost_limit_take("192.0.2.7", 400, 5000, &retry));
    cost_limit_stop();
}

static void a_request_dearer_than_the_bucket_runs_from_a_full_one_only(void)
{
    CHECK(cost_limit_start(RATE) == 0);
    unsigned retry = 0;
    CHECK(cost_limit_take("192.0.2.9", 5000, 0, &retry));
    CHECK(!cost_limit_take("192.0.2.9", 5000, 1000, &retry));
    CHECK_MSG(retry >= 40, "a second 5,000 ms charge at 1,000 ms: Retry-After %u s", retry);
    CHECK(cost_limit_take("192.0.2.9", 5000, 50000, &retry));
    cost_limit_stop();
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    RUN(an_address_spends_its_bucket_then_waits_for_the_rate);
    RUN(an_address_that_owes_time_outlives_a_flood_of_new_ones);
    RUN(a_request_dearer_than_the_bucket_runs_from_a_full_one_only);
    return check_finish();
}
