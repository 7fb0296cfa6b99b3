/* symbolize.c — names of code addresses from the ELF symbol tables of the
 * process's files, and whether the runtime came with the program or with a
 * later dlopen (symbolize.h).  Depends on libc only: the ELF64 structures are
 * read with <elf.h>.
 *
 * Finding the file: the line of /proc/self/maps whose range holds the address
 * gives the file's path, inode and the file offset mapped at the range's
 * start, so the address's file offset is addr - start + offset; the PT_LOAD
 * program header that holds that offset turns it into the virtual address the
 * symbol table speaks of.  No load bias is needed, and neither is the
 * dynamic linker's list (whose walk takes a lock: not in a signal handler). */
#define _GNU_SOURCE
#include "symbolize.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- one ELF file, mapped read-only ------------------------------------- */

struct sym_table {
  const Elf64_Sym *syms;
  size_t count;
  const char *strs;
  size_t strs_size;
};

struct elf_file {
  const unsigned char *data;
  size_t size;
  const Elf64_Phdr *phdr;
  size_t phnum;
  struct sym_table tables[2]; /* .symtab, then .dynsym; count 0 if absent */
};

/* Whether [offset, offset + size) lies in the file, aligned for `align`. */
static bool in_file(const struct elf_file *f, uint64_t offset, uint64_t size, size_t align) {
  return offset <= f->size && size <= f->size - offset && offset % align == 0;
}

static bool elf_parse(struct elf_file *f) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->data;
  if (f->size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64)
    return false;
  if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
      !in_file(f, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr), 8))
    return false;
  f->phdr = (const Elf64_Phdr *)(f->data + eh->e_phoff);
  f->phnum = eh->e_phnum;
  if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
      !in_file(f, eh->e_shoff, sizeof(Elf64_Shdr), 8))
    return false;
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(f->data + eh->e_shoff);
  /* More than SHN_LORESERVE sections: the count is in section 0. */
  uint64_t shnum = eh->e_shnum ? eh->e_shnum : sh[0].sh_size;
  if (!in_file(f, eh->e_shoff, shnum * sizeof(Elf64_Shdr), 8)) return false;
  for (uint64_t i = 0; i < shnum; i++) {
    int which = sh[i].sh_type == SHT_SYMTAB ? 0 : sh[i].sh_type == SHT_DYNSYM ? 1 : -1;
    if (which < 0 || sh[i].sh_entsize != sizeof(Elf64_Sym) ||
        !in_file(f, sh[i].sh_offset, sh[i].sh_size, 8) || sh[i].sh_link >= shnum)
      continue;
    const Elf64_Shdr *str = &sh[sh[i].sh_link];
    if (str->sh_type != SHT_STRTAB || !in_file(f, str->sh_offset, str->sh_size, 1)) continue;
    struct sym_table *t = &f->tables[which];
    t->syms = (const Elf64_Sym *)(f->data + sh[i].sh_offset);
    t->count = sh[i].sh_size / sizeof(Elf64_Sym);
    t->strs = (const char *)(f->data + str->sh_offset);
    t->strs_size = str->sh_size;
  }
  return f->tables[0].count || f->tables[1].count;
}

/* The name of the function (objects: false) or data object (objects: true)
 * at virtual address `vaddr`, or NULL; *start gets the symbol's address. */
static const char *table_lookup(const struct sym_table *t, uint64_t vaddr, bool objects,
                                uint64_t *start) {
  for (size_t i = 0; i < t->count; i++) {
    const Elf64_Sym *s = &t->syms[i];
    unsigned type = ELF64_ST_TYPE(s->st_info);
    bool wanted = objects ? type == STT_OBJECT : type == STT_FUNC || type == STT_GNU_IFUNC;
    if (!wanted || s->st_shndx == SHN_UNDEF) continue;
    if (!(vaddr - s->st_value < s->st_size || (s->st_size == 0 && vaddr == s->st_value))) continue;
    if (s->st_name == 0 || s->st_name >= t->strs_size) continue;
    const char *name = t->strs + s->st_name;
    if (!memchr(name, '\0', t->strs_size - s->st_name)) continue;
    *start = s->st_value;
    return name;
  }
  return NULL;
}

