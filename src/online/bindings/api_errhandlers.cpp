// Error handlers, classes, codes and strings: MPI_Comm_set/get_errhandler, MPI_Comm_create_errhandler,
// MPI_Errhandler_free, MPI_Comm_call_errhandler, MPI_Error_class, MPI_Error_string, MPI_Add_error_class/code/string,
// and the MPI-1 names removed in MPI-3.0: MPI_Errhandler_create, MPI_Errhandler_set, MPI_Errhandler_get.
//
// A user handler is called with the communicator and the error code, then the failing call returns the code
// (raise_error). Classes and codes a rank adds are numbered from MPI_ERR_LASTCODE + 1, in the order it adds them.
#include "online/bindings/Arguments.hpp"
#include "online/objects/ProcessObjects.hpp"
#include "online/runtime/ErrorClasses.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace mpisim::online;

namespace {

constexpr int kPredefinedClasses = static_cast<int>(sizeof kErrorClasses / sizeof kErrorClasses[0]);

RankObjects& mine(Runtime& runtime)
{
  return runtime.process_objects().of_rank(runtime.current_rank());
}

bool is_predefined(int code)
{
  return code >= 0 && code < kPredefinedClasses;
}

bool is_added(Runtime& runtime, int code)
{
  return mine(runtime).class_of_code.count(code) != 0;
}

// The class of a predefined or added code (MPI_Error_class, MPI_Comm_call_errhandler).
int class_of(Runtime& runtime, int code)
{
  return is_predefined(code) ? code : mine(runtime).class_of_code.at(code);
}

bool is_attachable(Runtime& runtime, int errhandler)
{
  if (errhandler == MPI_ERRORS_ARE_FATAL || errhandler == MPI_ERRORS_RETURN)
    return true;
  const UserErrhandler* user = runtime.process_objects().errhandler(errhandler);
  return user != nullptr && user->references > 0;
}

} // namespace

extern "C" int PMPI_Error_class(int errorcode, int* errorclass)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, is_predefined(errorcode) || is_added(runtime, errorcode), MPI_COMM_WORLD, MPI_ERR_ARG,
               "unknown error code " + std::to_string(errorcode));
  *errorclass = class_of(runtime, errorcode);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Error_string(int errorcode, char* string, int* resultlen)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, is_predefined(errorcode) || is_added(runtime, errorcode), MPI_COMM_WORLD, MPI_ERR_ARG,
               "unknown error code " + std::to_string(errorcode));
  if (is_predefined(errorcode)) {
    const ErrorClassText& text = kErrorClasses[errorcode];
    *resultlen = std::snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", text.name, text.message);
  } else { // the string the application set, empty when it set none (as the standard says)
    const auto& strings = mine(runtime).error_strings;
    auto found = strings.find(errorcode);
    *resultlen = std::snprintf(string, MPI_MAX_ERROR_STRING, "%s", found == strings.end() ? "" : found->second.c_str());
  }
  *resultlen = std::min(*resultlen, MPI_MAX_ERROR_STRING - 1);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Add_error_class(int* errorclass)
{
  Runtime& runtime = Runtime::get();
  RankObjects& objects = mine(runtime);
  *errorclass = ++objects.last_used_code;
  objects.class_of_code[*errorclass] = *errorclass;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Add_error_code(int errorclass, int* errorcode)
{
  Runtime& runtime = Runtime::get();
  RankObjects& objects = mine(runtime);
  const bool added_class = is_added(runtime, errorclass) && objects.class_of_code.at(errorclass) == errorclass;
  MPISIM_CHECK(runtime, is_predefined(errorclass) || added_class, MPI_COMM_WORLD, MPI_ERR_ARG,
               "unknown error class " + std::to_string(errorclass));
  *errorcode = ++objects.last_used_code;
  objects.class_of_code[*errorcode] = errorclass;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Add_error_string(int errorcode, const char* string)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, is_added(runtime, errorcode), MPI_COMM_WORLD, MPI_ERR_ARG,
               "error code " + std::to_string(errorcode) + " was not added by MPI_Add_error_class/code");
  MPISIM_CHECK(runtime, string != nullptr && std::strlen(string) < MPI_MAX_ERROR_STRING, MPI_COMM_WORLD, MPI_ERR_ARG,
               "the string must hold fewer than MPI_MAX_ERROR_STRING characters");
  mine(runtime).error_strings[errorcode] = string;
  return MPI_SUCCESS;
}

