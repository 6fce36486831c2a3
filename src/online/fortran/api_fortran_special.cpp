// The Fortran routines whose form differs from C's beyond how arguments are passed, so fortran_bindings.py does not
// generate them (its NOT_GENERATED list): MPI_INIT and MPI_INIT_THREAD (no argc/argv), MPI_PCONTROL (no ierror),
// and the attribute routines, whose values are integers in Fortran (MPI-3.1 section 6.7: INTEGER(KIND=
// MPI_ADDRESS_KIND) for MPI_COMM_SET_ATTR and its kin, default INTEGER for the deprecated MPI_ATTR_PUT/GET) where C
// passes pointers, MPI_INFO_GET (its value is written only when the key is found), and MPI_COMM_SPAWN and
// MPI_COMM_SPAWN_MULTIPLE (arrays of strings; mpisim refuses both, so only the command and the handles are passed on).
#include "online/fortran/FortranArguments.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace mpisim::online::fortran;

namespace {

// The integer a Fortran program reads for an attribute whose C value is `value`. Predefined attributes are pointers
// to their values in C (MPI_TAG_UB ... MPI_APPNUM, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT ...), except MPI_WIN_BASE, the
// address itself; a program's own attributes are the integers it stored.
MPI_Aint attribute_integer(int keyval, void* value, bool window)
{
  if (window && keyval == MPI_WIN_SIZE)
    return *static_cast<MPI_Aint*>(value);
  if (window && keyval >= MPI_WIN_DISP_UNIT && keyval <= MPI_WIN_MODEL)
    return *static_cast<int*>(value);
  if (not window && keyval >= MPI_TAG_UB && keyval <= MPI_APPNUM)
    return *static_cast<int*>(value);
  return reinterpret_cast<MPI_Aint>(value);
}

void* attribute_pointer(MPI_Aint value)
{
  return reinterpret_cast<void*>(value); // NOLINT(performance-no-int-to-ptr): Fortran attributes are integers
}

using GetAttribute = int (*)(int, int, void*, int*);

int get_attribute(GetAttribute get, int object, int keyval, MPI_Aint* value, MPI_Fint* flag, bool window)
{
  void* c_value = nullptr;
  const int result = get(object, keyval, static_cast<void*>(&c_value), flag);
  if (result == MPI_SUCCESS && *flag != 0)
    *value = attribute_integer(keyval, c_value, window);
  return result;
}

} // namespace

extern "C" void pmpi_init_(MPI_Fint* ierror)
{
  set_ierror(ierror, PMPI_Init(nullptr, nullptr));
}

extern "C" void pmpi_init_thread_(const MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierror)
{
  set_ierror(ierror, PMPI_Init_thread(nullptr, nullptr, *required, provided));
}

extern "C" void pmpi_pcontrol_(const MPI_Fint* level)
{
  PMPI_Pcontrol(*level);
}

extern "C" void pmpi_comm_set_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, const MPI_Aint* value,
                                    MPI_Fint* ierror)
{
  set_ierror(ierror, PMPI_Comm_set_attr(*comm, *keyval, attribute_pointer(*value)));
}

extern "C" void pmpi_comm_get_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                                    MPI_Fint* ierror)
{
  set_ierror(ierror, get_attribute(PMPI_Comm_get_attr, *comm, *keyval, value, flag, false));
}

extern "C" void pmpi_type_set_attr_(const MPI_Fint* type, const MPI_Fint* keyval, const MPI_Aint* value,
                                    MPI_Fint* ierror)
{
  set_ierror(ierror, PMPI_Type_set_attr(*type, *keyval, attribute_pointer(*value)));
}

extern "C" void pmpi_type_get_attr_(const MPI_Fint* type, const MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                                    MPI_Fint* ierror)
{
  set_ierror(ierror, get_attribute(PMPI_Type_get_attr, *type, *keyval, value, flag, false));
}

extern "C" void pmpi_win_set_attr_(const MPI_Fint* win, const MPI_Fint* keyval, const MPI_Aint* value, MPI_Fint* ierror)
{
  set_ierror(ierror, PMPI_Win_set_attr(*win, *keyval, attribute_pointer(*value)));
}

extern "C" void pmpi_win_get_attr_(const MPI_Fint* win, const MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                                   MPI_Fint* ierror)
{
  set_ierror(ierror, get_attribute(PMPI_Win_get_attr, *win, *keyval, value, flag, true));
}

extern "C" void pmpi_attr_put_(const MPI_Fint* comm, const MPI_Fint* keyval, const MPI_Fint* value, MPI_Fint* ierror)
{
  set_ierror(ierror, PMPI_Attr_put(*comm, *keyval, attribute_pointer(*value)));
}