static const char *tables_lookup(const struct elf_file *f, uint64_t vaddr, bool objects,
                                 uint64_t *start) {
  const char *name = table_lookup(&f->tables[0], vaddr, objects, start);
  return name ? name : table_lookup(&f->tables[1], vaddr, objects, start);
}

/* The virtual address of a file offset, through the PT_LOAD header that
 * maps it from the file. */
static bool file_offset_vaddr(const struct elf_file *f, uint64_t file_offset, uint64_t *vaddr) {
  for (size_t i = 0; i < f->phnum; i++) {
    const Elf64_Phdr *p = &f->phdr[i];
    if (p->p_type != PT_LOAD || file_offset < p->p_offset ||
        file_offset - p->p_offset >= p->p_filesz)
      continue;
    *vaddr = p->p_vaddr + (file_offset - p->p_offset);
    return true;
  }
  return false;
}

static const char *elf_lookup(const struct elf_file *f, uint64_t file_offset) {
  uint64_t vaddr, start;
  return file_offset_vaddr(f, file_offset, &vaddr) ? tables_lookup(f, vaddr, false, &start) : NULL;
}

/* Maps the file at `path` if it is inode `ino` (the one the process mapped:
 * a path rebuilt since names another file).  Only the inode is compared: on
 * overlayfs /proc/self/maps may give the device of the layer below. */
static bool elf_open(const char *path, ino_t ino, struct elf_file *f) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  void *data = MAP_FAILED;
  if (fstat(fd, &st) == 0 && st.st_ino == ino && S_ISREG(st.st_mode) && st.st_size > 0)
    data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (data == MAP_FAILED) return false;
  memset(f, 0, sizeof *f);
  f->data = data;
  f->size = (size_t)st.st_size;
  if (elf_parse(f)) return true;
  munmap(data, f->size);
  return false;
}

/* ---- the mapping that holds an address ------------------------------------ */

struct mapping {
  uintptr_t start, end;
  uint64_t offset;
  ino_t ino;
  char path[PATH_MAX];
};

static bool parse_hex(const char **p, uint64_t *out) {
  uint64_t v = 0;
  const char *s = *p;
  for (;; s++) {
    unsigned d;
    if (*s >= '0' && *s <= '9')
      d = (unsigned)(*s - '0');
    else if (*s >= 'a' && *s <= 'f')
      d = (unsigned)(*s - 'a' + 10);
    else
      break;
    v = v * 16 + d;
  }
  if (s == *p) return false;
  *p = s;
  *out = v;
  return true;
}

static bool skip_field(const char **p) {
  while (**p && **p != ' ') ++*p;
  while (**p == ' ') ++*p;
  return **p != '\0';
}

/* One line of /proc/self/maps: "start-end perms offset dev inode   path". */
static bool parse_line(const char *line, uintptr_t addr, struct mapping *m) {
  uint64_t start, end, offset, ino = 0;
  const char *p = line;
  if (!parse_hex(&p, &start) || *p++ != '-' || !parse_hex(&p, &end)) return false;
  if (addr < start || addr >= end) return false;
  while (*p == ' ') p++;
  if (!skip_field(&p) || !parse_hex(&p, &offset)) return false; /* perms, offset */
  while (*p == ' ') p++;
  if (!skip_field(&p)) return false; /* dev */
  for (; *p >= '0' && *p <= '9'; p++) ino = ino * 10 + (uint64_t)(*p - '0');
  while (*p == ' ') p++;
  if (*p != '/') return false; /* anonymous, [vdso], [heap]... */
  size_t len = strlen(p);
  if (len >= sizeof m->path) return false;
  memcpy(m->path, p, len + 1);
  m->start = start;
  m->end = end;
  m->offset = offset;
  m->ino = (ino_t)ino;
  return true;
}

static bool find_mapping(uintptr_t addr, struct mapping *m) {
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char chunk[512], line[PATH_MAX + 128];
  size_t len = 0;
  bool found = false, overlong = false;
  ssize_t n;
  while (!found && (n = read(fd, chunk, sizeof chunk)) > 0) {
    for (ssize_t i = 0; i < n && !found; i++) {
      if (chunk[i] != '\n') {
        if (len + 1 < sizeof line)
          line[len++] = chunk[i];
        else
          overlong = true;
        continue;
      }
      line[len] = '\0';
      found = !overlong && parse_line(line, addr, m);
      len = 0;
      overlong = false;
    }
  }
  close(fd);
  return found;
}

