// The Fortran routines that take procedures the library calls back (MPI-3.1 sections 6.7.2, 6.7.3, 6.7.4 and 12.2):
// keyval creation for communicators, datatypes and windows, the MPI-1 MPI_KEYVAL_CREATE, MPI_GREQUEST_START; and the
// predefined attribute callbacks (MPI_COMM_DUP_FN, MPI_NULL_COPY_FN ...) as procedures, since mpif.h declares them
// EXTERNAL. A Fortran callback takes every argument by reference and reports through a trailing ierror, where the C
// core calls C functions with values: the core gets a C trampoline, whose extra_state points to the Fortran
// procedures and the program's extra state.
#include "online/fortran/FortranArguments.hpp"

#include <deque>
#include <memory>

// Here these names are the Fortran procedures (MPISIM_FORTRAN_NAMES pastes them), not mpi.h's C callbacks.
#undef MPI_NULL_COPY_FN
#undef MPI_NULL_DELETE_FN
#undef MPI_DUP_FN
#undef MPI_COMM_NULL_COPY_FN
#undef MPI_COMM_NULL_DELETE_FN
#undef MPI_COMM_DUP_FN
#undef MPI_TYPE_NULL_COPY_FN
#undef MPI_TYPE_NULL_DELETE_FN
#undef MPI_TYPE_DUP_FN
#undef MPI_WIN_NULL_COPY_FN
#undef MPI_WIN_NULL_DELETE_FN
#undef MPI_WIN_DUP_FN

using namespace mpisim::online::fortran;

namespace {

// A keyval's Fortran callbacks. `Value` is the integer attribute values and the extra state are: INTEGER(KIND=
// MPI_ADDRESS_KIND) for MPI_COMM_CREATE_KEYVAL and its kin, default INTEGER for MPI_KEYVAL_CREATE. The object handle
// is a communicator, a datatype or a window: integers alike.
template <typename Value> struct FortranKeyval {
  using Copy = void(const MPI_Fint* object, const MPI_Fint* keyval, const Value* extra_state,
                    const Value* attribute_val_in, Value* attribute_val_out, MPI_Fint* flag, MPI_Fint* ierror);
  using Delete = void(const MPI_Fint* object, const MPI_Fint* keyval, const Value* attribute_val,
                      const Value* extra_state, MPI_Fint* ierror);
  Copy* copy;
  Delete* remove;
  Value extra_state;
};

using AddressKeyval = FortranKeyval<MPI_Aint>;
using Mpi1Keyval = FortranKeyval<MPI_Fint>;

// Kept for the rest of the run: the core holds keyvals (and calls their callbacks) until their last attribute goes,
// past MPI_..._FREE_KEYVAL, and a deque does not move what it holds.
template <typename Value> FortranKeyval<Value>* keep(const FortranKeyval<Value>& callbacks)
{
  static std::deque<FortranKeyval<Value>> kept;
  kept.push_back(callbacks);
  return &kept.back();
}

// Fortran attributes are integers; the core stores them as pointers, sign-extended from default INTEGERs as
// MPI_ATTR_PUT stores them (api_fortran_special.cpp).
MPI_Aint as_integer(void* value)
{
  return reinterpret_cast<MPI_Aint>(value);
}

void* as_pointer(MPI_Aint value)
{
  return reinterpret_cast<void*>(value); // NOLINT(performance-no-int-to-ptr): Fortran attributes are integers
}

template <typename Value>
int copy_trampoline(int object, int keyval, void* extra_state, void* attribute_val_in, void* attribute_val_out,
                    int* flag)
{
  const auto& callbacks = *static_cast<const FortranKeyval<Value>*>(extra_state);
  const auto value_in = static_cast<Value>(as_integer(attribute_val_in));
  Value value_out = 0; // a callback writing a default INTEGER into an address-sized value leaves the rest zero
  MPI_Fint fortran_flag = 0;
  MPI_Fint ierror = MPI_SUCCESS;
  callbacks.copy(&object, &keyval, &callbacks.extra_state, &value_in, &value_out, &fortran_flag, &ierror);
  *flag = fortran_flag != 0 ? 1 : 0;
  if (*flag != 0)
    *static_cast<void**>(attribute_val_out) = as_pointer(value_out);
  return ierror;
}

template <typename Value> int delete_trampoline(int object, int keyval, void* attribute_val, void* extra_state)
{
  const auto& callbacks = *static_cast<const FortranKeyval<Value>*>(extra_state);
  const auto value = static_cast<Value>(as_integer(attribute_val));
  MPI_Fint ierror = MPI_SUCCESS;
  callbacks.remove(&object, &keyval, &value, &callbacks.extra_state, &ierror);
  return ierror;
}

} // namespace

