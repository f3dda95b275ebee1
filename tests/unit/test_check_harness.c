/* The test harness itself: context notes that overflow their buffer are cut,
 * never written past it (the sanitizer build catches a write past the end). */
#include "check.h"

static void notes_beyond_the_buffer_are_cut_not_overflowed(void)
{
    for (int i = 0; i < 2000; i++)
        note("note %d, padded to fill the buffer quickly: %0200d", i, i);
    CHECK(1);
}

static void a_note_longer_than_the_buffer_is_cut(void)
{
    static char big[20000];
    memset(big, 'x', sizeof big - 1);
    note("%s", big);
    note("%s", big);
    CHECK(1);
}

int main(void)
{
    RUN(notes_beyond_the_buffer_are_cut_not_overflowed);
    RUN(a_note_longer_than_the_buffer_is_cut);
    return check_finish();
}
