/* The kernel's occurrence lists (kernel.h) as constraints join them
 * after the model's: a list's room in the arena's pool, a list that
 * outgrows it moved to the heap, and the coefficients that a kernel of
 * unit rows does without, made for the first weighted occurrence. */
#include "kernel.h"

#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The room of list l (a record of occ or cocc): its own on the heap; in
 * the pool, up to where the next list's place is (or was, if it moved). */
static int32_t list_room(const ilpm_kern *e, const ilpm_klist *l)
{
    if (l->at & ILPM_KMOVED)
        return e->moved[l->at & ~ILPM_KMOVED].cap;
    size_t nl = 2 * (size_t)e->nv + 2;
    int in_occ = l >= e->occ && l < e->occ + nl;
    const ilpm_klist *last = in_occ ? e->occ + nl - 1 : e->cocc + nl - 1;
    uint32_t end = in_occ ? e->occ_end : e->cocc_end;
    if (in_occ && e->neg_unplaced) {
        /* the negative lists unplaced: none has room, and the positive
         * ones' end at occ_end */
        last = e->occ + e->nv;
        if (l > last)
            return 0;
    }
    if (l < last) {
        end = l[1].at;
        if (end & ILPM_KMOVED)
            end = e->moved[end & ~ILPM_KMOVED].base;
    }
    return end > l->at ? (int32_t)(end - l->at) : 0;
}

/* Moves list l out of the pool onto the heap, or grows it there, to
 * hold one more than its room. */
static int grow_list(ilpm_kern *e, ilpm_klist *l, int32_t room)
{
    if (room > INT32_MAX / 2)
        return -1;
    int32_t cap = room ? 2 * room : 4;
    ilpm_kocc *v = NULL;
    int32_t *a = NULL;
    if (l->at & ILPM_KMOVED) {
        ilpm_kmoved *m = &e->moved[l->at & ~ILPM_KMOVED];
        if (!(v = realloc(m->v, (size_t)cap * sizeof *v)))
            return -1;
        m->v = v;
        if (m->a && !(a = realloc(m->a, (size_t)cap * sizeof *a)))
            return -1;
        m->a = m->a ? a : NULL;
        m->cap = cap;
        return 0;
    }
    if (e->nmoved >= ILPM_KMOVED ||
        ilpm_grow((void **)&e->moved, &e->capmoved, e->nmoved + 1,
                  sizeof *e->moved) != 0 ||
        !(v = malloc((size_t)cap * sizeof *v)) ||
        (e->pa && !(a = malloc((size_t)cap * sizeof *a)))) {
        free(v);
        return -1;
    }
    if (l->n)
        memcpy(v, e->pool + l->at, (size_t)l->n * sizeof *v);
    if (l->n && a)
        memcpy(a, e->pa + l->at, (size_t)l->n * sizeof *a);
    e->moved[e->nmoved] = (ilpm_kmoved){v, a, cap, l->at};
    l->at = ILPM_KMOVED | (uint32_t)e->nmoved++;
    return 0;
}

/* The coefficients' arrays made (pa, and each moved list's), every
 * occurrence's 1, for the first coefficient other than 1 (a kernel of
 * unit rows stores none): 0, or -1 when out of memory. */
static int make_coefs(ilpm_kern *e)
{
    size_t n = e->narena / sizeof *e->pool;
    int32_t *pa = malloc((n ? n : 1) * sizeof *pa);
    if (!pa)
        return -1;
    for (size_t i = 0; i < n; i++)
        pa[i] = 1;
    for (size_t i = 0; i < e->nmoved; i++) {
        ilpm_kmoved *m = &e->moved[i];
        if (!(m->a = malloc((size_t)m->cap * sizeof *m->a))) {
            for (size_t j = 0; j <= i; j++) {
                free(e->moved[j].a);
                e->moved[j].a = NULL;
            }
            free(pa);
            return -1;
        }
        for (int32_t j = 0; j < m->cap; j++)
            m->a[j] = 1;
    }
    e->pa = pa;
    return 0;
}

/* Coefficient a as an occurrence holds it (ilpm_kocc), into *x: itself
 * when it fits in 31 bits, else its place in big, which grows; -1 when
 * out of memory. */
static int occ_a(ilpm_kern *e, int64_t a, int32_t *x)
{
    if (a <= INT32_MAX) {
        *x = (int32_t)a;
        return 0;
    }
    if (e->nbig >= INT32_MAX ||
        ilpm_grow((void **)&e->big, &e->capbig, e->nbig + 1, sizeof *e->big))
        return -1;
    e->big[e->nbig] = a;
    *x = (int32_t)(-1 - (int64_t)e->nbig++);
    return 0;
}

int ilpm_kern_push(ilpm_kern *e, ilpm_klist *l, int c, int64_t a)
{
    if (l > e->occ + e->nv && l < e->occ + 2 * (size_t)e->nv + 2)
        e->neg_none = 0; /* (a negative literal's list) */
    int32_t x, room = list_room(e, l);
    if ((l->n >= room && grow_list(e, l, room) != 0) ||
        (a != 1 && !e->pa && make_coefs(e) != 0) || occ_a(e, a, &x) != 0)
        return -1;
    ilpm_kocc *v = ilpm_klist_v(e, *l);
    int32_t *pa = ilpm_klist_a(e, *l);
    if (pa)
        pa[l->n] = x;
    v[l->n++].c = c;
    return 0;
}