// The predefined callbacks, callable from Fortran. The null ones serve every kind of keyval (they read no value);
// MPI_DUP_FN copies a default INTEGER, MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN and MPI_WIN_DUP_FN an address-sized one.
extern "C" void pmpi_null_copy_fn_(const MPI_Fint* /*object*/, const MPI_Fint* /*keyval*/, const void* /*extra*/,
                                   const void* /*attribute_val_in*/, void* /*attribute_val_out*/, MPI_Fint* flag,
                                   MPI_Fint* ierror)
{
  *flag = 0;
  set_ierror(ierror, MPI_SUCCESS);
}

extern "C" void pmpi_null_delete_fn_(const MPI_Fint* /*object*/, const MPI_Fint* /*keyval*/,
                                     const void* /*attribute_val*/, const void* /*extra*/, MPI_Fint* ierror)
{
  set_ierror(ierror, MPI_SUCCESS);
}

extern "C" void pmpi_dup_fn_(const MPI_Fint* /*object*/, const MPI_Fint* /*keyval*/, const MPI_Fint* /*extra*/,
                             const MPI_Fint* attribute_val_in, MPI_Fint* attribute_val_out, MPI_Fint* flag,
                             MPI_Fint* ierror)
{
  *attribute_val_out = *attribute_val_in;
  *flag = 1;
  set_ierror(ierror, MPI_SUCCESS);
}

extern "C" void pmpi_comm_dup_fn_(const MPI_Fint* /*object*/, const MPI_Fint* /*keyval*/, const MPI_Aint* /*extra*/,
                                  const MPI_Aint* attribute_val_in, MPI_Aint* attribute_val_out, MPI_Fint* flag,
                                  MPI_Fint* ierror)
{
  *attribute_val_out = *attribute_val_in;
  *flag = 1;
  set_ierror(ierror, MPI_SUCCESS);
}

MPISIM_FORTRAN_ALIAS(pmpi_comm_null_copy_fn_, pmpi_null_copy_fn_)
MPISIM_FORTRAN_ALIAS(pmpi_type_null_copy_fn_, pmpi_null_copy_fn_)
MPISIM_FORTRAN_ALIAS(pmpi_win_null_copy_fn_, pmpi_null_copy_fn_)
MPISIM_FORTRAN_ALIAS(pmpi_comm_null_delete_fn_, pmpi_null_delete_fn_)
MPISIM_FORTRAN_ALIAS(pmpi_type_null_delete_fn_, pmpi_null_delete_fn_)
MPISIM_FORTRAN_ALIAS(pmpi_win_null_delete_fn_, pmpi_null_delete_fn_)
MPISIM_FORTRAN_ALIAS(pmpi_type_dup_fn_, pmpi_comm_dup_fn_)
MPISIM_FORTRAN_ALIAS(pmpi_win_dup_fn_, pmpi_comm_dup_fn_)

namespace {

// The core calls a program's procedures (the predefined ones too: they are Fortran procedures like any other)
// through the trampolines.
template <typename Value>
int create_keyval(int (*create)(MPI_Comm_copy_attr_function*, MPI_Comm_delete_attr_function*, int*, void*),
                  typename FortranKeyval<Value>::Copy* copy, typename FortranKeyval<Value>::Delete* remove,
                  MPI_Fint* keyval, const Value* extra_state)
{
  return create(&copy_trampoline<Value>, &delete_trampoline<Value>, keyval,
                keep(FortranKeyval<Value>{copy, remove, *extra_state}));
}

} // namespace

extern "C" void pmpi_comm_create_keyval_(AddressKeyval::Copy* copy_fn, AddressKeyval::Delete* delete_fn,
                                         MPI_Fint* keyval, const MPI_Aint* extra_state, MPI_Fint* ierror)
{
  set_ierror(ierror, create_keyval<MPI_Aint>(PMPI_Comm_create_keyval, copy_fn, delete_fn, keyval, extra_state));
}

extern "C" void pmpi_type_create_keyval_(AddressKeyval::Copy* copy_fn, AddressKeyval::Delete* delete_fn,
                                         MPI_Fint* keyval, const MPI_Aint* extra_state, MPI_Fint* ierror)
{
  set_ierror(ierror, create_keyval<MPI_Aint>(PMPI_Type_create_keyval, copy_fn, delete_fn, keyval, extra_state));
}

extern "C" void pmpi_win_create_keyval_(AddressKeyval::Copy* copy_fn, AddressKeyval::Delete* delete_fn,
                                        MPI_Fint* keyval, const MPI_Aint* extra_state, MPI_Fint* ierror)
{
  set_ierror(ierror, create_keyval<MPI_Aint>(PMPI_Win_create_keyval, copy_fn, delete_fn, keyval, extra_state));
}

extern "C" void pmpi_keyval_create_(Mpi1Keyval::Copy* copy_fn, Mpi1Keyval::Delete* delete_fn, MPI_Fint* keyval,
                                    const MPI_Fint* extra_state, MPI_Fint* ierror)
{
  set_ierror(ierror, create_keyval<MPI_Fint>(PMPI_Keyval_create, copy_fn, delete_fn, keyval, extra_state));
}

