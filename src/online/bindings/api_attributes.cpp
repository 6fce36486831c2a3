// Attribute caching on communicators, datatypes and windows (MPI-3.1 sections 6.7, 11.2.6), the deprecated MPI-1 names
// still in 3.1 (MPI_Keyval_create, MPI_Attr_put ...), and the predefined attributes of sections 8.1.2 and 11.2.6: one
// set of operations, over each kind's AttributeKind.
#include "online/bindings/Arguments.hpp"
#include "online/bindings/WindowArguments.hpp"
#include "online/objects/ProcessObjects.hpp"

#include "mpi/Datatype.hpp"

using namespace mpisim::online;

namespace {
bool predefined(int keyval)
{
  return keyval >= MPI_TAG_UB && keyval <= MPI_APPNUM;
}

// The values the predefined keys point to, valid for the whole run: the same for every rank, except the last error
// code the rank added (ProcessObjects).
int* predefined_value(Runtime& runtime, int keyval)
{
  if (keyval == MPI_LASTUSEDCODE)
    return &runtime.process_objects().of_rank(runtime.current_rank()).last_used_code;
  static int tag_ub = MPI_TAG_UB_VALUE;
  static int host = MPI_PROC_NULL; // no host process
  static int io = MPI_ANY_SOURCE;  // every rank may do I/O (as Open MPI and MPICH answer)
  static int wtime_is_global = 1;  // one simulated clock for every rank
  static int universe_size = 0;
  static int appnum = 0; // one application (no MPMD launch)
  universe_size = runtime.world().size();
  int* values[] = {&tag_ub, &host, &io, &wtime_is_global, &universe_size, nullptr, &appnum};
  return values[keyval - MPI_TAG_UB];
}

int create_keyval(Runtime& runtime, AttributeObject object, MPI_Comm_copy_attr_function* copy,
                  MPI_Comm_delete_attr_function* remove, int* keyval, void* extra_state)
{
  *keyval = runtime.attributes().create_keyval(Keyval{object, runtime.current_rank(), copy, remove, extra_state});
  return MPI_SUCCESS;
}

// What differs between the kinds of object that carry attributes: how a call checks the object's handle, through
// which handler its errors go, and which keyvals are predefined (read-only, with a value of the object's own).
struct AttributeKind {
  AttributeObject object;
  int (*check_handle)(Runtime& runtime, int handle, const char* call); // MPI_SUCCESS or the raised class
  int (*raise)(Runtime& runtime, int handle, int error_class, const char* call, const std::string& what);
  bool (*is_predefined)(int keyval); // what MPI_..._free_keyval refuses to free
  // The value of a predefined keyval on a checked handle; null for a kind with no predefined attribute, whose
  // predefined keyvals are invalid ones (datatypes).
  void* (*predefined_value)(Runtime& runtime, int handle, int keyval);
};

int check_comm(Runtime& runtime, int handle, const char* call)
{
  if (runtime.comm(handle) == nullptr)
    return runtime.communicators().raise_invalid(runtime, handle, MPI_COMM_WORLD, call);
  return MPI_SUCCESS;
}

int check_type(Runtime& runtime, int handle, const char* call)
{
  if (runtime.datatypes().find(handle) == nullptr)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype " + std::to_string(handle));
  return MPI_SUCCESS;
}

int check_win(Runtime& runtime, int handle, const char* call)
{
  WindowAccess access;
  return resolve_window(runtime, handle, call, access);
}

// Errors go to the communicator's or the window's handler (raise_error, raise_window_error); datatypes have none
// here, so theirs go to MPI_COMM_WORLD's.
int raise_on_world(Runtime& runtime, int /*handle*/, int error_class, const char* call, const std::string& what)
{
  return raise_error(runtime, MPI_COMM_WORLD, error_class, call, what);
}

bool is_window_keyval(int keyval)
{
  return keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL;
}

void* comm_value(Runtime& runtime, int /*handle*/, int keyval)
{
  return predefined_value(runtime, keyval);
}

// The value a predefined window attribute gives: the base itself, pointers to the others.
void* window_value(Runtime& runtime, int handle, int keyval)
{
  WindowAccess access;
  resolve_window(runtime, handle, "MPI_Win_get_attr", access); // checked already: it succeeds
  WindowPart& part = *access.part;
  switch (keyval) {
  case MPI_WIN_BASE: return part.base;
  case MPI_WIN_SIZE: return &part.size;
  case MPI_WIN_DISP_UNIT: return &part.disp_unit;
  case MPI_WIN_CREATE_FLAVOR: return &part.flavor;
  default: return &part.model;
  }
}

constexpr AttributeKind kCommAttributes{AttributeObject::Comm, check_comm, raise_error, predefined, comm_value};
constexpr AttributeKind kTypeAttributes{AttributeObject::Type, check_type, raise_on_world, predefined, nullptr};
constexpr AttributeKind kWinAttributes{AttributeObject::Win, check_win, raise_window_error, is_window_keyval,
                                       window_value};

bool has_predefined(const AttributeKind& kind, int keyval)
{
  return kind.predefined_value != nullptr && kind.is_predefined(keyval);
}

int check_user_keyval(Runtime& runtime, const AttributeKind& kind, int handle, int keyval, const char* call)
{
  if (runtime.attributes().keyval(runtime.current_rank(), kind.object, keyval) == nullptr)
    return kind.raise(runtime, handle, MPI_ERR_KEYVAL, call, "invalid keyval " + std::to_string(keyval));
  return MPI_SUCCESS;
}

// Setting and deleting: the object exists and `keyval` is a user keyval (the predefined ones are read-only).
int check_writable(Runtime& runtime, const AttributeKind& kind, int handle, int keyval, const char* call)
{
  MPISIM_TRY(kind.check_handle(runtime, handle, call));
  if (has_predefined(kind, keyval))
    return kind.raise(runtime, handle, MPI_ERR_KEYVAL, call,
                      "predefined attribute " + std::to_string(keyval) + " is read-only");
  return check_user_keyval(runtime, kind, handle, keyval, call);
}

int free_keyval(Runtime& runtime, const AttributeKind& kind, int* keyval, const char* call)
{
  if (runtime.attributes().keyval(runtime.current_rank(), kind.object, *keyval) == nullptr)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_KEYVAL, call,
                       kind.is_predefined(*keyval) ? "cannot free a predefined keyval"
                                                   : "invalid keyval " + std::to_string(*keyval));
  runtime.attributes().free_keyval(*keyval);
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int set_attr(Runtime& runtime, const AttributeKind& kind, int handle, int keyval, void* value, const char* call)
{
  MPISIM_TRY(check_writable(runtime, kind, handle, keyval, call));
  return runtime.attributes().set(runtime.current_rank(), kind.object, handle, keyval, value);
}

int get_attr(Runtime& runtime, const AttributeKind& kind, int handle, int keyval, void* value, int* flag,
             const char* call)
{
  MPISIM_TRY(kind.check_handle(runtime, handle, call));
  if (has_predefined(kind, keyval)) {
    *static_cast<void**>(value) = kind.predefined_value(runtime, handle, keyval);
    *flag = 1;
    return MPI_SUCCESS;
  }
  MPISIM_TRY(check_user_keyval(runtime, kind, handle, keyval, call));
  void* stored = nullptr;
  *flag = runtime.attributes().get(runtime.current_rank(), kind.object, handle, keyval, stored);
  if (*flag)
    *static_cast<void**>(value) = stored;
  return MPI_SUCCESS;
}

int delete_attr(Runtime& runtime, const AttributeKind& kind, int handle, int keyval, const char* call)
{
  MPISIM_TRY(check_writable(runtime, kind, handle, keyval, call));
  bool found = false;
  return runtime.attributes().remove(runtime.current_rank(), kind.object, handle, keyval, found);
}
} // namespace