namespace {
// The bodies the MPI-2 calls share with their MPI-1 names, `call` naming the one called.
int create_errhandler(Runtime& runtime, MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler,
                      const char* call)
{
  if (function == nullptr)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, call, "null error handler function");
  *errhandler = runtime.process_objects().add_errhandler(function);
  return MPI_SUCCESS;
}

int set_errhandler(Runtime& runtime, MPI_Comm comm, MPI_Errhandler errhandler, const char* call)
{
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, call, c));
  if (not is_attachable(runtime, errhandler))
    return raise_error(runtime, comm, MPI_ERR_ARG, call, "invalid error handler " + std::to_string(errhandler));
  runtime.communicators().set_errhandler(runtime.current_rank(), comm, errhandler);
  return MPI_SUCCESS;
}

int get_errhandler(Runtime& runtime, MPI_Comm comm, MPI_Errhandler* errhandler, const char* call)
{
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, call, c));
  *errhandler = runtime.communicators().errhandler(runtime.current_rank(), comm);
  if (UserErrhandler* user = runtime.process_objects().errhandler(*errhandler))
    ++user->references; // a new handle the application frees
  return MPI_SUCCESS;
}
} // namespace

extern "C" int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler)
{
  Runtime& runtime = Runtime::get();
  return create_errhandler(runtime, function, errhandler, "MPI_Comm_create_errhandler");
}

extern "C" int PMPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler)
{
  Runtime& runtime = Runtime::get();
  return create_errhandler(runtime, function, errhandler, "MPI_Errhandler_create");
}

extern "C" int PMPI_Errhandler_free(MPI_Errhandler* errhandler)
{
  Runtime& runtime = Runtime::get();
  // Predefined handlers may be freed too (MPI-3.1 8.3.4): only the handle is reset.
  UserErrhandler* user = runtime.process_objects().errhandler(*errhandler);
  const bool predefined = *errhandler == MPI_ERRORS_ARE_FATAL || *errhandler == MPI_ERRORS_RETURN;
  MPISIM_CHECK(runtime, predefined || (user != nullptr && user->references > 0), MPI_COMM_WORLD, MPI_ERR_ARG,
               "invalid error handler " + std::to_string(*errhandler));
  if (user != nullptr)
    --user->references; // communicators using it keep it
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
  Runtime& runtime = Runtime::get();
  return set_errhandler(runtime, comm, errhandler, "MPI_Comm_set_errhandler");
}

extern "C" int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
  Runtime& runtime = Runtime::get();
  return set_errhandler(runtime, comm, errhandler, "MPI_Errhandler_set");
}

extern "C" int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler)
{
  Runtime& runtime = Runtime::get();
  return get_errhandler(runtime, comm, errhandler, "MPI_Comm_get_errhandler");
}

extern "C" int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler)
{
  Runtime& runtime = Runtime::get();
  return get_errhandler(runtime, comm, errhandler, "MPI_Errhandler_get");
}

extern "C" int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_call_errhandler", c));
  int error_class = MPI_ERR_UNKNOWN;
  if (is_predefined(errorcode) || is_added(runtime, errorcode))
    error_class = class_of(runtime, errorcode);
  // The handler sees the code itself; a fatal handler reports its class.
  const int handler = runtime.communicators().errhandler(runtime.current_rank(), comm);
  const int raised = handler == MPI_ERRORS_ARE_FATAL ? error_class : errorcode;
  std::string what = "error code " + std::to_string(errorcode);
  if (auto found = mine(runtime).error_strings.find(errorcode); found != mine(runtime).error_strings.end())
    what += " (" + found->second + ")"; // added classes have no standard name: their string says what they are
  raise_error(runtime, comm, raised, "MPI_Comm_call_errhandler", what);
  return MPI_SUCCESS; // the handler returned
}

MPISIM_ALIAS(Error_class)
MPISIM_ALIAS(Error_string)
MPISIM_ALIAS(Add_error_class)
MPISIM_ALIAS(Add_error_code)
MPISIM_ALIAS(Add_error_string)
MPISIM_ALIAS(Comm_create_errhandler)
MPISIM_ALIAS(Errhandler_free)
MPISIM_ALIAS(Comm_set_errhandler)
MPISIM_ALIAS(Comm_get_errhandler)
MPISIM_ALIAS(Comm_call_errhandler)
MPISIM_ALIAS(Errhandler_create)
MPISIM_ALIAS(Errhandler_set)
MPISIM_ALIAS(Errhandler_get)
