#include "online/runner/PrivatizedProgram.hpp"

#include "online/runner/ProgramCopies.hpp"
#include "online/runner/ProgramLayout.hpp"
#include "online/runner/SwappedProgram.hpp"

#include "common/Errors.hpp"

#include <filesystem>

namespace mpisim::online {

namespace {

// Why swap cannot serve this program ("" when it can).
std::string swap_refusal(const std::optional<ProgramLayout>& layout)
{
  if (not layout)
    return "it is not a 64-bit shared object with one writable segment (build it with `mpisim cc`)";
  if (layout->runs_own_constructors())
    return "it runs static constructors at load time (C++ globals, __attribute__((constructor))): what they "
           "allocate would be shared by all ranks";
  return "";
}

} // namespace

std::unique_ptr<PrivatizedProgram> load_privatized_program(const std::string& program, int ranks,
                                                           const std::string& tmpdir, Privatization mode)
{
  if (not std::filesystem::exists(program))
    throw InputError(program, 0, "no such program");
  if (mode == Privatization::Dlopen)
    return std::make_unique<ProgramCopies>(program, ranks, tmpdir);
  const std::optional<ProgramLayout> layout = read_program_layout(program);
  const std::string refusal = swap_refusal(layout);
  if (mode == Privatization::Swap && not refusal.empty())
    throw InputError(program, 0,
                     "--privatization swap cannot load this program: " + refusal + "; use --privatization dlopen");
  if (mode == Privatization::Auto && (not refusal.empty() || layout->private_bytes() > kAutoSwapLimit))
    return std::make_unique<ProgramCopies>(program, ranks, tmpdir);
  return std::make_unique<SwappedProgram>(program, *layout, ranks);
}

} // namespace mpisim::online
