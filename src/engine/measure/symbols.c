/*
 * Names for code addresses: /proc/kallsyms for the kernel, the ELF symbol
 * tables of this process's executable mappings for user space.  Both are
 * loaded once into sorted arrays; a name lives in one arena and is found by
 * its symbol's id (kernel symbols first, then user ones).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols.h"

#define OBJECTS_MAX 32
/* How far an IFUNC's chosen implementation is taken to reach. */
#define IFUNC_REACH 4096

struct symbol {
	uint64_t addr;
	uint64_t end;	 /* user symbols with a size; 0: up to the next one */
	uint32_t name;	 /* offset in the arena */
	uint16_t object; /* index in objects[] */
};

struct table {
	struct symbol *symbol;
	size_t count, capacity;
};

static struct {
	struct table kernel, user;
	char *arena;
	size_t arena_len, arena_capacity;
	char objects[OBJECTS_MAX][64];
	size_t object_count;
	char kernel_why[200];
	int error;
} symtab;

static pthread_once_t symtab_once = PTHREAD_ONCE_INIT;

static int arena_add(const char *name, uint32_t *offset)
{
	size_t len = strlen(name) + 1;

	if (symtab.arena_len + len > symtab.arena_capacity) {
		size_t capacity = symtab.arena_capacity
					  ? symtab.arena_capacity * 2
					  : 1 << 20;
		char *grown;

		while (capacity < symtab.arena_len + len)
			capacity *= 2;
		grown = realloc(symtab.arena, capacity);
		if (!grown)
			return -ENOMEM;
		symtab.arena = grown;
		symtab.arena_capacity = capacity;
	}
	memcpy(symtab.arena + symtab.arena_len, name, len);
	*offset = (uint32_t)symtab.arena_len;
	symtab.arena_len += len;
	return 0;
}

static int table_add(struct table *t, uint64_t addr, uint64_t end,
		     const char *name, uint16_t object)
{
	struct symbol *s;

	if (t->count == t->capacity) {
		size_t capacity = t->capacity ? t->capacity * 2 : 4096;
		struct symbol *grown = realloc(t->symbol,
					       capacity * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		t->symbol = grown;
		t->capacity = capacity;
	}
	s = &t->symbol[t->count];
	*s = (struct symbol){.addr = addr, .end = end, .object = object};
	if (arena_add(name, &s->name) < 0)
		return -ENOMEM;
	t->count++;
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static uint16_t object_add(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	for (size_t i = 0; i < symtab.object_count; i++)
		if (strcmp(symtab.objects[i], base) == 0)
			return (uint16_t)i;
	if (symtab.object_count == OBJECTS_MAX)
		return OBJECTS_MAX - 1; /* the last one stands for the rest */
	snprintf(symtab.objects[symtab.object_count], sizeof(symtab.objects[0]),
		 "%s", base);
	return (uint16_t)symtab.object_count++;
}

/* The kernel's text symbols; none, with why, where addresses are hidden. */
static int load_kernel(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	uint16_t kernel = object_add("kernel");
	char line[512], name[256], type;
	unsigned long long addr;
	bool any_address = false;
	int r = 0;

	if (!f) {
		snprintf(symtab.kernel_why, sizeof(symtab.kernel_why),
			 "cannot read /proc/kallsyms: %s", strerror(errno));
		return 0;
	}
	while (r == 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    (type != 't' && type != 'T'))
			continue;
		any_address |= addr != 0;
		r = table_add(&symtab.kernel, addr, 0, name, kernel);
	}
	fclose(f);
	if (r < 0)
		return r;
	if (!any_address) {
		symtab.kernel.count = 0;
		snprintf(symtab.kernel_why, sizeof(symtab.kernel_why),
			 "kernel addresses are hidden here "
			 "(kernel.kptr_restrict): run as root, or sysctl "
			 "kernel.kptr_restrict=0");
	}
	qsort(symtab.kernel.symbol, symtab.kernel.count,
	      sizeof(*symtab.kernel.symbol), by_addr);
	return 0;
}

/* An executable mapping of a file. */
struct mapping {
	uint64_t start, end, offset;
	char path[4096];
};

/*
 * The load bias of mapping m of an ELF file: what turns a symbol's value
 * into its address here, from the segment the mapping holds.
 */
static bool elf_bias(const uint8_t *image, size_t size, const struct mapping *m,
		     uint64_t *bias)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;

	if (eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > size)
		return false;
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(image +
							    eh->e_phoff) +
				       i;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) ||
		    m->offset < (ph->p_offset & ~(uint64_t)0xfff) ||
		    m->offset >= ph->p_offset + ph->p_filesz)
			continue;
		*bias = m->start - m->offset - (ph->p_vaddr - ph->p_offset);
		return true;
	}
	return false;
}

/* The section of type, or NULL. */
static const Elf64_Shdr *elf_section(const uint8_t *image, size_t size,
				     uint32_t type)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;

	if (eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
		return NULL;
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = (const Elf64_Shdr *)(image +
							    eh->e_shoff) +
				       i;

		if (sh->sh_type == type && sh->sh_offset + sh->sh_size <= size)
			return sh;
	}
	return NULL;
}

