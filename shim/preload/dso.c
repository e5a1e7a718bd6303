/* The shim is linked without the C start files (see the Makefile): of
 * theirs it needs only this handle, which pthread_atfork (libc_nonshared)
 * passes to tell whose fork handlers are whose. */
__attribute__((visibility("hidden"))) void *__dso_handle = &__dso_handle;