extern "C" int mpisim_attribute_dup_fn(int oldobject, int keyval, void* extra_state, void* attribute_val_in,
                                       void* attribute_val_out, int* flag)
{
  (void)oldobject, (void)keyval, (void)extra_state;
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

// The MPI-1 callbacks as functions: what MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN and MPI_DUP_FN stand for.
extern "C" int MPI_Null_copy_fn(MPI_Comm comm, int keyval, void* extra_state, void* attribute_val_in,
                                void* attribute_val_out, int* flag)
{
  (void)comm, (void)keyval, (void)extra_state, (void)attribute_val_in, (void)attribute_val_out;
  *flag = 0;
  return MPI_SUCCESS;
}

extern "C" int MPI_Null_delete_fn(MPI_Comm comm, int keyval, void* attribute_val, void* extra_state)
{
  (void)comm, (void)keyval, (void)attribute_val, (void)extra_state;
  return MPI_SUCCESS;
}

extern "C" int MPI_Dup_fn(MPI_Comm comm, int keyval, void* extra_state, void* attribute_val_in, void* attribute_val_out,
                          int* flag)
{
  return mpisim_attribute_dup_fn(comm, keyval, extra_state, attribute_val_in, attribute_val_out, flag);
}

// Communicators -------------------------------------------------------------------------------------------------------

extern "C" int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy_fn, MPI_Comm_delete_attr_function* delete_fn,
                                       int* keyval, void* extra_state)
{
  Runtime& runtime = Runtime::get();
  return create_keyval(runtime, AttributeObject::Comm, copy_fn, delete_fn, keyval, extra_state);
}

extern "C" int PMPI_Comm_free_keyval(int* keyval)
{
  Runtime& runtime = Runtime::get();
  return free_keyval(runtime, kCommAttributes, keyval, "MPI_Comm_free_keyval");
}

extern "C" int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void* attribute_val)
{
  Runtime& runtime = Runtime::get();
  return set_attr(runtime, kCommAttributes, comm, keyval, attribute_val, "MPI_Comm_set_attr");
}

extern "C" int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void* attribute_val, int* flag)
{
  Runtime& runtime = Runtime::get();
  return get_attr(runtime, kCommAttributes, comm, keyval, attribute_val, flag, "MPI_Comm_get_attr");
}