// Generalized requests -------------------------------------------------------------------------------------------

namespace {

// A generalized request's Fortran callbacks. Unlike a keyval's, they get the program's own extra state variable,
// not a copy of its value: what they write there the program sees (as under MPICH and Open MPI; MPICH's greqf test
// checks that the free callback's update reaches the program).
struct FortranGeneralizedRequest {
  using Query = void(MPI_Aint* extra_state, MPI_Fint* status, MPI_Fint* ierror);
  using Free = void(MPI_Aint* extra_state, MPI_Fint* ierror);
  using Cancel = void(MPI_Aint* extra_state, const MPI_Fint* complete, MPI_Fint* ierror);
  Query* query;
  Free* release;
  Cancel* cancel;
  MPI_Aint* extra_state;
};

const FortranGeneralizedRequest& callbacks_of(void* extra_state)
{
  return *static_cast<const FortranGeneralizedRequest*>(extra_state);
}

int query_trampoline(void* extra_state, MPI_Status* status)
{
  MPI_Fint fortran_status[kStatusSize] = {};
  PMPI_Status_c2f(status, fortran_status);
  MPI_Fint ierror = MPI_SUCCESS;
  callbacks_of(extra_state).query(callbacks_of(extra_state).extra_state, fortran_status, &ierror);
  PMPI_Status_f2c(fortran_status, status);
  return ierror;
}

// The free callback is the request's last: the trampoline's state goes with it.
int free_trampoline(void* extra_state)
{
  const std::unique_ptr<const FortranGeneralizedRequest> owned(static_cast<FortranGeneralizedRequest*>(extra_state));
  MPI_Fint ierror = MPI_SUCCESS;
  owned->release(owned->extra_state, &ierror);
  return ierror;
}

int cancel_trampoline(void* extra_state, int complete)
{
  const MPI_Fint fortran_complete = complete != 0 ? 1 : 0; // a LOGICAL
  MPI_Fint ierror = MPI_SUCCESS;
  callbacks_of(extra_state).cancel(callbacks_of(extra_state).extra_state, &fortran_complete, &ierror);
  return ierror;
}

} // namespace

extern "C" void pmpi_grequest_start_(FortranGeneralizedRequest::Query* query_fn,
                                     FortranGeneralizedRequest::Free* free_fn,
                                     FortranGeneralizedRequest::Cancel* cancel_fn, MPI_Aint* extra_state,
                                     MPI_Fint* request, MPI_Fint* ierror)
{
  auto callbacks =
      std::make_unique<FortranGeneralizedRequest>(FortranGeneralizedRequest{query_fn, free_fn, cancel_fn, extra_state});
  const int result = PMPI_Grequest_start(query_fn != nullptr ? &query_trampoline : nullptr,
                                         free_fn != nullptr ? &free_trampoline : nullptr,
                                         cancel_fn != nullptr ? &cancel_trampoline : nullptr, callbacks.get(), request);
  if (result == MPI_SUCCESS)
    (void)callbacks.release(); // owned by the request until its free callback
  set_ierror(ierror, result);
}

MPISIM_FORTRAN_NAMES(null_copy_fn, NULL_COPY_FN)
MPISIM_FORTRAN_NAMES(null_delete_fn, NULL_DELETE_FN)
MPISIM_FORTRAN_NAMES(dup_fn, DUP_FN)
MPISIM_FORTRAN_NAMES(comm_null_copy_fn, COMM_NULL_COPY_FN)
MPISIM_FORTRAN_NAMES(comm_null_delete_fn, COMM_NULL_DELETE_FN)
MPISIM_FORTRAN_NAMES(comm_dup_fn, COMM_DUP_FN)
MPISIM_FORTRAN_NAMES(type_null_copy_fn, TYPE_NULL_COPY_FN)
MPISIM_FORTRAN_NAMES(type_null_delete_fn, TYPE_NULL_DELETE_FN)
MPISIM_FORTRAN_NAMES(type_dup_fn, TYPE_DUP_FN)
MPISIM_FORTRAN_NAMES(win_null_copy_fn, WIN_NULL_COPY_FN)
MPISIM_FORTRAN_NAMES(win_null_delete_fn, WIN_NULL_DELETE_FN)
MPISIM_FORTRAN_NAMES(win_dup_fn, WIN_DUP_FN)
MPISIM_FORTRAN_NAMES(comm_create_keyval, COMM_CREATE_KEYVAL)
MPISIM_FORTRAN_NAMES(type_create_keyval, TYPE_CREATE_KEYVAL)
MPISIM_FORTRAN_NAMES(win_create_keyval, WIN_CREATE_KEYVAL)
MPISIM_FORTRAN_NAMES(keyval_create, KEYVAL_CREATE)
MPISIM_FORTRAN_NAMES(grequest_start, GREQUEST_START)
