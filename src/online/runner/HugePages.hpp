// Transparent huge pages for the program's heap (`--huge-pages`, docs/online.md). The ranks' arrays all live in the
// one process, and each switch between ranks moves to another rank's megabytes: with 4 KiB pages the TLB holds a few
// ranks' working sets at most. glibc's malloc madvises its heap and its mmapped chunks for huge pages when the
// tunable glibc.malloc.hugetlb is 1, and it reads GLIBC_TUNABLES only when the process starts: so the runner sets it
// and executes itself again, before anything else is done.
#pragma once

#include <string>

namespace mpisim::online {

// GLIBC_TUNABLES with glibc.malloc.hugetlb=1 added, or `tunables` itself when it already sets glibc.malloc.hugetlb
// (the user's choice is kept, as are their other tunables).
std::string tunables_with_huge_pages(const std::string& tunables);

// Whether this process's malloc asks for huge pages: GLIBC_TUNABLES sets glibc.malloc.hugetlb to 1 or 2 (its last
// setting, the one glibc keeps) and, for 1, the kernel's transparent huge pages are not `never`.
bool heap_huge_pages_in_effect();

// When `wanted` and GLIBC_TUNABLES lacks glibc.malloc.hugetlb: adds it and executes /proc/self/exe again with the
// same arguments; does not return then. Returns when there is nothing to do, or when the exec failed (the run goes on
// with the pages it has).
void restart_with_huge_pages(bool wanted, char** argv);

} // namespace mpisim::online