extern "C" int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
  Runtime& runtime = Runtime::get();
  return delete_attr(runtime, kCommAttributes, comm, keyval, "MPI_Comm_delete_attr");
}

// MPI-1 names, deprecated but in MPI-3.1 ------------------------------------------------------------------------------

extern "C" int PMPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval,
                                  void* extra_state)
{
  Runtime& runtime = Runtime::get();
  return create_keyval(runtime, AttributeObject::Comm, copy_fn, delete_fn, keyval, extra_state);
}

extern "C" int PMPI_Keyval_free(int* keyval)
{
  Runtime& runtime = Runtime::get();
  return free_keyval(runtime, kCommAttributes, keyval, "MPI_Keyval_free");
}

extern "C" int PMPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val)
{
  Runtime& runtime = Runtime::get();
  return set_attr(runtime, kCommAttributes, comm, keyval, attribute_val, "MPI_Attr_put");
}

extern "C" int PMPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag)
{
  Runtime& runtime = Runtime::get();
  return get_attr(runtime, kCommAttributes, comm, keyval, attribute_val, flag, "MPI_Attr_get");
}

extern "C" int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
  Runtime& runtime = Runtime::get();
  return delete_attr(runtime, kCommAttributes, comm, keyval, "MPI_Attr_delete");
}

// Datatypes -----------------------------------------------------------------------------------------------------------

extern "C" int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* copy_fn, MPI_Type_delete_attr_function* delete_fn,
                                       int* keyval, void* extra_state)
{
  Runtime& runtime = Runtime::get();
  return create_keyval(runtime, AttributeObject::Type, copy_fn, delete_fn, keyval, extra_state);
}

extern "C" int PMPI_Type_free_keyval(int* keyval)
{
  Runtime& runtime = Runtime::get();
  return free_keyval(runtime, kTypeAttributes, keyval, "MPI_Type_free_keyval");
}

extern "C" int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void* attribute_val)
{
  Runtime& runtime = Runtime::get();
  return set_attr(runtime, kTypeAttributes, type, keyval, attribute_val, "MPI_Type_set_attr");
}

extern "C" int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void* attribute_val, int* flag)
{
  Runtime& runtime = Runtime::get();
  return get_attr(runtime, kTypeAttributes, type, keyval, attribute_val, flag, "MPI_Type_get_attr");
}

extern "C" int PMPI_Type_delete_attr(MPI_Datatype type, int keyval)
{
  Runtime& runtime = Runtime::get();
  return delete_attr(runtime, kTypeAttributes, type, keyval, "MPI_Type_delete_attr");
}

// Windows (MPI-3.1 section 11.2.6): windows are never duplicated, so a copy callback is kept but never called ---------

extern "C" int PMPI_Win_create_keyval(MPI_Win_copy_attr_function* copy_fn, MPI_Win_delete_attr_function* delete_fn,
                                      int* keyval, void* extra_state)
{
  Runtime& runtime = Runtime::get();
  return create_keyval(runtime, AttributeObject::Win, copy_fn, delete_fn, keyval, extra_state);
}

extern "C" int PMPI_Win_free_keyval(int* keyval)
{
  Runtime& runtime = Runtime::get();
  return free_keyval(runtime, kWinAttributes, keyval, "MPI_Win_free_keyval");
}

extern "C" int PMPI_Win_set_attr(MPI_Win win, int keyval, void* attribute_val)
{
  Runtime& runtime = Runtime::get();
  return set_attr(runtime, kWinAttributes, win, keyval, attribute_val, "MPI_Win_set_attr");
}

extern "C" int PMPI_Win_get_attr(MPI_Win win, int keyval, void* attribute_val, int* flag)
{
  Runtime& runtime = Runtime::get();
  return get_attr(runtime, kWinAttributes, win, keyval, attribute_val, flag, "MPI_Win_get_attr");
}

extern "C" int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
  Runtime& runtime = Runtime::get();
  return delete_attr(runtime, kWinAttributes, win, keyval, "MPI_Win_delete_attr");
}

MPISIM_ALIAS(Comm_create_keyval)
MPISIM_ALIAS(Comm_free_keyval)
MPISIM_ALIAS(Comm_set_attr)
MPISIM_ALIAS(Comm_get_attr)
MPISIM_ALIAS(Comm_delete_attr)
MPISIM_ALIAS(Keyval_create)
MPISIM_ALIAS(Keyval_free)
MPISIM_ALIAS(Attr_put)
MPISIM_ALIAS(Attr_get)
MPISIM_ALIAS(Attr_delete)
MPISIM_ALIAS(Type_create_keyval)
MPISIM_ALIAS(Type_free_keyval)
MPISIM_ALIAS(Type_set_attr)
MPISIM_ALIAS(Type_get_attr)
MPISIM_ALIAS(Type_delete_attr)
MPISIM_ALIAS(Win_create_keyval)
MPISIM_ALIAS(Win_free_keyval)
MPISIM_ALIAS(Win_set_attr)
MPISIM_ALIAS(Win_get_attr)
MPISIM_ALIAS(Win_delete_attr)