/* The functions of the ELF image that mapping m holds. */
static int elf_functions(const uint8_t *image, size_t size,
			 const struct mapping *m, uint16_t object)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	const Elf64_Shdr *sh = elf_section(image, size, SHT_SYMTAB);
	const Elf64_Shdr *strings;
	uint64_t bias;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    !elf_bias(image, size, m, &bias))
		return 0;
	if (!sh)
		sh = elf_section(image, size, SHT_DYNSYM);
	if (!sh || sh->sh_link >= eh->e_shnum)
		return 0;
	strings = (const Elf64_Shdr *)(image + eh->e_shoff) + sh->sh_link;
	if (strings->sh_offset + strings->sh_size > size)
		return 0;
	for (size_t i = 0; i < sh->sh_size / sizeof(Elf64_Sym); i++) {
		const Elf64_Sym *s = (const Elf64_Sym *)(image +
							 sh->sh_offset) +
				     i;
		int kind = ELF64_ST_TYPE(s->st_info);
		uint64_t addr = s->st_value + bias;

		if ((kind != STT_FUNC && kind != STT_GNU_IFUNC) ||
		    s->st_shndx == SHN_UNDEF || !s->st_size ||
		    s->st_name >= strings->sh_size || addr < m->start ||
		    addr >= m->end)
			continue;
		if (table_add(&symtab.user, addr, addr + s->st_size,
			      (const char *)image + strings->sh_offset +
				      s->st_name,
			      object) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int load_mapping(const struct mapping *m)
{
	struct stat st;
	uint8_t *image;
	int fd = open(m->path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return 0; /* gone, or not ours to read: unnamed */
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return 0;
	}
	image = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (image == MAP_FAILED)
		return 0;
	r = elf_functions(image, (size_t)st.st_size, m, object_add(m->path));
	munmap(image, (size_t)st.st_size);
	return r;
}

/* libc's chosen mem* implementations, which the shipped libc leaves unnamed. */
static int load_ifuncs(void)
{
	void *(*volatile copy)(void *, const void *, size_t) = memcpy;
	void *(*volatile move)(void *, const void *, size_t) = memmove;
	void *(*volatile set)(void *, int, size_t) = memset;
	const struct {
		uint64_t addr;
		const char *name;
	} chosen[] = {
		{(uint64_t)(uintptr_t)copy, "memcpy"},
		{(uint64_t)(uintptr_t)move, "memmove"},
		{(uint64_t)(uintptr_t)set, "memset"},
	};
	uint16_t libc = object_add("libc.so.6");

	for (size_t i = 0; i < sizeof(chosen) / sizeof(*chosen); i++) {
		bool named = symbols_find(chosen[i].addr, false) != SYMBOL_NONE;

		for (size_t j = 0; j < i; j++)
			named |= chosen[j].addr == chosen[i].addr;
		if (!named && table_add(&symtab.user, chosen[i].addr,
					chosen[i].addr + IFUNC_REACH,
					chosen[i].name, libc) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int load_user(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4352], perms[8];
	struct mapping m;
	int r = 0;

	if (!f)
		return -errno;
	while (r == 0 && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, offset;

		m.path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start,
			   &end, perms, &offset, m.path) < 4 ||
		    !strchr(perms, 'x') || m.path[0] != '/')
			continue;
		m.start = start;
		m.end = end;
		m.offset = offset;
		r = load_mapping(&m);
	}
	fclose(f);
	if (r == 0)
		qsort(symtab.user.symbol, symtab.user.count,
		      sizeof(*symtab.user.symbol), by_addr);
	if (r == 0)
		r = load_ifuncs();
	if (r == 0)
		qsort(symtab.user.symbol, symtab.user.count,
		      sizeof(*symtab.user.symbol), by_addr);
	return r;
}

static void load_once(void)
{
	symtab.error = load_kernel();
	if (symtab.error == 0)
		symtab.error = load_user();
}

int symbols_load(void)
{
	pthread_once(&symtab_once, load_once);
	return symtab.error;
}

const char *symbols_kernel_why(void)
{
	return symtab.kernel_why[0] ? symtab.kernel_why : NULL;
}

/* The index of the last symbol at or below addr, or SIZE_MAX. */
static size_t last_at_or_below(const struct table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->symbol[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : SIZE_MAX;
}

uint32_t symbols_find(uint64_t addr, bool kernel)
{
	const struct table *t = kernel ? &symtab.kernel : &symtab.user;
	size_t i = last_at_or_below(t, addr);
	const struct symbol *s;

	if (i == SIZE_MAX)
		return SYMBOL_NONE;
	s = &t->symbol[i];
	/* A sized symbol ends where it says; a kernel one at the next. */
	if (s->end ? addr >= s->end
		   : i + 1 < t->count && addr >= t->symbol[i + 1].addr)
		return SYMBOL_NONE;
	return (uint32_t)(kernel ? i : symtab.kernel.count + i);
}

static const struct symbol *symbol_of(uint32_t id)
{
	if (id == SYMBOL_NONE)
		return NULL;
	if (id < symtab.kernel.count)
		return &symtab.kernel.symbol[id];
	id -= (uint32_t)symtab.kernel.count;
	return id < symtab.user.count ? &symtab.user.symbol[id] : NULL;
}

const char *symbols_name(uint32_t id)
{
	const struct symbol *s = symbol_of(id);

	return s ? symtab.arena + s->name : "?";
}

const char *symbols_object(uint32_t id)
{
	const struct symbol *s = symbol_of(id);

	return s ? symtab.objects[s->object] : "?";
}
