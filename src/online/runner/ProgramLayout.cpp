#include "online/runner/ProgramLayout.hpp"

#include <elf.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace mpisim::online {

namespace {

template <class T> bool read_at(std::ifstream& in, uint64_t offset, T& value)
{
  in.seekg(static_cast<std::streamoff>(offset));
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&value), sizeof value));
}

std::vector<Elf64_Phdr> program_headers(std::ifstream& in, const Elf64_Ehdr& header)
{
  std::vector<Elf64_Phdr> headers(header.e_phnum);
  for (size_t i = 0; i < headers.size(); ++i)
    if (not read_at(in, header.e_phoff + i * header.e_phentsize, headers[i]))
      return {};
  return headers;
}

// DT_INIT_ARRAYSZ from the dynamic section, in entries.
size_t init_array_entries(std::ifstream& in, const Elf64_Phdr& dynamic)
{
  for (uint64_t at = 0; at + sizeof(Elf64_Dyn) <= dynamic.p_filesz; at += sizeof(Elf64_Dyn)) {
    Elf64_Dyn entry{};
    if (not read_at(in, dynamic.p_offset + at, entry) || entry.d_tag == DT_NULL)
      break;
    if (entry.d_tag == DT_INIT_ARRAYSZ)
      return entry.d_un.d_val / sizeof(Elf64_Addr);
  }
  return 0;
}

// Sections the loader fills and the program never writes: identical for every rank, so not part of its image.
bool loader_only(const std::string& name)
{
  static const char* const names[] = {".dynamic",    ".got",           ".got.plt",    ".init_array",
                                      ".fini_array", ".preinit_array", ".data.rel.ro"};
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// The span of the writable, allocated, non-thread-local sections the program itself may write, within [start, end);
// false when the file has no section headers.
bool program_data_span(std::ifstream& in, const Elf64_Ehdr& header, uintptr_t& start, uintptr_t& end)
{
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  for (size_t i = 0; i < sections.size(); ++i)
    if (not read_at(in, header.e_shoff + i * header.e_shentsize, sections[i]))
      return false;
  if (sections.empty() || header.e_shstrndx >= sections.size())
    return false;
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  uintptr_t low = end, high = start;
  for (const Elf64_Shdr& section : sections) {
    const bool data =
        (section.sh_flags & SHF_ALLOC) && (section.sh_flags & SHF_WRITE) && not(section.sh_flags & SHF_TLS);
    if (not data || section.sh_size == 0 || section.sh_addr < start || section.sh_addr + section.sh_size > end)
      continue;
    std::string name(64, '\0');
    in.seekg(static_cast<std::streamoff>(names.sh_offset + section.sh_name));
    in.read(name.data(), static_cast<std::streamsize>(name.size()));
    in.clear();
    name.resize(std::char_traits<char>::length(name.c_str()));
    if (loader_only(name))
      continue;
    low = std::min<uintptr_t>(low, section.sh_addr);
    high = std::max<uintptr_t>(high, section.sh_addr + section.sh_size);
  }
  if (low >= high)
    low = high = start; // nothing to swap
  start = low;
  end = high;
  return true;
}

} // namespace

std::optional<ProgramLayout> read_program_layout(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr header{};
  if (not in || not read_at(in, 0, header) ||
      std::char_traits<char>::compare(reinterpret_cast<const char*>(header.e_ident), ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_type != ET_DYN)
    return std::nullopt;
  const std::vector<Elf64_Phdr> headers = program_headers(in, header);
  if (headers.empty())
    return std::nullopt;
  ProgramLayout layout;
  int writable_segments = 0;
  uintptr_t relro_end = 0;
  for (const Elf64_Phdr& segment : headers) {
    if (segment.p_type == PT_LOAD && (segment.p_flags & PF_W)) {
      ++writable_segments;
      layout.data_start = segment.p_vaddr;
      layout.data_end = segment.p_vaddr + segment.p_memsz;
    } else if (segment.p_type == PT_GNU_RELRO) {
      relro_end = segment.p_vaddr + segment.p_memsz;
    } else if (segment.p_type == PT_TLS) {
      layout.tls_size = segment.p_memsz;
    } else if (segment.p_type == PT_DYNAMIC) {
      layout.constructors = init_array_entries(in, segment);
    }
  }
  if (writable_segments != 1)
    return std::nullopt; // not a layout this privatization knows
  layout.data_start = std::clamp(relro_end, layout.data_start, layout.data_end);
  program_data_span(in, header, layout.data_start, layout.data_end);
  return layout;
}

} // namespace mpisim::online