/* ---- the cache of mapped files -------------------------------------------- */

enum { SLOTS = 32, SLOT_EMPTY = 0, SLOT_READY, SLOT_FAILED };

struct slot {
  atomic_int state; /* set last, with release: the fields below are then final */
  ino_t ino;
  char path_hash[16];
  struct mapping_range {
    uintptr_t start, end;
    uint64_t offset;
  } range; /* the mapping of the first look-up: the next ones in it skip /proc */
  struct elf_file file;
};

static struct slot cache[SLOTS];
static atomic_uint cache_claimed; /* slots handed out; may exceed SLOTS */

/* A path's fingerprint, to tell apart two files with one inode number on two
 * devices (the device itself cannot be compared, see elf_open). */
static void fingerprint(const char *path, char out[16]) {
  uint64_t h1 = 1469598103934665603ull, h2 = 0x9e3779b97f4a7c15ull;
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    h1 = (h1 ^ *p) * 1099511628211ull;
    h2 = (h2 + *p) * 0xff51afd7ed558ccdull;
  }
  memcpy(out, &h1, 8);
  memcpy(out + 8, &h2, 8);
}

static const char *lookup_in(const struct mapping *m, uintptr_t addr) {
  char hash[16];
  fingerprint(m->path, hash);
  uint64_t file_offset = addr - m->start + m->offset;
  unsigned claimed = atomic_load_explicit(&cache_claimed, memory_order_acquire);
  for (unsigned i = 0; i < claimed && i < SLOTS; i++) {
    struct slot *s = &cache[i];
    int state = atomic_load_explicit(&s->state, memory_order_acquire);
    if (state == SLOT_EMPTY || s->ino != m->ino || memcmp(s->path_hash, hash, 16) != 0) continue;
    return state == SLOT_READY ? elf_lookup(&s->file, file_offset) : NULL;
  }
  /* First look in this file (or a race with another first look: then both
   * map it, and the second slot is never found, a harmless waste). */
  struct elf_file f;
  bool ok = elf_open(m->path, m->ino, &f);
  /* A deleted executable is still open as /proc/self/exe. */
  if (!ok) ok = elf_open("/proc/self/exe", m->ino, &f);
  unsigned i = atomic_fetch_add_explicit(&cache_claimed, 1, memory_order_relaxed);
  if (i >= SLOTS) { /* the name would live in a mapping nobody keeps */
    if (ok) munmap((void *)f.data, f.size);
    return NULL;
  }
  struct slot *s = &cache[i];
  s->ino = m->ino;
  memcpy(s->path_hash, hash, 16);
  s->range = (struct mapping_range){m->start, m->end, m->offset};
  if (ok) s->file = f;
  atomic_store_explicit(&s->state, ok ? SLOT_READY : SLOT_FAILED, memory_order_release);
  return ok ? elf_lookup(&s->file, file_offset) : NULL;
}

/* A report names every thread: without this, each name would read all of
 * /proc/self/maps (thousands of lines with thousands of stacks).  A range
 * could only be stale if its file were unmapped (dlclose) and another mapped
 * there after a report, and reports end the process. */
static const char *lookup_cached(uintptr_t addr, bool *known) {
  unsigned claimed = atomic_load_explicit(&cache_claimed, memory_order_acquire);
  for (unsigned i = 0; i < claimed && i < SLOTS; i++) {
    struct slot *s = &cache[i];
    if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) continue;
    if (addr < s->range.start || addr >= s->range.end) continue;
    *known = true;
    return elf_lookup(&s->file, addr - s->range.start + s->range.offset);
  }
  *known = false;
  return NULL;
}

const char *wuc_symbolize(const void *addr) {
  if (!addr) return NULL;
  bool known;
  const char *name = lookup_cached((uintptr_t)addr, &known);
  if (known) return name;
  struct mapping m;
  if (!find_mapping((uintptr_t)addr, &m)) return NULL;
  return lookup_in(&m, (uintptr_t)addr);
}

/* ---- data objects ------------------------------------------------------------
 *
 * A static or global object lies in a PT_LOAD segment of its file, but not
 * always in a part mapped from the file: the end of .bss is an anonymous
 * mapping, which /proc/self/maps names no file for.  So the address is
 * matched against the memory image (p_memsz) of the segments of each file
 * already mapped here, placed by the load bias that the slot's first mapping
 * gives; a file not yet mapped is found with dl_iterate_phdr first. */

