#include "common/Errors.hpp"

namespace mpisim {

static std::string located(const std::string& file, long line, const std::string& message)
{
  if (file.empty())
    return message;
  if (line <= 0)
    return file + ": " + message;
  return file + ":" + std::to_string(line) + ": " + message;
}

InputError::InputError(std::string file, long line, const std::string& message)
    : std::runtime_error(located(file, line, message)), file_(std::move(file)), line_(line), message_(message)
{
}

} // namespace mpisim
