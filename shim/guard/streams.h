/* stdio's unwritten output, flushed before a restamp looks at the file it
 * goes to: exit flushes streams only after the destructors, and a close
 * or an exit that restamps first would stamp the file without those
 * bytes. */
#ifndef RG_STREAMS_H
#define RG_STREAMS_H

#include <stdbool.h>

/* Flushes stream (a FILE) if it holds output not yet written, keeping
 * errno: before a restamp, so the stamp sees the bytes. */
void rg_flush_pending(void *stream);
/* rg_flush_pending for every stream on descriptors 0-2 (stdout, stderr, a
 * stream fdopen'd there): exit flushes them only after the destructors. */
void rg_flush_std_pending(void);
/* Does stream (a FILE) hold output not yet written? A guess, read
 * unlocked: true wherever it cannot tell (musl, a wide stream). */
bool rg_stream_pending(void *stream);

#endif