/* The virtual address that a mapping starting at file offset `offset` (a
 * page boundary) starts at: a segment's mapping begins at the page that
 * holds its first byte, which may lie before p_offset. */
static bool mapping_vaddr(const struct elf_file *f, uint64_t offset, uint64_t *vaddr) {
  for (size_t i = 0; i < f->phnum; i++) {
    const Elf64_Phdr *p = &f->phdr[i];
    if (p->p_type != PT_LOAD || p->p_filesz == 0 || offset > p->p_offset ||
        p->p_offset - offset >= 4096 || p->p_vaddr < p->p_offset - offset)
      continue;
    *vaddr = p->p_vaddr - (p->p_offset - offset);
    return true;
  }
  return file_offset_vaddr(f, offset, vaddr);
}

/* Whether `addr` is in a segment of slot s's file; *vaddr gets its virtual address. */
static bool slot_holds(const struct slot *s, uintptr_t addr, uint64_t *vaddr) {
  uint64_t range_vaddr;
  if (!mapping_vaddr(&s->file, s->range.offset, &range_vaddr)) return false;
  uint64_t v = addr - (s->range.start - range_vaddr);
  for (size_t i = 0; i < s->file.phnum; i++) {
    const Elf64_Phdr *p = &s->file.phdr[i];
    if (p->p_type == PT_LOAD && v - p->p_vaddr < p->p_memsz) {
      *vaddr = v;
      return true;
    }
  }
  return false;
}

/* C++ mangles a `static` variable at namespace scope as _ZL<length><name>:
 * its plain name, as C would have it.  Any other mangled name is kept. */
static const char *unmangle_internal(const char *name) {
  if (strncmp(name, "_ZL", 3) != 0) return name;
  const char *p = name + 3;
  size_t len = 0;
  for (; *p >= '0' && *p <= '9'; p++) len = len * 10 + (size_t)(*p - '0');
  return p != name + 3 && strlen(p) == len ? p : name;
}

static bool name_in_cache(uintptr_t addr, char *buf, size_t size) {
  unsigned claimed = atomic_load_explicit(&cache_claimed, memory_order_acquire);
  for (unsigned i = 0; i < claimed && i < SLOTS; i++) {
    struct slot *s = &cache[i];
    uint64_t vaddr, start;
    if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY ||
        !slot_holds(s, addr, &vaddr))
      continue;
    const char *name = tables_lookup(&s->file, vaddr, true, &start);
    if (!name) return false;
    name = unmangle_internal(name);
    if (vaddr == start)
      snprintf(buf, size, "%s", name);
    else
      snprintf(buf, size, "%s+%llu", name, (unsigned long long)(vaddr - start));
    return true;
  }
  return false;
}

/* The address of a part of the object holding `addr` that is mapped from its
 * file (its first PT_LOAD segment with file contents), or 0. */
struct object_probe {
  uintptr_t addr, mapped;
};

static int find_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct object_probe *probe = arg;
  bool holds = false;
  uintptr_t mapped = 0;
  for (size_t i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *p = &info->dlpi_phdr[i];
    if (p->p_type != PT_LOAD) continue;
    uintptr_t lo = info->dlpi_addr + p->p_vaddr;
    if (probe->addr - lo < p->p_memsz) holds = true;
    if (!mapped && p->p_filesz > 0) mapped = lo;
  }
  if (!holds) return 0;
  probe->mapped = mapped;
  return 1;
}

bool wuc_symbolize_data(const void *addr, char *buf, size_t size) {
  if (!addr || size == 0) return false;
  if (name_in_cache((uintptr_t)addr, buf, size)) return true;
  struct object_probe probe = {(uintptr_t)addr, 0};
  if (!dl_iterate_phdr(find_object, &probe) || !probe.mapped) return false;
  (void)wuc_symbolize((const void *)probe.mapped); /* maps the file into the cache */
  return name_in_cache((uintptr_t)addr, buf, size);
}

