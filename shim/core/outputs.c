#include "core/outputs.h"

void rg_outputs_add(struct rg_header *h, uint64_t dev, uint64_t ino)
{
    uint64_t key = rg_header_file_key(dev, ino);
    for (unsigned i = 0; i < RG_OUTPUT_SLOTS; i++) {
        uint64_t old = 0;
        if (atomic_compare_exchange_strong_explicit(&h->outputs[i], &old, key, memory_order_release,
                                                    memory_order_acquire) ||
            old == key)
            return;
    }
    atomic_store_explicit(&h->outputs_over, 1, memory_order_release);
}

/* Slots fill from the first, and none empties: the first empty one ends
 * the list. */
bool rg_outputs_has(const struct rg_header *h, uint64_t dev, uint64_t ino)
{
    uint64_t key = rg_header_file_key(dev, ino);
    for (unsigned i = 0; i < RG_OUTPUT_SLOTS; i++) {
        uint64_t k = atomic_load_explicit(&h->outputs[i], memory_order_acquire);
        if (k == key)
            return true;
        if (k == 0)
            break;
    }
    return atomic_load_explicit(&h->outputs_over, memory_order_acquire) != 0;
}
