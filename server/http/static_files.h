/* Static files: the browser client's folder and core.wasm. */
#ifndef SOKOD_STATIC_FILES_H
#define SOKOD_STATIC_FILES_H

/* Sets the folder served at / and the core.wasm file served at /core.wasm.
 * Both are resolved when a request comes, so they may appear later. */
void static_files_init(const char *folder, const char *wasm);

#endif