/* ---- was the runtime loaded with the program? ------------------------------
 *
 * The program as started is the executable, the libraries named in
 * $LD_PRELOAD, and everything their DT_NEEDED entries name, transitively; a
 * dlopen adds objects that are not in that closure.  dl_iterate_phdr lists
 * the executable first. */

struct object {
  const char *path; /* "" for the executable */
  const char *soname;
  const Elf64_Dyn *dyn;
  const char *strtab;
  bool holds; /* the address is in one of its segments */
  bool started;
};

struct objects {
  struct object *v;
  size_t n, cap;
  uintptr_t addr;
};

/* The dynamic section's pointers are usually relocated by the dynamic linker
 * but not always (a read-only dynamic section): take whichever form lies in
 * the object's segments. */
static const char *in_segments(const struct dl_phdr_info *info, uintptr_t ptr) {
  for (uintptr_t cand = ptr, tries = 0; tries < 2; tries++, cand = ptr + info->dlpi_addr)
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
      const ElfW(Phdr) *p = &info->dlpi_phdr[i];
      uintptr_t lo = info->dlpi_addr + p->p_vaddr;
      if (p->p_type == PT_LOAD && cand - lo < p->p_memsz) return (const char *)cand;
    }
  return NULL;
}

static int collect(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct objects *os = arg;
  if (os->n == os->cap) {
    size_t cap = os->cap ? os->cap * 2 : 64;
    struct object *v = realloc(os->v, cap * sizeof *v);
    if (!v) return 1;
    os->v = v;
    os->cap = cap;
  }
  struct object *o = &os->v[os->n++];
  memset(o, 0, sizeof *o);
  o->path = info->dlpi_name ? info->dlpi_name : "";
  for (size_t i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *p = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + p->p_vaddr;
    if (p->p_type == PT_LOAD && os->addr - lo < p->p_memsz) o->holds = true;
    if (p->p_type == PT_DYNAMIC) o->dyn = (const Elf64_Dyn *)lo;
  }
  if (!o->dyn) return 0;
  uintptr_t soname = 0;
  bool has_soname = false;
  for (const Elf64_Dyn *d = o->dyn; d->d_tag != DT_NULL; d++) {
    if (d->d_tag == DT_STRTAB) o->strtab = in_segments(info, d->d_un.d_ptr);
    if (d->d_tag == DT_SONAME) {
      soname = d->d_un.d_val;
      has_soname = true;
    }
  }
  if (o->strtab && has_soname) o->soname = o->strtab + soname;
  return 0;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Whether `name` (a DT_NEEDED entry or an $LD_PRELOAD word) names `o`. */
static bool names(const char *name, size_t len, const struct object *o) {
  if (memchr(name, '/', len)) return strlen(o->path) == len && memcmp(o->path, name, len) == 0;
  if (o->soname && strlen(o->soname) == len && memcmp(o->soname, name, len) == 0) return true;
  const char *base = base_name(o->path);
  return strlen(base) == len && memcmp(base, name, len) == 0;
}

static bool start(struct objects *os, const char *name, size_t len) {
  bool changed = false;
  for (size_t j = 0; j < os->n; j++)
    if (!os->v[j].started && names(name, len, &os->v[j])) changed = os->v[j].started = true;
  return changed;
}

bool wuc_loaded_with_program(const void *addr) {
  struct objects os = {NULL, 0, 0, (uintptr_t)addr};
  dl_iterate_phdr(collect, &os);
  if (os.n == 0) {
    free(os.v);
    return true; /* nothing known: as before */
  }
  os.v[0].started = true;
  const char *preload = getenv("LD_PRELOAD");
  for (const char *p = preload ? preload : ""; *p;) {
    size_t len = strcspn(p, " :");
    if (len) start(&os, p, len);
    p += len;
    p += strspn(p, " :");
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < os.n; i++) {
      const struct object *o = &os.v[i];
      if (!o->started || !o->dyn || !o->strtab) continue;
      for (const Elf64_Dyn *d = o->dyn; d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_NEEDED) {
          const char *name = o->strtab + d->d_un.d_val;
          changed |= start(&os, name, strlen(name));
        }
    }
  }
  bool any_holds = false, started = false;
  for (size_t i = 0; i < os.n; i++) {
    any_holds |= os.v[i].holds;
    started |= os.v[i].holds && os.v[i].started;
  }
  free(os.v);
  return started || !any_holds;
}
