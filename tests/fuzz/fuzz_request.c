/* fopen-mode and open-flag decoding (shim/request.c). The input's first
 * four bytes are open(2) flags, the next four rename flags, the rest an
 * fopen mode string. Properties: the decoders agree with what glibc and the
 * kernel do, as the README's rule states them. */
#include <fcntl.h>
#include <linux/fs.h>

#include "core/request.h"
#include "fuzz.h"
static uint32_t take_u32(const uint8_t **data, size_t *size)
{
    uint32_t v = 0;
    for (int i = 0; i < 4 && *size; i++, (*data)++, (*size)--)
        v |= (uint32_t) * *data << (8 * i);
    return v;
}

/* The libc's rule, written out independently: the first character picks the
 * base mode; '+' among the next six (glibc) or anywhere after it (musl)
 * makes it read-write. */
static void check_fopen(const char *mode)
{
    int flags = -1;
    bool ok = rg_fopen_flags(mode, &flags);
    FUZZ_CHECK(ok == (mode[0] == 'r' || mode[0] == 'w' || mode[0] == 'a'));
    if (!ok)
        return;
    bool plus = false, excl = false, cloexec = false;
#ifdef __GLIBC__
    const int end = 7;
#else
    const int end = 1 << 30;
#endif
    for (int i = 1; i < end && mode[i]; i++) {
        plus |= mode[i] == '+';
        excl |= mode[i] == 'x';
        cloexec |= mode[i] == 'e';
    }
    int acc = plus ? O_RDWR : mode[0] == 'r' ? O_RDONLY : O_WRONLY;
    FUZZ_CHECK((flags & O_ACCMODE) == acc);
    FUZZ_CHECK(!!(flags & O_TRUNC) == (mode[0] == 'w'));
    FUZZ_CHECK(!!(flags & O_APPEND) == (mode[0] == 'a'));
    FUZZ_CHECK(!!(flags & O_CREAT) == (mode[0] != 'r'));
    FUZZ_CHECK(!!(flags & O_EXCL) == excl);
    FUZZ_CHECK(!!(flags & O_CLOEXEC) == cloexec);
    /* Only "r" and "r" with harmless letters is a read. */
    FUZZ_CHECK(rg_flags_write(flags) == (mode[0] != 'r' || plus));
}

static void check_flags(int flags)
{
    bool write = rg_flags_write(flags);
    if (flags & O_PATH)
        FUZZ_CHECK(!write);
    else
        FUZZ_CHECK(write == ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC) != 0));
    FUZZ_CHECK(rg_flags_need_mode(flags) ==
               ((flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_flags((int)take_u32(&data, &size));
    unsigned rflags = take_u32(&data, &size);
    int targets = rg_rename_targets(rflags);
    FUZZ_CHECK(targets == (rflags & RENAME_EXCHANGE ? 2 : rflags & RENAME_NOREPLACE ? 0 : 1));
    FUZZ_CHECK(rg_op_name((enum rg_op)(rflags % 8)) != NULL);
    char mode[64];
    check_fopen(fuzz_take_string(&data, &size, mode, sizeof mode));
    return 0;
}
