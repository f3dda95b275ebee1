/* The storage wing's failures, counted for the metrics (base/metrics.h). */
#ifndef SOKOD_STORAGE_METRICS_H
#define SOKOD_STORAGE_METRICS_H

/* Counts status when it is a failure (STORAGE_ERROR, STORAGE_BUSY,
 * STORAGE_FULL, STORAGE_RETRY) and returns it unchanged. Every STORAGE_* code that
 * storage_status gives passes here. */
int storage_metrics_note(int status);

#endif
