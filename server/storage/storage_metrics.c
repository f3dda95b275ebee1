/* Storage: failures counted by STORAGE_* code. */
#include "storage/storage_metrics.h"

#include "base/metrics.h"
#include "storage/storage_codes.h"

int storage_metrics_note(int status)
{
    if (status == STORAGE_ERROR)
        metrics_db_error(METRICS_DB_ERROR);
    else if (status == STORAGE_BUSY)
        metrics_db_error(METRICS_DB_BUSY);
    else if (status == STORAGE_FULL)
        metrics_db_error(METRICS_DB_FULL);
    else if (status == STORAGE_RETRY)
        metrics_db_error(METRICS_DB_CONFLICT);
    return status;
}