extern "C" void pmpi_attr_get_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* flag,
                               MPI_Fint* ierror)
{
  MPI_Aint wide = 0;
  set_ierror(ierror, get_attribute(PMPI_Attr_get, *comm, *keyval, &wide, flag, false));
  if (*flag != 0)
    *value = static_cast<MPI_Fint>(wide);
}

// MPI_INFO_GET(INFO, KEY, VALUELEN, VALUE, FLAG, IERROR): at most VALUELEN characters, and no more than VALUE holds;
// VALUE is left as it was when the key is absent (the program may rely on it, as MPICH's infotest2f does).
extern "C" void pmpi_info_get_(const MPI_Fint* info, const char* key, const MPI_Fint* valuelen, char* value,
                               MPI_Fint* flag, MPI_Fint* ierror, size_t key_length, size_t value_length)
{
  const std::string key_ = info_string_in(key, key_length);
  const int fits = *valuelen < 0 ? *valuelen : static_cast<int>(std::min<size_t>(*valuelen, value_length));
  StringOut value_(value, value_length, 1);
  const int result = PMPI_Info_get(*info, key_.c_str(), fits, value_.c(), flag);
  if (result == MPI_SUCCESS && *flag != 0)
    value_.write_back();
  set_ierror(ierror, result);
}

// MPI_COMM_SPAWN(COMMAND, ARGV, MAXPROCS, INFO, ROOT, COMM, INTERCOMM, ARRAY_OF_ERRCODES, IERROR), the lengths of
// COMMAND and of ARGV's strings after the arguments.
extern "C" void pmpi_comm_spawn_(const char* command, const char* /*argv*/, const MPI_Fint* maxprocs,
                                 const MPI_Fint* info, const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* intercomm,
                                 MPI_Fint* /*array_of_errcodes*/, MPI_Fint* ierror, size_t command_length,
                                 size_t /*argv_length*/)
{
  const std::string command_ = string_in(command, command_length);
  set_ierror(ierror, PMPI_Comm_spawn(command_.c_str(), MPI_ARGV_NULL, *maxprocs, *info, *root, *comm, intercomm,
                                     MPI_ERRCODES_IGNORE));
}

// MPI_COMM_SPAWN_MULTIPLE(COUNT, ARRAY_OF_COMMANDS, ARRAY_OF_ARGV, ARRAY_OF_MAXPROCS, ARRAY_OF_INFO, ROOT, COMM,
// INTERCOMM, ARRAY_OF_ERRCODES, IERROR), then the lengths of the commands and of the argument strings.
extern "C" void pmpi_comm_spawn_multiple_(const MPI_Fint* count, const char* /*array_of_commands*/,
                                          const char* /*array_of_argv*/, const MPI_Fint* array_of_maxprocs,
                                          const MPI_Fint* array_of_info, const MPI_Fint* root, const MPI_Fint* comm,
                                          MPI_Fint* intercomm, MPI_Fint* /*array_of_errcodes*/, MPI_Fint* ierror,
                                          size_t /*commands_length*/, size_t /*argv_length*/)
{
  set_ierror(ierror, PMPI_Comm_spawn_multiple(*count, nullptr, MPI_ARGVS_NULL, array_of_maxprocs, array_of_info, *root,
                                              *comm, intercomm, MPI_ERRCODES_IGNORE));
}

MPISIM_FORTRAN_NAMES(init, INIT)
MPISIM_FORTRAN_NAMES(init_thread, INIT_THREAD)
MPISIM_FORTRAN_NAMES(pcontrol, PCONTROL)
MPISIM_FORTRAN_NAMES(comm_set_attr, COMM_SET_ATTR)
MPISIM_FORTRAN_NAMES(comm_get_attr, COMM_GET_ATTR)
MPISIM_FORTRAN_NAMES(type_set_attr, TYPE_SET_ATTR)
MPISIM_FORTRAN_NAMES(type_get_attr, TYPE_GET_ATTR)
MPISIM_FORTRAN_NAMES(win_set_attr, WIN_SET_ATTR)
MPISIM_FORTRAN_NAMES(win_get_attr, WIN_GET_ATTR)
MPISIM_FORTRAN_NAMES(attr_put, ATTR_PUT)
MPISIM_FORTRAN_NAMES(attr_get, ATTR_GET)
MPISIM_FORTRAN_NAMES(info_get, INFO_GET)
MPISIM_FORTRAN_NAMES(comm_spawn, COMM_SPAWN)
MPISIM_FORTRAN_NAMES(comm_spawn_multiple, COMM_SPAWN_MULTIPLE)
